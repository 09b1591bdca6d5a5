#pragma once
// The hooks Christmas Present registers in its Load (model/core/hooks.h describes each): the
// checks (validate.cc), the scoring hooks (scoring_hooks.cc) and the forced square
// (force_steps.cc).

#include <vector>

#include "model/core/hooks.h"
#include "model/core/position.h"

namespace carc::exp::christmas_present {

void Validate(const model::Position& pos, std::vector<model::Violation>& out);
bool Excused(const model::Position& pos, int figure, model::Excuse excuse);

void MajorityAdjustmentsOn(const model::Position& pos, int root,
                           std::vector<model::MajorityAdjustment>& out);
void AdjustMajority(const model::Position& pos, model::ScoreEvent& ev);
void OnCompleted(model::Position& pos, model::ScoreEvent& ev, bool& return_figures,
                 std::vector<model::ScoreEvent>& extra);
void OnFeatureScored(model::Position& pos, int root, model::ApplyResult& out);
void BeforeFinalScoring(model::Position& pos, std::vector<model::ScoreEvent>& out);
void AfterFinalScoring(model::Position& pos, std::vector<model::ScoreEvent>& out);

// XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE: the forced square.
bool ForceAllows(const model::Position& pos, model::TileType t, model::Coord c, model::Rotation r,
                 model::Verdict* why);
bool ForceInForce(const model::Position& pos, model::TileType t);
void OnTilePlaced(model::Position& pos, const model::Action& a, model::ApplyResult& r);

}  // namespace carc::exp::christmas_present

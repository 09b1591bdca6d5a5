#pragma once
// Helpers shared by logic.cc and check_play.cc (not part of the module's interface).

#include <optional>
#include <string>
#include <vector>

#include "model/core/position.h"
#include "model/expansions/christmas_present/actions.h"
#include "model/expansions/christmas_present/state.h"

namespace carc::exp::christmas_present::internal {

using model::PlayerId;
using model::Position;

std::string At(model::Coord c);
std::string Where(const Position& pos, int node);
std::string KindName(model::FeatureKind k);
int Root(const Position& pos, int node);
// A completed feature that was scored before this turn (only laid-down figures can remain).
bool CompletedEarlier(const Position& pos, int root);
bool HasOpponentFigure(const Position& pos, int root, PlayerId p);
std::vector<PlayerId> TurnOrderAfter(const Position& pos, PlayerId p);
std::vector<PlayerId> AttackTargets(const Position& pos, const Play& p);
int FindFigure(const Position& pos, int node, int owner);
int CardValue(const Position& pos, const State& s, Card c, const model::ScoreEvent& v,
              std::string& formula);
void ScoreNow(Position& pos, const Play& p, model::ApplyResult& r);
void Resolve(Position& pos, const Play& p, model::ApplyResult& r);

}  // namespace carc::exp::christmas_present::internal

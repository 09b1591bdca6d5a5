#pragma once
// Christmas Present (seed 002, rulings XMAS-*): two decks of 32 cards (monastery deck, road deck;
// 16 kinds x 2), drawn for tiles placed next to another player's monastery or showing only road,
// held in hidden hands of at most 5, played in one's own turn (the cancel card also out of turn),
// end cards revealed at game end. Fixtures: fixtures/christmas_present/, fixtures/combos/xmas_*.
// Position-file section, actions and variants: model/expansions/christmas_present/README.md.

#include "model/core/expansion.h"
#include "model/core/module_loader.h"

namespace carc::exp::christmas_present {

inline constexpr std::string_view kId = "christmas_present";

// The module's score causes (ScoreEvent::cause), spelled "xmas-card", "xmas-end" and
// "xmas-deferred" in position files and verdicts.
enum class Cause : uint8_t { kCard, kEnd, kDeferred };
constexpr model::ScoreCause MakeCause(Cause c) {
  constexpr std::string_view kNames[] = {"xmas-card", "xmas-end", "xmas-deferred"};
  return model::ScoreCause::Module(kId, static_cast<uint8_t>(c), kNames[static_cast<int>(c)]);
}

class ChristmasPresent final : public model::Expansion {
 public:
  std::string_view Id() const override { return kId; }
  void Load(model::ModuleLoader& loader) const override;
  std::unique_ptr<model::ExpansionState> NewState() const override;
  model::Status ParseState(const nlohmann::json& j, const std::string& where,
                           model::Position& pos) const override;
  void DumpState(const model::Position& pos, nlohmann::json& j) const override;
  void HeldTiles(const model::Position& pos, std::vector<model::TileType>& out) const override;
  void Validate(const model::Position& pos, std::vector<model::Violation>& out) const override;
  bool ExcusesFigure(const model::Position& pos, int figure,
                     std::string_view ruling) const override;
  std::optional<model::Verdict> JudgeOutOfStep(const model::Position& pos,
                                               const model::Action& a) const override;
  void AdjustMajority(const model::Position& pos, model::ScoreEvent& ev) const override;
  void MajorityAdjustmentsOn(const model::Position& pos, int root,
                             std::vector<model::MajorityAdjustment>& out) const override;
  void OnCompleted(model::Position& pos, model::ScoreEvent& ev, bool& return_figures,
                   std::vector<model::ScoreEvent>& extra) const override;
  void OnFeatureScored(model::Position& pos, int root, model::ApplyResult& out) const override;
  void BeforeFinalScoring(model::Position& pos, std::vector<model::ScoreEvent>& out) const override;
  void AfterFinalScoring(model::Position& pos, std::vector<model::ScoreEvent>& out) const override;
  // XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE: the forced square (force_steps.cc).
  bool ConstrainPlacement(const model::Position& pos, model::TileType t, model::Coord c,
                          model::Rotation r, model::Verdict* why) const override;
  bool ConstrainsPlacement(const model::Position& pos, model::TileType t) const override;
  void OnTilePlaced(model::Position& pos, const model::Action& a,
                    model::ApplyResult& r) const override;
};

const ChristmasPresent& Get();

}  // namespace carc::exp::christmas_present

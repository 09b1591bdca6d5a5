#pragma once
// The Gifts (seed 000, rulings GIFT-*): 25 gift cards. A player who extends a road or city that
// then belongs to someone else receives a card (GIFT-GET); after drawing a placeable tile and
// before placing it they may open one card (GIFT-OPEN): Synod, Road Sweeper, Change Position,
// Cash Out or Take 2. Unopened cards score 2 each at game end (GIFT-END).
// Position-file section, actions and variants: model/expansions/gifts/README.md.
// Fixtures: fixtures/gifts/, fixtures/combos/gift_*.

#include "model/core/expansion.h"

namespace carc::exp::gifts {

inline constexpr std::string_view kId = "gifts";

// The module's score cause (ScoreEvent::cause): points from an opened gift, spelled "gift"
// (GIFT-END's points at game end are ScoreCause::Final(kId), spelled "final").
enum class Cause : uint8_t { kGift };
constexpr model::ScoreCause MakeCause(Cause c) {
  return model::ScoreCause::Module(kId, static_cast<uint8_t>(c), "gift");
}

// Step names (position files: "turn.step").
inline constexpr std::string_view kHoldStep = "gift_hold";        // automatic
inline constexpr std::string_view kOpenStep = "open_gift";        // decision
inline constexpr std::string_view kTake2Step = "take_2";          // decision (Take 2 only)
inline constexpr std::string_view kReceiveStep = "draw_gift";     // automatic or chance
inline constexpr std::string_view kPhantomStep = "gift_phantom";  // variant next-turn-only
inline constexpr std::string_view kEndStep = "gift_end_turn";     // automatic

class Gifts final : public model::Expansion {
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
  void AfterFinalScoring(model::Position& pos, std::vector<model::ScoreEvent>& out) const override;
};

const Gifts& Get();

}  // namespace carc::exp::gifts

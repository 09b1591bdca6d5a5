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
inline constexpr std::string_view kHoldStep = "gift_hold";     // automatic
inline constexpr std::string_view kOpenStep = "open_gift";     // decision
inline constexpr std::string_view kTake2Step = "take_2";       // decision (Take 2 only)
inline constexpr std::string_view kReceiveStep = "draw_gift";  // automatic or chance
inline constexpr std::string_view kEndStep = "gift_end_turn";  // automatic

class Gifts final : public model::Expansion {
 public:
  Gifts() : Expansion(kId, /*slot=*/2) {}
  // Declares the steps, the slice codec, the variants, the actions and six hooks (HeldTiles,
  // Validate, Excuse, JudgeOutOfStep, AdjustMajority, AfterFinalScoring).
  void Load(model::ModuleLoader& loader) const override;
};

const Gifts& Get();

}  // namespace carc::exp::gifts

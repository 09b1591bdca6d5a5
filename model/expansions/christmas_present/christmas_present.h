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
  ChristmasPresent() : Expansion(kId, /*slot=*/3) {}
  // Declares the steps, the slice codec, the actions, the disputed readings and its hooks
  // (hooks.h of this folder).
  void Load(model::ModuleLoader& loader) const override;
};

const ChristmasPresent& Get();

}  // namespace carc::exp::christmas_present

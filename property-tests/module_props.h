#pragma once
// What the property tests know of each module, one row per module in registry order: the
// corruptions of its own state and figures, the rulings it adds to a core corruption, the exact
// adjustments of "enabled but unused changes nothing", the features the recomputing oracle
// leaves to it and how the soak's seeded games lean on its actions. With the module's
// generators (gen_corruption_exp.cc), the only property-tests source that names a module: the
// generic code asks the row of an enabled module, or a hook of the module contract.

#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/core/expansion.h"
#include "model/core/position.h"
#include "property-tests/gen_corruption.h"

namespace carc::prop {

// How the soak's seeded games (SeededSpec, gen_game.h) see an action of a module that has a
// hand of cards to hoard.
struct SeedKind {
  bool hoardable_play = false;  // a play of a card held in hand, by `player`
  int player = -1;
  bool draws_holdable = false;  // a draw of a card that is kept past the turn
};

struct ModuleProps {
  const model::Expansion* module = nullptr;
  // Corruption kinds of the module's own state or figures (`needs` is the module, added by
  // CorruptionKinds).
  std::vector<CorruptionKind> corruptions;
  // Rulings the module's Validate adds to a core corruption of the kind named first.
  std::vector<std::pair<std::string_view, std::string_view>> adds_rulings;

  // "Enabled but unused changes nothing" (unused_check.cc, README.md). Whether the game with the
  // module enabled is compared only up to the decision taking `a` (its components come into
  // play whatever the players choose); null: to the end.
  std::function<bool(const model::Position& pos, const model::Action& a)> ends_unused_comparison;
  // A score event of the module's own that an unused component still causes; null: none.
  std::function<bool(const model::ScoreEvent& ev)> own_event;
  // The points of `ev` the unused component still earns; null: none.
  std::function<int(const model::ScoreEvent& ev)> points_in;
  // The unused component could be the target of options without a target elsewhere (a card
  // played with nothing to act on), so the games may part where only such options differ.
  bool parts_on_untargeted_options = false;

  // The features (board roots) whose final scoring the module changes, which the recomputing
  // oracle (recompute.cc) leaves out; null: none.
  std::function<void(const model::Position& pos, std::set<int>& out)> oracle_leaves_out;

  // SeededSpec's view of the module's actions; null: none hoardable.
  std::function<SeedKind(const model::Action& a)> seed_kind;
  // The keys a decision at `at` counts under besides its step's name (StepKeys, gen_game.h).
  std::function<void(const model::Position& at, std::vector<std::string>& out)> step_keys;
};

// Every module's row, in registry order.
const std::vector<ModuleProps>& ModuleTable();
// The row of module `id` / of module `e`; null: none.
const ModuleProps* PropsOf(std::string_view id);
const ModuleProps* PropsOf(const model::Expansion* e);

}  // namespace carc::prop

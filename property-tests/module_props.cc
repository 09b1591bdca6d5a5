#include "property-tests/module_props.h"

#include <algorithm>

#include "model/core/position_io.h"
#include "model/expansions/christmas_present/actions.h"
#include "model/expansions/christmas_present/cards.h"
#include "model/expansions/christmas_present/christmas_present.h"
#include "model/expansions/christmas_present/state.h"
#include "model/expansions/gifts/gifts.h"
#include "model/expansions/messengers/messengers.h"
#include "model/expansions/phantom/phantom.h"
#include "property-tests/gen_corruption_exp.h"
#include "property-tests/gen_game.h"

namespace carc::prop {

using model::Action;
using model::Position;
using model::ScoreEvent;

namespace {

bool Cites(const ScoreEvent& ev, std::string_view ruling) {
  return std::find(ev.rulings.begin(), ev.rulings.end(), ruling) != ev.rulings.end();
}

// The Phantom (PH-SETUP: one phantom per player). Unused, it stays in the supply, where
// Christmas Present's 2-per-figure-in-supply card counts it (XMAS-Q-SUPPLY); and a card with
// nothing to act on may be played without a target only where no phantom could be its target.
ModuleProps Phantom() {
  ModuleProps m{.module = &exp::phantom::Get()};
  m.corruptions = {
      {"two-phantoms",
       {},
       [](const Position& p, const nlohmann::json& j, std::mt19937_64& rng) {
         auto c = ExtraFigures(p, j, rng, std::string(exp::phantom::kFigure), "PH-SETUP", 1);
         if (c) c->kind = "two-phantoms";
         return c;
       }},
      {"phantom-on-meeple", {}, PhantomOnMeeple},
  };
  m.points_in = [](const ScoreEvent& ev) {
    return Cites(ev, "XMAS-CARD-2-PER-FIGURE-IN-SUPPLY") ? 2 : 0;
  };
  m.parts_on_untargeted_options = true;
  return m;
}

// The Messengers: the two scoring figures make the score (MSG-CHOOSE), so a score off the track
// breaks that rule too. They always come into play and a figure stopping on a dark space takes
// a message (MSG-DARK): games are compared up to the first message decision (draw, seal, carry
// out), and the 0-point final sum (MSG-FINAL) is not a scoring.
ModuleProps Messengers() {
  namespace msg = exp::messengers;
  ModuleProps m{.module = &msg::Get()};
  m.corruptions = {
      {"tracks-off-score", {}, TracksOffScore},
      {"message-in-hand", {}, MessageInHandOutsideStep},
  };
  m.adds_rulings = {{"negative-score", "MSG-CHOOSE"}};
  m.ends_unused_comparison = [](const Position& pos, const Action& a) {
    return UsesExpansion(pos, a, std::string(msg::Get().Id())) &&
           model::DumpAction(pos, a).value("type", "") != "assign_points";
  };
  m.own_event = [](const ScoreEvent& ev) {
    return ev.points == 0 && ev.cause == msg::MakeCause(msg::Cause::kFinalSum);
  };
  return m;
}

// The Gifts: received whether or not they are opened (GIFT-GET), so their end scoring
// (GIFT-END, 2 per unopened card) is the only difference when unused.
ModuleProps Gifts() {
  ModuleProps m{.module = &exp::gifts::Get()};
  m.corruptions = {{"gift-card-count", {}, GiftCardCount}};
  m.own_event = [](const ScoreEvent& ev) { return Cites(ev, "GIFT-END"); };
  return m;
}

// Christmas Present's card plays and draws, as the module writes them (actions.h: an action of
// any code but the five others is a card play with its player; a draw names its card when the
// card is known), read from the action's typed arguments.
SeedKind XmasSeedKind(const Action& a) {
  namespace xmas = exp::christmas_present;
  SeedKind k;
  switch (a.code) {
    case xmas::kDrawCard:
      k.draws_holdable =
          xmas::kDrawnArg.Has(a) && xmas::TimingOf(xmas::kDrawnArg(a)) != xmas::Timing::kImmediate;
      return k;
    case xmas::kCancel:
    case xmas::kAllow:
    case xmas::kDiscard:
    case xmas::kKeepTile:
      return k;
    default:
      k.hoardable_play = true;
      k.player = xmas::kPlayerArg(a);
      return k;
  }
}

// Christmas Present's decisions counted apart (gen_game.h): the game-end window at
// xmas_turn_start and the forced placement at xmas_place_window.
void XmasStepKeys(const Position& at, std::vector<std::string>& out) {
  namespace xmas = exp::christmas_present;
  const std::string_view step = at.current_step().Name();
  const xmas::State* s = xmas::Slice(at);
  if (!s) return;
  if (step == "xmas_turn_start" && at.supply.total() == 0 && s->two_tiles.empty())
    out.emplace_back(kGameEndCardsKey);
  if (step == "xmas_place_window" &&
      std::any_of(s->forces.begin(), s->forces.end(),
                  [&](const xmas::Force& f) { return f.target == at.turn.player; }))
    out.emplace_back(kForcedPlacementKey);
}

// Christmas Present: the features its cards act on at final scoring, left out of the oracle:
// advantage cards and modifiers attached (majority + 1, XMAS-FN13), laid-down features
// (XMAS-FN11/FN12: completed ones keep their figures and are paid as deferred values) and
// advantage-field choices.
ModuleProps ChristmasPresent() {
  namespace xmas = exp::christmas_present;
  ModuleProps m{.module = &xmas::Get()};
  m.corruptions = {
      {"xmas-third-copy", {}, XmasThirdCopy},
      {"xmas-hand-over-limit", {}, XmasHandOverLimit},
  };
  m.oracle_leaves_out = [](const Position& pos, std::set<int>& out) {
    const xmas::State* s = xmas::Slice(pos);
    if (!s) return;
    for (const xmas::Attached& a : s->attached) out.insert(pos.board.Find(a.node));
    for (int node : s->laid_down) out.insert(pos.board.Find(node));
    for (const auto& [player, node] : s->field_choices)
      if (node >= 0) out.insert(pos.board.Find(node));
  };
  m.seed_kind = XmasSeedKind;
  m.step_keys = XmasStepKeys;
  return m;
}

}  // namespace

const std::vector<ModuleProps>& ModuleTable() {
  static const std::vector<ModuleProps> table = {Phantom(), Messengers(), Gifts(),
                                                 ChristmasPresent()};
  return table;
}

const ModuleProps* PropsOf(std::string_view id) {
  for (const ModuleProps& m : ModuleTable())
    if (m.module->Id() == id) return &m;
  return nullptr;
}

const ModuleProps* PropsOf(const model::Expansion* e) {
  for (const ModuleProps& m : ModuleTable())
    if (m.module == e) return &m;
  return nullptr;
}

}  // namespace carc::prop

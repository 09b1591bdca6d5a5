// The Gifts expansion object: its hooks (steps, state, validation, actions, final scoring).
#include "model/expansions/gifts/gifts.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "model/core/json_reader.h"
#include "model/core/position_io.h"
#include "model/core/scoring.h"
#include "model/core/step.h"
#include "model/expansions/gifts/cards.h"
#include "model/expansions/gifts/picture.h"
#include "model/expansions/gifts/state.h"
#include "model/expansions/gifts/steps.h"

namespace carc::exp::gifts {

using model::Action;
using model::ErrorCode;
using model::Position;
using model::Status;
using model::StatusOr;
using nlohmann::json;

namespace {

Action GiftAction(int code, model::ActionArgs args) {
  Action a;
  a.type = model::ActionType::kExpansion;
  a.expansion = &Get();
  a.code = code;
  a.args = std::move(args);
  return a;
}

// A feature named by x, y and feature (the feature defaulting to `def` when given).
StatusOr<int> Node(const json& j, const Position& pos, const std::string& where,
                   const char* def = nullptr) {
  if (!j.contains("x") || !j.contains("y"))
    return model::JsonError(where, "give x and y of the tile");
  return model::ReadFeatureRef(j, pos, where, def);
}

constexpr std::pair<const char*, Card> kOpenTypes[] = {
    {"gift_synod", Card::kSynod},
    {"gift_road_sweeper", Card::kRoadSweeper},
    {"gift_change_position", Card::kChangePosition},
    {"gift_cash_out", Card::kCashOut},
    {"gift_take_2", Card::kTake2},
};

void DeclareActions(model::ModuleLoader& loader);  // below

}  // namespace

static Status ParseState(const json& j, const std::string& where, Position& pos) {
  Data& d = Slice(pos);
  if (Status s = ParseData(j, where, pos, d); !s.ok()) return s;
  // The tiles in hand belong to the steps before placement only.
  const std::string step(pos.turn.game_over ? "game_over" : pos.current_step().Name());
  const std::string w = where + "/turn/held_tiles";
  if (step == kOpenStep && d.held.size() != 1)
    return model::JsonError(w,
                            "a position at step open_gift states the tile drawn here (one tile)");
  if (step == kTake2Step && !(d.held.size() == 2 || (d.held.size() == 1 && d.take2_drawing)))
    return model::JsonError(
        w, "a position at step take_2 holds the two tiles (or one, with take2_drawing)");
  if (step != kOpenStep && step != kTake2Step && !d.held.empty())
    return model::JsonError(w, "only a position at step open_gift or take_2 holds tiles here");
  if (d.change_figure >= 0 && step != kOpenStep)
    return model::JsonError(where + "/turn/change_figure",
                            "only a position at step open_gift has one");
  return Status::Ok();
}

static void DumpState(const Position& pos, json& j) { DumpData(pos, Slice(pos), j); }

// GIFT-STEPS, GIFT-TAKE2: the tiles in hand at open_gift / take_2 left the supply (BASE-SETUP).
static void HeldTiles(const Position& pos, std::vector<model::TileType>& out) {
  const auto& held = Slice(pos).held;
  out.insert(out.end(), held.begin(), held.end());
}

// GIFT-SETUP: 25 cards, five of each, between the deck, the hands and the discards.
// GIFT-OPEN: the card opened this turn lies on the discards. BASE-SETUP: the tiles in hand.
// GIFT-CHANGE: figures on finished features (on_finished) arise only under any-feature.
static void Validate(const Position& pos, std::vector<model::Violation>& out) {
  const Data& d = Slice(pos);
  for (int c = 0; c < kCardTypes; ++c) {
    int n = d.deck[c] + d.discards[c];
    for (size_t p = 0; p < pos.players.size() && p < kMaxPlayers; ++p) n += d.hands[p][c];
    if (n != kPerType)
      out.push_back({"GIFT-SETUP", "/expansions/gifts",
                     "there are " + std::to_string(kPerType) + " " +
                         std::string(CardTitle(Card(c))) + " cards, the position has " +
                         std::to_string(n) + " (deck, hands and discards)"});
  }
  if (d.opened && d.discards[static_cast<int>(*d.opened)] == 0)
    out.push_back({"GIFT-OPEN", "/expansions/gifts/turn/opened",
                   "the gift opened this turn is not on the discard pile"});
  if (!pos.turn.game_over && pos.current_step().Name() == kOpenStep && d.held.size() != 1 &&
      d.change_figure < 0)
    out.push_back(
        {"GIFT-OPEN", "/turn/step",
         "at step open_gift the drawn tile is in hand (expansions.gifts.turn.held_tiles)"});
  const model::TileCatalog& cat = *pos.cfg().catalog;
  for (model::TileType t : d.held) {
    int n = pos.supply.counts[t] + (pos.turn.drawn == t ? 1 : 0);
    for (int i = 0; i < pos.board.size(); ++i) n += pos.board.tile(i).type == t;
    for (model::TileType h : d.held) n += h == t;
    if (n > cat.def(t).count)
      out.push_back({"BASE-SETUP", "/expansions/gifts/turn/held_tiles",
                     "tile " + cat.Name(t) + " appears " + std::to_string(n) +
                         " times (board, hand and supply) but the set has " +
                         std::to_string(cat.def(t).count)});
  }
  for (size_t i = 0; i < d.on_finished.size(); ++i) {
    const int node = d.on_finished[i];
    const std::string w = "/expansions/gifts/on_finished/" + std::to_string(i);
    if (d.variants.change_target != ChangeTarget::kAnyFeature)
      out.push_back({"GIFT-CHANGE", w,
                     "Change Position stands a figure up on a finished feature only under the "
                     "reading any-feature (variants: GIFT-CHANGE)"});
    else if (pos.board.segment(node).kind == model::FeatureKind::kField ||
             !pos.board.IsComplete(pos.board.Find(node)))
      out.push_back({"GIFT-CHANGE", w,
                     "the feature listed is not a finished road, city or "
                     "monastery"});
  }
}

// The core's figure checks assume figures are placed only in step 2 and leave completed
// features. GIFT-SYNOD: several figures on one monastery (a second figure on a monastery tile);
// GIFT-CHANGE: a figure changed onto an occupied feature of its tile (the phantom's feature, or
// a monastery tile); GIFT-CHANGE reading any-feature: a figure stood up on a finished feature
// stays there (BASE-RETURN).
static bool Excused(const Position& pos, int figure, model::Excuse excuse) {
  const model::Figure& fig = pos.figures[figure];
  auto monastery_tile = [&] {
    for (const auto& s : pos.board.rotated(model::Board::TileOf(fig.node)).segments)
      if (s.kind == model::FeatureKind::kMonastery) return true;
    return false;
  };
  if (excuse == model::Excuse::kNotOnPlacedTile) return monastery_tile();  // Synod
  // GIFT-CHANGE: a figure may stand up on an occupied road, city or monastery of its own tile,
  // so two figures share a segment whenever its tile holds two: Synod on a monastery, the
  // phantom, or a second figure another expansion put there. Whether the tile could hold both
  // is BASE-MEEPLE-TILE's question (still checked), so the shared segment is always excused.
  if (excuse == model::Excuse::kOccupiedFeature) return true;
  if (excuse == model::Excuse::kStaysOnCompleted) {
    const Data& d = Slice(pos);
    return d.variants.change_target == ChangeTarget::kAnyFeature &&
           std::find(d.on_finished.begin(), d.on_finished.end(), fig.node) != d.on_finished.end();
  }
  return false;
}

// GIFT-OPEN, GIFT-FN3, GIFT-GET, GIFT-CHANGE: a gift action the turn cannot take where it
// stands. A gift opened before a tile that can be placed is in hand (no tile drawn yet, only
// unplaceable ones set aside, or none left at all: the game is over) is out of the window.
static std::optional<model::Verdict> JudgeOutOfStep(const Position& pos, const Action& a) {
  if (a.type != model::ActionType::kExpansion || a.expansion != &Get()) return std::nullopt;
  const std::string& who = pos.players[pos.turn.player].name;
  const bool turn_ending = !pos.turn.game_over && !pos.current_step().NeedsDecision(pos);
  switch (a.code) {
    case kOpen: {
      if (pos.turn.game_over) {
        model::Verdict v = model::Verdict::Illegal(
            "GIFT-FN3",
            "the game is over: no tile that can be placed is left to draw, so no "
            "gift can be opened (Q&A 4/2022: with an unplaceable last tile no gift "
            "is used)");
        v.reasons.push_back({"GIFT-OPEN",
                             "a gift is opened after drawing a tile and before "
                             "placing it"});
        return v;
      }
      if (turn_ending) return std::nullopt;  // may open one in the next turn
      const Data& d = Slice(pos);
      if (d.opened) {
        model::Verdict v = model::Verdict::Illegal(
            "GIFT-OPEN", "a player opens at most one gift per turn; " + who + " already opened " +
                             std::string(CardTitle(*d.opened)));
        if (d.earlier_part)
          v.reasons.push_back({"GIFT-Q-EXTRA-PART",
                               "whole-turn: the further tile (e.g. message 4's) is part of the "
                               "same turn, so the gift opened before it is the turn's one"});
        return v;
      }
      if (pos.turn.placed >= 0)
        return model::Verdict::Illegal("GIFT-OPEN",
                                       "a gift is opened after drawing the tile and "
                                       "before placing it, not after the tile is "
                                       "placed");
      if (!pos.turn.drawn && d.held.empty()) {
        model::Verdict v = model::Verdict::Illegal(
            "GIFT-OPEN", who +
                             " holds no placeable tile yet: a gift is opened after drawing the "
                             "tile and before placing it");
        v.reasons.push_back({"GIFT-FN3",
                             "a gift may be opened only once a tile that can be placed has been "
                             "drawn (4/2022); a tile that fits nowhere is set aside and the next "
                             "one drawn first"});
        return v;
      }
      return model::Verdict::Illegal(
          "GIFT-OPEN", who + " must first finish what the turn waits for (" +
                           std::string(pos.current_step().Name()) +
                           "): a gift is opened once, between drawing and placing the tile");
    }
    case kDrawCard:
      return model::Verdict::Illegal(
          "GIFT-GET",
          "a gift card is drawn only right after placing a tile that extends another "
          "player's road or city (one per turn); " +
              who + " has no gift to receive at this point");
    case kPositionTo:
      if (turn_ending) return std::nullopt;
      return model::Verdict::Illegal(
          "GIFT-CHANGE",
          "a figure's new posture is chosen only right after opening Change "
          "Position on it, and " +
              who + " is not doing so");
    default:
      return std::nullopt;
  }
}

namespace {

// Cash Out and Change Position without "kind" (GIFT-CASH, GIFT-CHANGE): the kind of the player's
// one gift figure on that feature of that tile, or a meeple when none stands there (the card then
// finds no figure). Where the player has two kinds there (a meeple and the phantom), which one
// the card takes is the player's choice: refused, never picked.
StatusOr<int> KindOnFeature(const Position& pos, int node, const std::string& where) {
  std::set<int> kinds;
  for (const model::Figure& f : pos.figures)
    if (f.node == node && f.owner == pos.turn.player && GiftFigure(pos, f.kind))
      kinds.insert(f.kind);
  if (kinds.size() == 1) return *kinds.begin();
  if (kinds.empty()) return pos.cfg().FigureKind("meeple");
  std::vector<std::string> names;
  for (int k : kinds) names.push_back(pos.cfg().figure_kinds[k].name);
  return model::JsonError(where + "/kind", "missing: " + pos.players[pos.turn.player].name +
                                               " has figures of two kinds there (" +
                                               model::ListAnd(names) +
                                               "): name the one the card takes");
}

// gift_<card> (GIFT-OPEN): Take 2 names nothing; Road Sweeper a feature; the others a feature and
// the figure kind on it. No target: the card has no effect (GIFT-FN2).
StatusOr<Action> ParseOpen(const json& j, const Position& pos, const std::string& where,
                           Card card) {
  if (card == Card::kTake2) {
    if (Status s = model::CheckKeys(j, where, {}, /*of_type=*/true); !s.ok()) return s;
    return OpenAction(card);
  }
  const bool sweeper = card == Card::kRoadSweeper;
  if (Status s = sweeper
                     ? model::CheckKeys(j, where, {"x", "y", "feature"}, /*of_type=*/true)
                     : model::CheckKeys(j, where, {"x", "y", "feature", "kind"}, /*of_type=*/true);
      !s.ok())
    return s;
  if (!j.contains("x") && !j.contains("y") && !j.contains("feature")) {
    if (j.contains("kind")) return model::JsonError(where, "give x, y and feature with kind");
    return OpenAction(card);
  }
  auto node = Node(j, pos, where, card == Card::kSynod ? "monastery" : nullptr);
  if (!node.ok()) return node.status();
  if (sweeper) return OpenAction(card, *node);
  if (!j.contains("kind") && (card == Card::kCashOut || card == Card::kChangePosition)) {
    auto kind = KindOnFeature(pos, *node, where);
    if (!kind.ok()) return kind.status();
    return OpenAction(card, *node, *kind);
  }
  auto kind = model::ReadFigureKind(j, pos, where);
  if (!kind.ok()) return kind.status();
  return OpenAction(card, *node, *kind);
}

// gift_position_to (GIFT-CHANGE): x and y default to the tile of the figure being moved.
StatusOr<Action> ParsePositionTo(const json& j, const Position& pos, const std::string& where) {
  if (Status s = model::CheckKeys(j, where, {"x", "y", "feature"}, /*of_type=*/true); !s.ok())
    return s;
  json ref = j;
  const int f = Slice(pos).change_figure;
  if (!j.contains("x") && !j.contains("y") && f >= 0) {
    const model::Coord c = pos.board.tile(model::Board::TileOf(pos.figures[f].node)).pos;
    ref["x"] = c.x;
    ref["y"] = c.y;
  }
  if (!ref.contains("feature"))
    return model::JsonError(where + "/feature", "missing (e.g. \"field:NL\")");
  auto node = Node(ref, pos, where);
  if (!node.ok()) return node.status();
  Action a = GiftAction(kPositionTo, {});
  kToArg.Set(a, *node);
  return a;
}

// gift_draw (GIFT-GET): "card" names the card; "kind" is the older spelling, still read.
StatusOr<Action> ParseDraw(const json& j, const Position&, const std::string& where) {
  if (Status s = model::CheckKeys(j, where, {"card", "kind"}, /*of_type=*/true); !s.ok()) return s;
  if (j.contains("card") && j.contains("kind")) return model::JsonError(where, "give card only");
  const char* key = j.contains("kind") ? "kind" : "card";
  auto c =
      j.contains(key) && j[key].is_string() ? ParseCard(j[key].get<std::string>()) : std::nullopt;
  if (!c)
    return model::JsonError(where + "/" + key,
                            "expected the card drawn: synod, road_sweeper, change_position, "
                            "cash_out or take_2");
  Action a = GiftAction(kDrawCard, {});
  kCardArg.Set(a, *c);
  return a;
}

void Ref(const Position& pos, int node, json& j) {
  json r = model::FeatureRefJson(pos, node);
  for (auto it = r.begin(); it != r.end(); ++it) j[it.key()] = it.value();
}

// One gift_<card> type per card; all five share the code kOpen, so the type follows the card.
void DumpOpen(const Position& pos, const Action& a, json& j) {
  j["type"] = "gift_" + std::string(CardName(kCardArg(a)));
  if (kNodeArg.Has(a)) Ref(pos, kNodeArg(a), j);
  if (kKindArg.Has(a)) j["kind"] = pos.cfg().figure_kinds[kKindArg(a)].name;
}

std::string DescribeOpen(const Position& pos, const Action& a) {
  const Card card = kCardArg(a);
  std::string s = "open the gift " + std::string(CardTitle(card));
  if (!kNodeArg.Has(a)) return s + (card == Card::kTake2 ? "" : " (no target)");
  // The figure by its role on the feature named ("the knight on city:N").
  const std::string kind =
      kKindArg.Has(a) ? model::FigureRole(pos, kKindArg(a), pos.board.segment(kNodeArg(a)).kind)
                      : "";
  const std::string at = model::FeatureAt(pos, kNodeArg(a));
  switch (card) {
    case Card::kSynod:
      return s + ": a " + kind + " on the " + at;
    case Card::kRoadSweeper:
      return s + ": score the road through " + at;
    case Card::kCashOut:
      return s + ": take back the " + kind + " on " + at;
    default:
      return s + ": the " + kind + " on " + at;
  }
}

// The actions (README.md of this folder): gift_<card> for each card, gift_position_to and
// gift_draw.
void DeclareActions(model::ModuleLoader& loader) {
  using model::ArgType;
  const std::vector<std::string_view> cards = model::EnumNames<Card>(kCardTypes, CardName);
  for (auto [name, card] : kOpenTypes) {
    model::ActionDecl d{.type = name, .code = kOpen};
    // The card is the type's, not a key; Road Sweeper names no figure kind, Take 2 nothing.
    d.args.push_back({"type", ArgType::kEnum, false, cards});
    if (card != Card::kTake2) d.args.push_back({"", ArgType::kFeature, /*optional=*/true});
    if (card != Card::kTake2 && card != Card::kRoadSweeper)
      d.args.push_back({.key = "kind", .type = ArgType::kFigureKind, .optional = true, .needs = 1});
    d.summary = "open a gift card before placing the tile (GIFT-OPEN)";
    d.parse = [card = card](const json& j, const Position& pos, const std::string& where) {
      return ParseOpen(j, pos, where, card);
    };
    d.dump = DumpOpen;
    d.describe = DescribeOpen;
    d.domain = [card = card](const Position&, int i, std::vector<int>& values) {
      if (i != 0) return false;
      values = {static_cast<int>(card)};
      return true;
    };
    loader.AddAction(std::move(d));
  }
  loader.AddAction(
      {.type = "gift_position_to",
       .code = kPositionTo,
       .args = {{"", ArgType::kFeature}},
       .summary = "Change Position: the figure's new feature (GIFT-CHANGE)",
       .parse = ParsePositionTo,
       .dump = [](const Position& pos, const Action& a, json& j) { Ref(pos, kToArg(a), j); },
       .describe =
           [](const Position& pos, const Action& a) {
             return "Change Position: the figure goes to " + model::FeatureAt(pos, kToArg(a));
           }});
  loader.AddAction(
      {.type = "gift_draw",
       .code = kDrawCard,
       .args = {{.key = "card", .type = ArgType::kEnum, .names = cards, .alias = "kind"}},
       .summary = "the gift card drawn from an unordered deck (GIFT-GET)",
       .parse = ParseDraw,
       .dump = [](const Position&, const Action& a, json& j) { j["card"] = CardName(kCardArg(a)); },
       .describe =
           [](const Position&, const Action& a) {
             return "draw the gift " + std::string(CardTitle(kCardArg(a)));
           }});
}

}  // namespace

// GIFT-CHANGE, reading any-feature: a finished road, city or monastery on which Change Position
// stood a figure up was scored when it was completed and is never scored again, not even at
// final scoring (the core's final scoring takes every feature that holds a figure).
static void AdjustMajority(const Position& pos, model::ScoreEvent& ev) {
  const Data& d = Slice(pos);
  if (!ev.cause.IsFinal() || ev.root < 0 || d.on_finished.empty() ||
      d.variants.change_target != ChangeTarget::kAnyFeature || !pos.board.IsComplete(ev.root))
    return;
  bool listed = false;
  for (int node : d.on_finished) listed |= pos.board.Find(node) == ev.root;
  if (!listed) return;
  ev.winners.clear();
  ev.points = 0;
  ev.formula =
      "finished and scored when completed: not scored again (figure stood up on it by "
      "Change Position, any-feature)";
  ev.rulings.push_back("GIFT-CHANGE");
}

// GIFT-END: 2 points per unopened gift, at final scoring (through AwardPoints).
static void AfterFinalScoring(Position& pos, std::vector<model::ScoreEvent>& out) {
  const Data& d = Slice(pos);
  for (size_t p = 0; p < pos.players.size() && p < kMaxPlayers; ++p) {
    const int n = Total(d.hands[p]);
    if (n == 0) continue;
    model::ScoreEvent ev;
    ev.cause = model::ScoreCause::Final(kId);
    ev.winners = {static_cast<model::PlayerId>(p)};
    ev.points = 2 * n;
    ev.formula = "2 x " + std::to_string(n) + " unopened gift(s)";
    ev.rulings = {"GIFT-END"};
    model::Award(pos, ev);
    out.push_back(ev);
  }
}

// GIFT-STEPS: the steps of step 1 and the end of turn; the slice; the hooks it uses.
void Gifts::Load(model::ModuleLoader& loader) const {
  AddSteps(loader);
  loader.SetState({[] { return std::make_unique<State>(); }, ParseState, DumpState});
  DeclareVariants(loader);
  DeclareActions(loader);
  loader.OnHeldTiles(HeldTiles);
  loader.OnValidate(Validate);
  loader.OnExcuse(Excused);
  loader.OnJudgeOutOfStep(JudgeOutOfStep);
  loader.OnAdjustMajority(AdjustMajority);
  loader.OnAfterFinalScoring(AfterFinalScoring);
  loader.OnDescribeState(DescribeState);  // picture.cc
}

const Gifts& Get() {
  static const Gifts expansion;
  return expansion;
}

}  // namespace carc::exp::gifts

// Receiving gifts and what the five cards do. Rules: seed 000 (The Gifts), GIFT-*.
#include "model/expansions/gifts/cards.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "model/core/core_steps.h"
#include "model/core/json_reader.h"
#include "model/core/position_io.h"
#include "model/core/scoring.h"
#include "model/expansions/gifts/gifts.h"

namespace carc::exp::gifts {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::Board;
using model::FeatureKind;
using model::Figure;
using model::PlayerId;
using model::Position;
using model::Reason;
using model::ScoreEvent;
using model::Verdict;

namespace {

std::string Name(const Position& pos, PlayerId p) { return pos.players[p].name; }
std::string KindName(const Position& pos, int kind) { return pos.cfg().figure_kinds[kind].name; }
// The figure named by its role on the feature at `node`, in the README's words (a meeple on a
// city is a knight): "knight", "phantom farmer".
std::string RoleAt(const Position& pos, int kind, int node) {
  return model::FigureRole(pos, kind, pos.board.segment(node).kind);
}

// "Blue 2, Red 1": the figures per player in a feature.
std::string Strengths(const Position& pos, const ScoreEvent& ev) {
  std::string s;
  for (size_t p = 0; p < ev.strength.size(); ++p)
    if (ev.strength[p] > 0)
      s += (s.empty() ? "" : ", ") + Name(pos, static_cast<PlayerId>(p)) + " " +
           std::to_string(ev.strength[p]);
  return s;
}

ApplyResult Illegal(std::string ruling, std::string text) {
  ApplyResult r;
  r.verdict = Verdict::Illegal(std::move(ruling), std::move(text));
  return r;
}

// The player's figure of `kind` on `node`, or -1.
int OwnFigure(const Position& pos, int node, int kind) {
  for (size_t f = 0; f < pos.figures.size(); ++f)
    if (pos.figures[f].node == node && pos.figures[f].kind == kind &&
        pos.figures[f].owner == pos.turn.player)
      return static_cast<int>(f);
  return -1;
}

bool IsMonastery(const Position& pos, int node) {
  return pos.board.segment(node).kind == FeatureKind::kMonastery;
}

// GIFT-Q-LYING: is the figure lying on a road, city or monastery? Either its posture says so, or
// another expansion has laid its feature down (model::LaidDownByExpansion: Christmas Present's
// lay-down cards, XMAS-FN11). `f` is one of pos.figures.
bool LyingOnNonField(const Position& pos, const Figure& f) {
  if (pos.board.segment(f.node).kind == FeatureKind::kField) return false;
  if (f.lying) return true;
  return model::LaidDownByExpansion(pos, static_cast<int>(&f - pos.figures.data()));
}

// GIFT-Q-LYING, variant posture-literal: the figure lies on a road, city or monastery and may
// only be stood up.
bool StandsUpOnly(const Position& pos, const Figure& f) {
  return Slice(pos).variants.lying == LyingFigure::kPostureLiteral && LyingOnNonField(pos, f);
}

// GIFT-CHANGE, GIFT-FN7, GIFT-Q-LYING: the features of the same tile the figure may change to.
// A standing figure (road, city, monastery) lies down in a field; a farmer stands up on a road,
// city or monastery. GIFT-CHANGE reading unfinished-only (default): only on an unfinished one;
// any-feature: on a finished one too. A figure lying on a non-field feature (Christmas Present)
// follows fn 7 (feature-based: to a field) or, in the posture-literal variant, may only stand
// up, on any road, city or monastery of the tile, its own included (undoing the lay-down).
std::vector<int> ChangeTargets(const Position& pos, const Figure& f) {
  std::vector<int> out;
  const int tile = Board::TileOf(f.node);
  const bool from_field = pos.board.segment(f.node).kind == FeatureKind::kField;
  const bool lying_up = !from_field && StandsUpOnly(pos, f);
  const bool any = Slice(pos).variants.change_target == ChangeTarget::kAnyFeature;
  const int n = static_cast<int>(pos.board.rotated(tile).segments.size());
  for (int s = 0; s < n; ++s) {
    const int node = Board::Node(tile, s);
    const bool field = pos.board.segment(node).kind == FeatureKind::kField;
    if (from_field || lying_up) {
      if (field || (node == f.node && !lying_up)) continue;
      if (!any && pos.board.IsComplete(pos.board.Find(node))) continue;
    } else if (!field) {
      continue;
    }
    out.push_back(node);
  }
  return out;
}

// GIFT-CHANGE (any-feature): forgets the nodes that no longer hold a figure.
void PruneOnFinished(Position& pos) {
  std::erase_if(Slice(pos).on_finished, [&](int node) {
    for (const Figure& f : pos.figures)
      if (f.node == node) return false;
    return true;
  });
}

// The unfinished features of `kind`, by root, in board order (Board::AllRoots' order), without
// building the list.
template <typename Fn>
void ForEachUnfinished(const Position& pos, FeatureKind kind, Fn&& fn) {
  const Board& b = pos.board;
  for (int t = 0; t < b.size(); ++t) {
    const int n = static_cast<int>(b.rotated(t).segments.size());
    for (int i = 0; i < n; ++i) {
      const int node = Board::Node(t, i);
      if (b.Find(node) != node) continue;
      if (b.Info(node).kind == kind && !b.IsComplete(node)) fn(node);
    }
  }
}

// Openings of one card with a target, appended to `out`; none when the card can have no effect
// (GIFT-FN2).
void AppendTargets(const Position& pos, Card card, std::vector<Action>& out) {
  const size_t first = out.size();
  const PlayerId p = pos.turn.player;
  auto add = [&](Action a) {
    if (std::find(out.begin() + first, out.end(), a) == out.end()) out.push_back(a);
  };
  switch (card) {
    case Card::kSynod:
      ForEachUnfinished(pos, FeatureKind::kMonastery, [&](int root) {
        for (int k = 0; k < static_cast<int>(pos.cfg().figure_kinds.size()); ++k)
          if (GiftFigure(pos, k) && pos.players[p].supply[k] > 0) add(OpenAction(card, root, k));
      });
      break;
    case Card::kRoadSweeper:
      ForEachUnfinished(pos, FeatureKind::kRoad, [&](int root) { add(OpenAction(card, root)); });
      break;
    case Card::kCashOut:
    case Card::kChangePosition:
      for (const Figure& f : pos.figures)
        if (f.owner == p && GiftFigure(pos, f.kind) &&
            (card == Card::kCashOut || !ChangeTargets(pos, f).empty()))
          add(OpenAction(card, f.node, f.kind));
      break;
    case Card::kTake2:
      break;
  }
}

std::vector<Action> Targets(const Position& pos, Card card) {
  std::vector<Action> out;
  AppendTargets(pos, card, out);
  return out;
}

ScoreEvent GiftEvent(const Position& pos, int root) {
  ScoreEvent ev;
  ev.cause = MakeCause(Cause::kGift);
  ev.kind = pos.board.Info(root).kind;
  ev.root = root;
  std::vector<int> tiles = pos.board.Info(root).tiles;
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  for (int t : tiles) ev.tiles.push_back(pos.board.tile(t).pos);
  return ev;
}

// GIFT-SYNOD, GIFT-EX2, GIFT-COMBO (the phantom too, PH-ALONE).
ApplyResult Synod(Position& pos, int node, int kind) {
  const PlayerId p = pos.turn.player;
  if (!IsMonastery(pos, node))
    return Illegal("GIFT-SYNOD", "Synod places a figure on a monastery; " +
                                     model::FeatureAt(pos, node) + " is not one");
  const int root = pos.board.Find(node);
  if (pos.board.IsComplete(root))
    return Illegal("GIFT-SYNOD", "the monastery at " + model::FeatureAt(pos, node) +
                                     " is finished; Synod needs an unfinished monastery");
  if (!GiftFigure(pos, kind))
    return Illegal("GIFT-COMBO",
                   "Synod places a meeple (or the phantom), not a " + KindName(pos, kind));
  if (pos.players[p].supply[kind] <= 0)
    return Illegal("GIFT-SYNOD", Name(pos, p) + " has no " + KindName(pos, kind) +
                                     " in their supply to place with Synod");
  const size_t before = pos.FiguresIn(root).size();
  model::PlaceFigureAt(pos, p, kind, node);  // stands, or lies on a laid-down monastery
  // A step-1 figure is not the meeple (or phantom) of the figure step (GIFT-STEPS).
  pos.turn.figures_this_turn.pop_back();
  ApplyResult r;
  r.verdict.reasons.push_back(
      {"GIFT-SYNOD", Name(pos, p) + " places a " + RoleAt(pos, kind, node) +
                         " from their supply on the unfinished " + model::FeatureAt(pos, node) +
                         ", which already holds " + std::to_string(before) +
                         " figure(s): Synod may use an occupied monastery"});
  if (kind == OwnStepFigure(pos))
    r.verdict.reasons.push_back({"GIFT-COMBO", "the " + KindName(pos, kind) +
                                                   " is a meeple of the supply, played like a "
                                                   "normal meeple (PH-ALONE): Synod may place it"});
  return r;
}

// GIFT-SWEEPER, GIFT-FN4, GIFT-FN5, GIFT-FN6, GIFT-EX3.
ApplyResult Sweeper(Position& pos, int node) {
  if (pos.board.segment(node).kind != FeatureKind::kRoad)
    return Illegal("GIFT-SWEEPER",
                   "Road Sweeper scores a road; " + model::FeatureAt(pos, node) + " is not a road");
  const int root = pos.board.Find(node);
  if (pos.board.IsComplete(root))
    return Illegal("GIFT-SWEEPER", "the road at " + model::FeatureAt(pos, node) +
                                       " is finished; Road Sweeper scores an unfinished road");
  ApplyResult r;
  ScoreEvent ev = model::FinalValue(pos, root);
  ev.cause = MakeCause(Cause::kGift);
  ev.rulings.insert(ev.rulings.begin(), {"GIFT-SWEEPER", "GIFT-FN4"});
  std::vector<int> figs = pos.FiguresIn(root);
  r.verdict.reasons.push_back(
      {"GIFT-SWEEPER", "the unfinished road at " + model::FeatureAt(pos, node) +
                           " is scored now for everyone in it, as at game end (GIFT-FN4)"});
  if (figs.empty()) {
    r.verdict.reasons.push_back({"GIFT-FN2", "the road holds no figure: nobody scores"});
  } else {
    model::Award(pos, ev);
    r.scores.push_back(ev);
    model::ReturnFigures(pos, figs);
    r.notes.push_back({"GIFT-FN5", "all " + std::to_string(figs.size()) +
                                       " figure(s) on the swept road return to their owners, "
                                       "minority and tied ones too (12/2021); the road is free "
                                       "and may be occupied again this turn"});
  }
  // GIFT-SWEEPER, GIFT-EX3: the road is scored (as if just completed, valued as at game end;
  // for nobody when no figure is on it) and left empty, so what lasts until the road is scored
  // ends now (the modules' hook; XMAS-Q-ADVANTAGE: gift_xmas28, gift_xmas29).
  model::FeatureScored(pos, root, r);
  return r;
}

// GIFT-CASHOUT, GIFT-EX4, GIFT-COMBO (the phantom too).
ApplyResult CashOut(Position& pos, int node, int kind) {
  const PlayerId p = pos.turn.player;
  if (!GiftFigure(pos, kind))
    return Illegal("GIFT-COMBO",
                   "Cash Out takes back a meeple (or the phantom), not a " + KindName(pos, kind));
  const int f = OwnFigure(pos, node, kind);
  if (f < 0)
    return Illegal("GIFT-CASHOUT", "no " + KindName(pos, kind) + " of " + Name(pos, p) +
                                       " stands on " + model::FeatureAt(pos, node) +
                                       "; Cash Out takes back one of your own figures");
  const int root = pos.board.Find(node);
  std::vector<int> figs = pos.FiguresIn(root);
  ScoreEvent ev = GiftEvent(pos, root);
  ev.strength.assign(pos.players.size(), 0);
  for (int g : figs) ev.strength[pos.figures[g].owner]++;
  ev.winners = {p};
  ev.points = 2 * static_cast<int>(figs.size());
  ev.formula = "2 x " + std::to_string(figs.size()) + " figure(s) in the " +
               std::string(model::FeatureKindName(ev.kind)) + ", the one taken back included";
  ev.rulings = {"GIFT-CASHOUT"};
  model::AwardPoints(pos, ev, p, ev.points);
  ApplyResult r;
  r.verdict.reasons.push_back(
      {"GIFT-CASHOUT", Name(pos, p) + " takes back the " + RoleAt(pos, kind, node) + " on " +
                           model::FeatureAt(pos, node) + ": 2 points per figure in the feature (" +
                           Strengths(pos, ev) + "); the feature itself is not scored"});
  if (kind == OwnStepFigure(pos))
    r.verdict.reasons.push_back({"GIFT-COMBO", "the " + KindName(pos, kind) +
                                                   " is a figure like a meeple: Cash Out may "
                                                   "take it back"});
  r.scores.push_back(ev);
  model::ReturnFigures(pos, {f});
  return r;
}

// GIFT-CHANGE (first decision: which figure), GIFT-COMBO, GIFT-FN7.
ApplyResult ChangeFrom(Position& pos, int node, int kind) {
  const PlayerId p = pos.turn.player;
  if (!GiftFigure(pos, kind))
    return Illegal("GIFT-COMBO",
                   "Change Position applies to figures that can be farmers "
                   "(meeple, phantom), not a " +
                       KindName(pos, kind));
  const int f = OwnFigure(pos, node, kind);
  if (f < 0)
    return Illegal("GIFT-CHANGE", "no " + KindName(pos, kind) + " of " + Name(pos, p) +
                                      " stands on " + model::FeatureAt(pos, node));
  if (ChangeTargets(pos, pos.figures[f]).empty())
    return Illegal("GIFT-FN7", "the tile of " + model::FeatureAt(pos, node) +
                                   " has no feature the figure could change posture to");
  Slice(pos).change_figure = f;
  ApplyResult r;
  r.verdict.reasons.push_back({"GIFT-CHANGE", Name(pos, p) + " changes the posture of the " +
                                                  RoleAt(pos, kind, node) + " on " +
                                                  model::FeatureAt(pos, node) +
                                                  " (the new feature is the next choice)"});
  if (kind == OwnStepFigure(pos))
    r.verdict.reasons.push_back({"GIFT-COMBO", "the " + KindName(pos, kind) +
                                                   " can be a farmer: Change Position applies "
                                                   "to it"});
  return r;
}

// GIFT-TAKE2, GIFT-FN8, GIFT-FN9: the second tile. With a known draw order it is drawn now,
// unplaceable tiles being removed; with counts only the draws are stated at step take_2.
ApplyResult Take2(Position& pos) {
  ApplyResult r;
  Data& d = Slice(pos);
  const model::TileCatalog& cat = *pos.cfg().catalog;
  r.verdict.reasons.push_back({"GIFT-TAKE2", "a second tile is drawn; one of the two is placed"});
  if (!pos.supply.ordered && pos.supply.total() > 0) {
    d.take2_drawing = true;
    return r;
  }
  while (pos.supply.ordered && !pos.supply.order.empty()) {
    model::TileType t = pos.supply.order.front();
    pos.supply.order.erase(pos.supply.order.begin());
    pos.supply.counts[t]--;
    if (pos.board.CanPlaceAnywhere(t)) {
      d.held.push_back(t);
      r.notes.push_back({"GIFT-TAKE2", "the second tile is " + cat.Name(t)});
      return r;
    }
    r.notes.push_back({"GIFT-FN9", "tile " + cat.Name(t) +
                                       " fits nowhere: it is set aside (removed, "
                                       "BASE-PLACE-UNPLACEABLE) and drawing goes on (4/2022)"});
  }
  r.notes.push_back(
      {"GIFT-FN8", "no tile is left to draw: Take 2 has no effect; the tile in hand is placed"});
  return r;
}

}  // namespace

Action OpenAction(Card card, int node, int kind) {
  Action a;
  a.type = ActionType::kExpansion;
  a.expansion = &Get();
  a.code = kOpen;
  kCardArg.Set(a, card);
  kNodeArg.Set(a, node);
  kKindArg.Set(a, kind);
  return a;
}

// GIFT-COMBO: the gifts move meeple-like figures (followers: the meeple, the phantom).
bool GiftFigure(const Position& pos, int kind) {
  return pos.cfg().figure_kinds[kind].traits.follower;
}

int OwnStepFigure(const Position& pos) {
  const auto& kinds = pos.cfg().figure_kinds;
  for (size_t k = 0; k < kinds.size(); ++k)
    if (!kinds[k].traits.own_step.empty()) return static_cast<int>(k);
  return -1;
}

void ReleaseTile(Position& pos) {
  Data& d = Slice(pos);
  if (d.held.size() != 1 || d.take2_drawing || d.change_figure >= 0) return;
  pos.turn.drawn = d.held.front();
  d.held.clear();
}

namespace {

// GIFT-Q-ADVANTAGE: the advantage cards lying on a feature (Christmas Present's, asked through
// model::MajorityAdjustmentsOn so that no Christmas Present code is needed). Verdict text only.
using AdvantageCard = model::MajorityAdjustment;  // what: the card's name, "advantage-city", ...

std::vector<AdvantageCard> AdvantageCardsOn(const Position& pos, int root) {
  return model::MajorityAdjustmentsOn(pos, root);
}

// GIFT-Q-ADVANTAGE, the crux of a gift where advantage cards lie on the extended feature: which
// card, whose, whether it counts, and the majority with and without it. `ev` is the majority the
// gift is judged by, `other` the one of the other reading (with the cards when `ev` is without).
void SayAdvantage(const Position& pos, const std::vector<AdvantageCard>& cards,
                  const ScoreEvent& ev, const ScoreEvent& other, bool counts,
                  std::vector<Reason>& why) {
  const ScoreEvent& raw = counts ? other : ev;
  const ScoreEvent& with = counts ? ev : other;
  const std::string kind(model::FeatureKindName(ev.kind));
  std::vector<std::string> names;
  for (const AdvantageCard& c : cards)
    names.push_back(Name(pos, c.player) + "'s " + c.what + " card");
  const std::string list = model::ListAnd(names);
  const std::string by_figures = "by figures " + Strengths(pos, raw);
  const std::string with_cards = "counting the cards " + Strengths(pos, with);
  auto whose = [&](const ScoreEvent& e) {
    std::vector<std::string> w;
    for (PlayerId p : e.winners) w.push_back(Name(pos, p));
    return w.size() > 1 ? "a tie of " + model::ListAnd(w) : model::ListAnd(w) + "'s";
  };
  const std::string head = "Christmas Present: " + list + (cards.size() > 1 ? " lie" : " lies") +
                           " on this " + kind + "; ";
  if (counts)
    why.push_back({"GIFT-Q-ADVANTAGE",
                   head +
                       "a card counts as one more figure of its holder in the majority the gift "
                       "is judged by (advantage-counts): " +
                       by_figures + "; " + with_cards + ": the majority is " + whose(with)});
  else
    why.push_back({"GIFT-Q-ADVANTAGE", head +
                                           "the cards are not counted, the figures alone decide "
                                           "whose it is (figures-only): " +
                                           by_figures + ": the majority is " + whose(raw) + "; " +
                                           with_cards + " it would be " + whose(with)});
  // XMAS-Q-ADVANTAGE (variant test-when-scored): a card whose holder has lost the majority.
  for (const AdvantageCard& c : cards)
    if (counts && with.strength[c.player] <= raw.strength[c.player])
      why.push_back({"XMAS-Q-ADVANTAGE", Name(pos, c.player) + "'s " + c.what +
                                             " card does not count in this " + kind +
                                             " now: " + Name(pos, c.player) +
                                             " does not hold at least a tied majority by figures"});
  // XMAS-FN13: two counted cards cancel between their holders; with three or more players tied
  // by figures and both holders among them, the holders share the majority, the rest are out.
  std::vector<PlayerId> counted;
  for (const AdvantageCard& c : cards)
    if (counts && with.strength[c.player] > raw.strength[c.player] &&
        std::find(counted.begin(), counted.end(), c.player) == counted.end())
      counted.push_back(c.player);
  if (counted.size() < 2) return;
  const int best = *std::max_element(raw.strength.begin(), raw.strength.end());
  const auto tied = std::count(raw.strength.begin(), raw.strength.end(), best);
  bool holders_top = best > 0;
  std::vector<std::string> holders;
  for (PlayerId p : counted) {
    holders.push_back(Name(pos, p));
    holders_top = holders_top && raw.strength[p] == best;
  }
  std::string text = model::ListAnd(holders) +
                     " each hold a card here: each adds one figure to its "
                     "holder, so between the holders the cards cancel out";
  if (holders_top && tied >= 3)
    text += "; " + std::to_string(tied) +
            " players tie by figures and the card holders are "
            "among them: the holders share the majority, the others are left out";
  why.push_back({"XMAS-FN13", text});
}

}  // namespace

// GIFT-GET, GIFT-FN1, GIFT-Q-EXTEND, GIFT-Q-ADVANTAGE. Fixtures: gifts/g01-g07, g34, d01;
// combos/gift_xmas08-gift_xmas14 (advantage cards).
bool Earned(const Position& pos, std::vector<Reason>* why) {
  if (pos.turn.placed < 0) return false;
  const Board& b = pos.board;
  const PlayerId me = pos.turn.player;
  const int placed = pos.turn.placed;
  const Data& d = Slice(pos);
  // GIFT-Q-ADVANTAGE: the majority is the one the rules of majority give (advantage-counts: the
  // modules' adjustments, e.g. Christmas Present's advantage cards, take part because the event
  // names the feature), or the figures' alone (figures-only: no feature named, no adjustment).
  const bool counts = d.variants.advantage == AdvantageMajority::kAdvantageCounts;
  // The roads and cities the tile extends (distinct features, in segment order), and the
  // figures in each, in figure order as FiguresIn lists them, from one pass over the figures.
  std::array<int, model::kMaxSegments> roots;
  std::array<FeatureKind, model::kMaxSegments> kinds;
  int nr = 0;
  const int n = static_cast<int>(b.rotated(placed).segments.size());
  for (int s = 0; s < n; ++s) {
    const FeatureKind k = b.rotated(placed).segments[s].kind;
    if (k != FeatureKind::kRoad && k != FeatureKind::kCity) continue;
    const int root = b.Find(Board::Node(placed, s));
    if (std::find(roots.begin(), roots.begin() + nr, root) != roots.begin() + nr) continue;
    kinds[nr] = k;
    roots[nr++] = root;
  }
  if (nr == 0) return false;
  std::array<std::vector<int>, model::kMaxSegments> figs_in;
  for (size_t f = 0; f < pos.figures.size(); ++f) {
    const int r = b.Find(pos.figures[f].node);
    for (int i = 0; i < nr; ++i)
      if (roots[i] == r) {
        figs_in[i].push_back(static_cast<int>(f));
        break;
      }
  }
  int earned = 0;
  for (int i = 0; i < nr; ++i) {
    const FeatureKind k = kinds[i];
    const int root = roots[i];
    const std::vector<int>& figs = figs_in[i];
    if (figs.empty()) continue;
    ScoreEvent ev;
    ev.cause = {};  // kNone: a majority question, not a scoring
    ev.kind = k;
    ev.root = counts ? root : -1;
    model::Majority(pos, figs, ev);
    if (ev.winners.empty()) continue;
    const bool mine = std::find(ev.winners.begin(), ev.winners.end(), me) != ev.winners.end();
    // Lean question (no reasons asked): the first feature of someone else decides.
    if (!why) {
      if (mine) continue;
      if (b.IsComplete(root) && d.variants.completion == Completion::kCompletionExcluded) continue;
      return true;
    }
    std::string strength = Strengths(pos, ev) + " after placement";
    if (const std::vector<AdvantageCard> cards = AdvantageCardsOn(pos, root); !cards.empty()) {
      ScoreEvent other;
      other.kind = k;
      other.root = counts ? -1 : root;
      model::Majority(pos, figs, other);
      SayAdvantage(pos, cards, ev, other, counts, *why);
      strength += counts ? ", counting the advantage cards" : ", by figures";
    }
    const std::string what =
        "the " + std::string(model::FeatureKindName(k)) + " the tile extends (" + strength + ")";
    auto say = [&](const char* ruling, const std::string& text) {
      if (why) why->push_back({ruling, text});
    };
    if (mine) {
      say("GIFT-FN1", what + ": " + Name(pos, me) +
                          " holds or ties for the majority, so it is not someone else's: no gift");
      continue;
    }
    if (b.IsComplete(root)) {
      if (d.variants.completion == Completion::kCompletionExcluded) {
        say("GIFT-Q-EXTEND", what +
                                 ": the tile completes it, which does not count as extending "
                                 "(variant completion-excluded): no gift");
        continue;
      }
      say("GIFT-Q-EXTEND", what + ": completing it counts as extending it (completion-counts)");
    }
    say("GIFT-FN1", what + ": it belongs to someone else by majority after placement");
    ++earned;
  }
  if (earned > 1 && why)
    why->push_back({"GIFT-GET-ONE", "the tile extends " + std::to_string(earned) +
                                        " features of other players: still only one gift"});
  return earned > 0;
}

void ListOpenings(const Position& pos, std::vector<Action>& out) {
  const Data& d = Slice(pos);
  const PlayerId p = pos.turn.player;
  for (int c = 0; c < kCardTypes; ++c) {
    if (d.hands[p][c] <= 0) continue;
    const size_t first = out.size();
    AppendTargets(pos, static_cast<Card>(c), out);
    if (out.size() == first) out.push_back(OpenAction(static_cast<Card>(c)));
  }
}

ApplyResult OpenGift(Position& pos, const Action& a) {
  const Card card = kCardArg(a);
  const int node = kNodeArg(a), kind = kKindArg(a);
  const PlayerId p = pos.turn.player;
  if (Slice(pos).opened)
    return Illegal("GIFT-OPEN", "a player opens at most one gift per turn; " + Name(pos, p) +
                                    " already opened " +
                                    std::string(CardTitle(*Slice(pos).opened)));
  if (Slice(pos).hands[p][static_cast<int>(card)] <= 0)
    return Illegal("GIFT-OPEN",
                   Name(pos, p) + " holds no " + std::string(CardTitle(card)) + " card face down");
  ApplyResult r;
  if (node < 0 && card != Card::kTake2) {
    // GIFT-FN2: a gift without effect is simply discarded, but one that can act must act.
    if (!Targets(pos, card).empty()) {
      r.input_error = std::string(CardTitle(card)) +
                      " can take effect here: state its target (x, y, feature" +
                      (card == Card::kRoadSweeper ? "" : ", kind") + ")";
      return r;
    }
    r.verdict.reasons.push_back(
        {"GIFT-FN2",
         std::string(CardTitle(card)) + " can have no effect here: the card is simply discarded"});
  } else {
    switch (card) {
      case Card::kSynod:
        r = Synod(pos, node, kind);
        break;
      case Card::kRoadSweeper:
        r = Sweeper(pos, node);
        break;
      case Card::kCashOut:
        r = CashOut(pos, node, kind);
        break;
      case Card::kChangePosition:
        r = ChangeFrom(pos, node, kind);
        break;
      case Card::kTake2:
        r = Take2(pos);
        break;
    }
    if (!r.verdict.legal || !r.input_error.empty()) return r;
  }
  Data& d = Slice(pos);
  d.hands[p][static_cast<int>(card)]--;
  d.discards[static_cast<int>(card)]++;
  d.opened = card;
  PruneOnFinished(pos);
  r.verdict.reasons.insert(r.verdict.reasons.begin(),
                           {"GIFT-OPEN", Name(pos, p) + " opens " + std::string(CardTitle(card)) +
                                             " before placing the tile; it goes face up on the "
                                             "discard pile"});
  ReleaseTile(pos);
  return r;
}

void ListChangeTargets(const Position& pos, std::vector<Action>& out) {
  const int f = Slice(pos).change_figure;
  if (f < 0) return;
  for (int node : ChangeTargets(pos, pos.figures[f])) {
    Action a;
    a.type = ActionType::kExpansion;
    a.expansion = &Get();
    a.code = kPositionTo;
    kToArg.Set(a, node);
    out.push_back(a);
  }
}

// GIFT-CHANGE (incl. its reading on finished features), GIFT-FN7, GIFT-EX5, GIFT-Q-LYING.
ApplyResult ChangeTo(Position& pos, const Action& a) {
  Data& d = Slice(pos);
  const int node = kToArg(a);
  Figure& fig = pos.figures[d.change_figure];
  if (Board::TileOf(node) != Board::TileOf(fig.node))
    return Illegal("GIFT-FN7", "Change Position keeps the figure on its tile; " +
                                   model::FeatureAt(pos, node) + " is on another tile");
  std::vector<int> targets = ChangeTargets(pos, fig);
  if (std::find(targets.begin(), targets.end(), node) == targets.end()) {
    const bool from_field = pos.board.segment(fig.node).kind == FeatureKind::kField;
    const bool to_field = pos.board.segment(node).kind == FeatureKind::kField;
    if (!to_field && pos.board.IsComplete(pos.board.Find(node)) &&
        (from_field || StandsUpOnly(pos, fig)))
      return Illegal("GIFT-CHANGE",
                     model::FeatureAt(pos, node) +
                         " is finished: a feature already scored can never be scored again, so "
                         "no figure may stand up on it (reading unfinished-only)");
    if (!from_field && StandsUpOnly(pos, fig))
      return Illegal("GIFT-Q-LYING",
                     "the figure lies on a road, city or monastery: under the posture-literal "
                     "reading it may only stand up, on a road, city or monastery of its tile "
                     "(its own included)");
    return Illegal("GIFT-FN7",
                   from_field ? std::string("a farmer may only stand up on a road, city or "
                                            "monastery of the same tile, not move to another field")
                              : "a standing figure may only lie down in a field of the same tile; "
                                "moving it from one road, city or monastery to another is not a "
                                "change of posture");
  }
  const bool was_lying = LyingOnNonField(pos, fig);
  const std::string from = model::FeatureAt(pos, fig.node);
  const std::string role = RoleAt(pos, fig.kind, fig.node);
  const bool in_place = node == fig.node;
  const bool finished = pos.board.segment(node).kind != FeatureKind::kField &&
                        pos.board.IsComplete(pos.board.Find(node));
  size_t occupants = pos.FiguresIn(pos.board.Find(node)).size();
  if (in_place) --occupants;
  fig.node = node;
  fig.lying = pos.board.segment(node).kind == FeatureKind::kField;
  // A figure moved onto a feature another expansion has laid down lies there too (Christmas
  // Present fn 11); one stood up in place stands.
  if (!in_place && !fig.lying) fig.lying = model::LaidDownByExpansion(pos, d.change_figure);
  ApplyResult r;
  r.verdict.reasons.push_back(
      {"GIFT-CHANGE",
       "the " + role + " on " + from + " now " + (fig.lying ? "lies in " : "stands on ") +
           (in_place ? std::string("the same feature") : model::FeatureAt(pos, node)) +
           (occupants > 0 ? ", which is already occupied (allowed)" : "")});
  if (finished) {
    r.verdict.reasons.push_back(
        {"GIFT-CHANGE", model::FeatureAt(pos, node) +
                            " is finished: under the reading any-feature the figure stands up on "
                            "it and stays there to the end of the game (never scored again, "
                            "never returned)"});
    if (std::find(d.on_finished.begin(), d.on_finished.end(), node) == d.on_finished.end())
      d.on_finished.push_back(node);
  }
  r.verdict.reasons.push_back({"GIFT-FN7", "a change of posture on the same tile"});
  if (was_lying)
    r.verdict.reasons.push_back(
        {"GIFT-Q-LYING", Slice(pos).variants.lying == LyingFigure::kFeatureBased
                             ? "the figure lay on a road, city or monastery: by fn 7 it goes to a "
                               "field of its tile (feature-based)"
                         : in_place ? "the figure lay on a road, city or monastery: it "
                                      "stands up where it lay, undoing the lay-down "
                                      "(posture-literal)"
                                    : "the figure lay on a road, city or monastery: it may "
                                      "only stand up (posture-literal)"});
  d.change_figure = -1;
  PruneOnFinished(pos);
  ReleaseTile(pos);
  return r;
}

}  // namespace carc::exp::gifts

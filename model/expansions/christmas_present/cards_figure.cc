// The figure cards (family.h): a meeple from the supply on a feature of any tile, unoccupied
// (figure-unoccupied-field/-road/-city) or holding another player's figure
// (figure-occupied-field/-road/-city/-monastery). Fixtures: x32-x40, x97, x105,
// combos/xmas_phantom_*.
#include "model/core/core_steps.h"
#include "model/core/json_reader.h"
#include "model/expansions/christmas_present/family.h"

namespace carc::exp::christmas_present {

using internal::KindName;
using internal::Root;
using model::ApplyResult;
using model::Position;

namespace {

bool OccupiedCard(Card c) { return c >= Card::kFigureOccupiedField; }

// XMAS-CARD-FIGURE-UNOCCUPIED-*, XMAS-CARD-FIGURE-OCCUPIED-*, BASE-MEEPLE-SUPPLY, XMAS-Q-EXTRA
// (with its reading), XMAS-FN6 (several monks: majority decides). Not on a feature completed
// and scored before; a feature this turn completes is allowed (it is scored this turn).
bool Check(const Position& pos, const Play& p, Window, Judge& j) {
  const State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  if (!internal::CheckKind(pos, p, j)) return false;
  const int root = Root(pos, p.node);
  if (pos.players[p.player].supply[model::kMeeple] <= 0)
    return j.No("BASE-MEEPLE-SUPPLY", [] { return "the player has no meeple in their supply"; });
  if (internal::CompletedEarlier(pos, root))
    return j.No(ci.ruling,
                [&] { return "the " + KindName(*ci.kind) + " was completed and scored earlier"; });
  if (s.variants.extra() == Extra::kReplacesNormal &&
      (s.card_figures_this_turn > 0 ||
       model::PlacedThisTurn(pos, model::kMeeple) > s.card_figures_this_turn))
    return j.No("XMAS-Q-EXTRA", [] {
      return "replaces-normal: the card's figure is the turn's one meeple placement, already "
             "made";
    });
  const bool occupied_card = OccupiedCard(p.card);
  if (!occupied_card && pos.AnyFigureIn(root))
    return j.No(ci.ruling, [&] {
      return "the " + KindName(*ci.kind) + " is occupied: this card needs one with no figure";
    });
  if (occupied_card && !internal::HasOpponentFigure(pos, root, p.player))
    return j.No(ci.ruling,
                [&] { return "the " + KindName(*ci.kind) + " holds no figure of another player"; });
  j.Yes(ci.ruling, [&] {
    return std::string(occupied_card ? "the feature is occupied by another player; the card "
                                       "allows a figure there, on any tile"
                                     : "the feature holds no figure; the card allows a figure "
                                       "there, on any tile");
  });
  j.Yes("XMAS-Q-EXTRA", [&] {
    return std::string(s.variants.extra() == Extra::kExtraFigure
                           ? "the card's figure is additional to the turn's meeple placement"
                           : "the card's figure is the turn's meeple placement");
  });
  if (p.card == Card::kFigureOccupiedMonastery)
    j.Yes("XMAS-FN6", [] { return "several monks on one monastery: majority decides"; });
  return true;
}

// Every segment of the card's kind (the figure goes on that segment).
bool Targets(const Position& pos, const Play& card, Visit visit) {
  // Check's tests that do not depend on the target (the supply, XMAS-Q-EXTRA), and the
  // occupied cards' need of another player's figure on a feature of the kind: when one fails,
  // every target fails, so the board is not walked.
  const State& s = *Slice(pos);
  if (pos.players[card.player].supply[model::kMeeple] <= 0) return false;
  if (s.variants.extra() == Extra::kReplacesNormal &&
      (s.card_figures_this_turn > 0 ||
       model::PlacedThisTurn(pos, model::kMeeple) > s.card_figures_this_turn))
    return false;
  const CardInfo& ci = Info(card.card);
  if (!OccupiedCard(card.card) || !ci.kind)
    return internal::FeatureTargets(pos, card, /*per_segment=*/true, visit);
  // An occupied card's target holds another player's figure (HasOpponentFigure): the walk
  // checks only the segments of those features.
  const internal::FigureRoots theirs(pos, *ci.kind, card.player, /*own=*/false);
  if (theirs.empty()) return false;
  return internal::FeatureTargets(pos, card, /*per_segment=*/true, [&](const Play& p) {
    return theirs.Has(Root(pos, p.node)) && visit(p);
  });
}

// XMAS-CARD-FIGURE-*: a meeple from the supply on the segment; XMAS-Q-EXTRA replaces-normal:
// it is the turn's meeple placement.
bool Resolve(Position& pos, const Play& p, ApplyResult& r) {
  State& s = *Slice(pos);
  if (pos.players[p.player].supply[model::kMeeple] <= 0) return true;  // BASE-MEEPLE-SUPPLY
  model::PlaceFigureAt(pos, p.player, model::kMeeple, p.node);
  s.card_figures_this_turn++;
  if (s.variants.extra() == Extra::kReplacesNormal &&
      !model::Decided(pos, pos.cfg().core_step.place_figure))
    model::MarkDecided(pos, pos.cfg().core_step.place_figure);
  r.verdict.reasons.push_back({Info(p.card).ruling, "a meeple from the supply goes on the " +
                                                        model::FeatureAt(pos, p.node)});
  return true;
}

}  // namespace

const Family& FigureCards() {
  static const Family kFamily{
      .name = "figure",
      .cards = {Card::kFigureUnoccupiedField, Card::kFigureUnoccupiedRoad,
                Card::kFigureUnoccupiedCity, Card::kFigureOccupiedField, Card::kFigureOccupiedRoad,
                Card::kFigureOccupiedCity, Card::kFigureOccupiedMonastery},
      .check = Check,
      .targets = Targets,
      .resolve = Resolve,
  };
  return kFamily;
}

}  // namespace carc::exp::christmas_present

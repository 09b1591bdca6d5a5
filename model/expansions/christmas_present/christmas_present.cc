#include "model/expansions/christmas_present/christmas_present.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "model/expansions/christmas_present/actions.h"
#include "model/expansions/christmas_present/family.h"
#include "model/expansions/christmas_present/hooks.h"
#include "model/expansions/christmas_present/picture.h"
#include "model/expansions/christmas_present/state.h"
#include "model/expansions/christmas_present/steps.h"

namespace carc::exp::christmas_present {

namespace {

using model::ArgType;

// The forms of xmas_play (ActionDecl::shape_of), from its card.
enum PlayForm : int {
  kNoTarget,
  kTargetShape,
  kReturnShape,
  kSwapShape,
  kSquareShape,
  kTilesShape
};
constexpr unsigned Bit(int shape) { return 1u << shape; }
int PlayShape(const model::Action& a) {
  const Card c = kCardArg(a);
  switch (FamilyOf(c).shape) {
    case Shape::kSquare:
      return kSquareShape;
    case Shape::kTiles:
      return kTilesShape;
    case Shape::kTwoFigures:
      return kSwapShape;
    case Shape::kFeature:
      break;
  }
  if (!NamesFeature(c)) return kNoTarget;
  return c == Card::kReturnFigure ? kReturnShape : kTargetShape;
}

// An argument of xmas_play given only for the card families in `shapes`, at `slot` of Action::args;
// `needs`: the index (in the declaration) of the argument it goes with.
template <typename T>
model::ArgDecl Shaped(std::string_view key, ArgType type, model::ActionArg<T> slot, unsigned shapes,
                      bool optional = false, int needs = -1) {
  return {.key = key,
          .type = type,
          .optional = optional,
          .slot = slot.index,
          .shapes = shapes,
          .needs = needs};
}

// xmas_play and xmas_discard are tried with the cards in the players' hands, by the players who
// hold cards. ("player" is never absent in Action::args: the reader fills in the default.)
bool HandCards(const model::Position& pos, int i, std::vector<int>& values) {
  if (i > 1) return false;
  const auto& hands = Slice(pos)->hands;
  for (int p = 0; p < static_cast<int>(hands.size()); ++p)
    for (Card c : hands[p]) {
      const int v = i == 0 ? static_cast<int>(c) : p;
      if (p < static_cast<int>(pos.players.size()) &&
          std::find(values.begin(), values.end(), v) == values.end())
        values.push_back(v);
    }
  return true;
}

// The six actions (actions.h): their JSON reader, writer and text are actions.cc's.
void AddActions(model::ModuleLoader& loader) {
  auto parse = [](const nlohmann::json& j, const model::Position& pos, const std::string& where) {
    return *ParseXmasAction(j, pos, where);  // the type is one of this module's
  };
  auto dump = [](const model::Position& pos, const model::Action& a, nlohmann::json& j) {
    DumpXmasAction(pos, a, j);
  };
  auto describe = [](const model::Position& pos, const model::Action& a) {
    return DescribeXmasAction(pos, a);
  };
  const std::vector<std::string_view> cards =
      model::EnumNames<Card>(kCardKinds, [](Card c) { return std::string_view(Info(c).name); });
  const std::vector<std::string_view> decks = {DeckName(Deck::kMonastery), DeckName(Deck::kRoad)};
  constexpr bool kOpt = true;
  const std::vector<model::ActionDecl> decls = {
      {"xmas_draw_card",
       kDrawCard,
       {{"deck", ArgType::kEnum, !kOpt, decks}, {"card", ArgType::kEnum, kOpt, cards}},
       "draw the top card of a deck (XMAS-DRAW-MONASTERY, XMAS-DRAW-ROAD)"},
      // The card's family (family.h Shape) gives the rest: a feature (and, for return-figure,
      // its figure's owner and kind), two figures (with the other's owner and the kinds), an
      // opponent and a square, or the two tiles drawn.
      {.type = "xmas_play",
       .code = kPlay,
       .args = {{"card", ArgType::kEnum, !kOpt, cards},
                {"player", ArgType::kPlayer},
                Shaped("target", ArgType::kFeature, kNodeArg,
                       Bit(kTargetShape) | Bit(kReturnShape)),
                Shaped("owner", ArgType::kPlayer, kOwnerArg, Bit(kReturnShape), kOpt, /*needs=*/2),
                Shaped("own", ArgType::kFigureAt, kNodeArg, Bit(kSwapShape)),
                Shaped("other", ArgType::kFigureAt, kOtherNodeArg, Bit(kSwapShape)),
                Shaped("other_owner", ArgType::kPlayer, kOtherOwnerArg, Bit(kSwapShape), kOpt, 5),
                Shaped("opponent", ArgType::kPlayer, kOpponentArg, Bit(kSquareShape)),
                Shaped("square", ArgType::kSquare, kSquareXArg, Bit(kSquareShape)),
                Shaped("tiles", ArgType::kTile, kTile1Arg, Bit(kTilesShape), kOpt),
                Shaped("tiles", ArgType::kTile, kTile2Arg, Bit(kTilesShape), !kOpt, 9),
                Shaped("figure", ArgType::kFigureKind, kFigureKindArg, Bit(kReturnShape), kOpt,
                       /*needs=*/2),
                Shaped("own_figure", ArgType::kFigureKind, kOwnFigureArg, Bit(kSwapShape), kOpt,
                       /*needs=*/4),
                Shaped("other_figure", ArgType::kFigureKind, kOtherFigureArg, Bit(kSwapShape), kOpt,
                       /*needs=*/5)},
       .summary = "play a card from hand (XMAS-USE, XMAS-CARD-*)",
       .shape_of = PlayShape,
       .domain = HandCards},
      {"xmas_cancel",
       kCancel,
       {{"player", ArgType::kPlayer}},
       "cancel a road-deck card aimed at the player (XMAS-FN8)"},
      {"xmas_allow", kAllow, {{"player", ArgType::kPlayer}}, "let a road-deck card act (XMAS-FN8)"},
      {.type = "xmas_discard",
       .code = kDiscard,
       .args = {{"card", ArgType::kEnum, !kOpt, cards}, {"player", ArgType::kPlayer}},
       .summary = "discard down to 5 cards at the end of the turn (XMAS-HAND)",
       .domain = HandCards},
      {"xmas_keep_tile",
       kKeepTile,
       {{"tile", ArgType::kTile}},
       "keep one of the two tiles take-two-tiles drew (XMAS-CARD-TAKE-TWO-TILES)"},
  };
  for (model::ActionDecl d : decls) {
    d.parse = parse;
    d.dump = dump;
    d.describe = describe;
    loader.AddAction(std::move(d));
  }
}

// XMAS-SETUP: without a section, both decks hold all 32 cards each, in an unknown order.
std::unique_ptr<model::ExpansionState> NewState() {
  auto s = std::make_unique<State>();
  for (int k = 0; k < kCardKinds; ++k)
    for (int i = 0; i < kCopies; ++i) {
      Card c = static_cast<Card>(k);
      s->decks[static_cast<int>(DeckOf(c))].cards.push_back(c);
    }
  for (auto& d : s->decks) d.ordered = false;
  s->hands.assign(6, {});
  return s;
}

model::Status ParseState(const nlohmann::json& j, const std::string& where, model::Position& pos) {
  // The core has read "variants" (module_loader.h ReadVariants) into the slice already.
  const Variants variants = Slice(pos)->variants;
  *Slice(pos) = State();
  Slice(pos)->variants = variants;
  model::Status st = ParseSection(j, where, pos);
  if (!st.ok()) return st;
  // A file at step "draw" (or "final_scoring") whose turn start needs a decision (take-two-tiles,
  // end cards: XMAS-CARD-TAKE-TWO-TILES, XMAS-END) starts at xmas_turn_start, right before the
  // draw. Only then, so that a position stopped at "draw" reads back unchanged.
  const auto& cfg = pos.cfg();
  const int start = cfg.StepIndex(kStepTurnStart);
  if (!pos.turn.game_over && pos.turn.step == cfg.core_step.draw_tile && pos.turn.placed < 0 &&
      !pos.turn.drawn && cfg.pipeline[start]->NeedsDecision(pos))
    pos.turn.step = start;
  return st;
}

}  // namespace

// XMAS-SETUP, XMAS-USE: the steps, the slice, the actions and the hooks Christmas Present uses.
void ChristmasPresent::Load(model::ModuleLoader& loader) const {
  AddSteps(loader);
  loader.SetState({NewState, ParseState, DumpSection});
  AddActions(loader);
  for (int d = 0; d < kDisputes; ++d) {
    const DisputeInfo& info = Disputes(static_cast<Dispute>(d));
    model::VariantDecl v;
    v.ruling = info.ruling;
    v.readings.assign(info.readings.begin(), info.readings.end());
    v.set = [d](model::Position& pos, int r) {
      Slice(pos)->variants.v[d] = static_cast<uint8_t>(r);
    };
    v.get = [d](const model::Position& pos) { return static_cast<int>(Slice(pos)->variants.v[d]); };
    loader.AddVariant(std::move(v));
  }
  loader.OnValidate(Validate);
  loader.OnExcuse(Excused);
  loader.OnJudgeOutOfStep(OutOfStepRuling);  // rulings: see OutOfStepRuling (steps.cc)
  loader.OnAdjustMajority(AdjustMajority);
  loader.OnMajorityAdjustments(MajorityAdjustmentsOn);
  loader.OnCompleted(OnCompleted);
  loader.OnFeatureScored(OnFeatureScored);
  loader.OnBeforeFinalScoring(BeforeFinalScoring);
  loader.OnAfterFinalScoring(AfterFinalScoring);
  // XMAS-CARD-TAKE-TWO-TILES: the pair drawn by the card left the supply (BASE-SETUP).
  loader.OnHeldTiles([](const model::Position& pos, std::vector<model::TileType>& out) {
    const State* s = Slice(pos);
    out.insert(out.end(), s->two_tiles.begin(), s->two_tiles.end());
  });
  loader.OnConstrainPlacement({ForceInForce, ForceAllows});
  loader.OnTilePlaced(OnTilePlaced);
  loader.OnDescribeState(DescribeState);  // picture.cc
  // XMAS-SETUP: two decks of 16 kinds; the workbench's deck pickers offer each deck's cards.
  model::NameGroups decks{.key = "decks"};
  for (Deck d : {Deck::kMonastery, Deck::kRoad}) {
    model::NameGroups::Group g{.name = std::string(DeckName(d))};
    for (int c = 0; c < kCardKinds; ++c)
      if (Info(static_cast<Card>(c)).deck == d)
        g.members.push_back(Info(static_cast<Card>(c)).name);
    decks.groups.push_back(std::move(g));
  }
  loader.AddNameGroups(std::move(decks));
}

const ChristmasPresent& Get() {
  static const ChristmasPresent expansion;
  return expansion;
}

}  // namespace carc::exp::christmas_present

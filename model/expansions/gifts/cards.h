#pragma once
// The gift cards: who receives one (GIFT-GET), what each card does when opened (GIFT-SYNOD,
// GIFT-SWEEPER, GIFT-CASHOUT, GIFT-CHANGE, GIFT-TAKE2) and the legal openings.

#include <vector>

#include "model/core/action.h"
#include "model/core/position.h"
#include "model/expansions/gifts/state.h"

namespace carc::exp::gifts {

// Action codes of ActionType::kExpansion actions; their arguments are declared in gifts.cc and
// read through these slots.
enum Code : int {
  kOpen = 1,        // kCardArg, kNodeArg (-1: no target), kKindArg (figure kind; -1: none)
  kPositionTo = 2,  // kToArg (Change Position: the figure's new feature)
  kDrawCard = 3,    // kCardArg (a draw from an unordered gift deck)
};
inline constexpr model::ActionArg<Card> kCardArg{0};
inline constexpr model::ActionArg<int> kNodeArg{1};
inline constexpr model::ActionArg<int> kKindArg{2};
inline constexpr model::ActionArg<int> kToArg{0};

model::Action OpenAction(Card card, int node = -1, int kind = -1);

// GIFT-GET, GIFT-FN1, GIFT-Q-EXTEND: does the tile placed this turn earn its player a gift?
// Each road or city the tile belongs to is judged by majority after placement; `why` gets one
// reason per feature with figures. GIFT-Q-ADVANTAGE: under advantage-counts (default) the
// majority includes the modules' adjustments (Christmas Present's advantage cards), under
// figures-only it does not; `why` then names each card on the feature, its holder, and the
// majority with and without it.
bool Earned(const model::Position& pos, std::vector<model::Reason>* why);

// Every legal opening for the player to move (GIFT-OPEN, GIFT-FN2).
void ListOpenings(const model::Position& pos, std::vector<model::Action>& out);
// Opens a gift: checks the card and its target, carries out its action, discards the card.
// Illegal: pos is unchanged.
model::ApplyResult OpenGift(model::Position& pos, const model::Action& a);

// Change Position, second decision: the figure's new feature (GIFT-CHANGE, GIFT-FN7).
void ListChangeTargets(const model::Position& pos, std::vector<model::Action>& out);
model::ApplyResult ChangeTo(model::Position& pos, const model::Action& a);

// Figure kinds the cards may use: meeple and phantom (GIFT-COMBO).
bool GiftFigure(const model::Position& pos, int kind);
// The figure kind placed at a step of its own after the meeple's (the phantom, by its trait
// FigureTraits::own_step), or -1.
int OwnStepFigure(const model::Position& pos);

// Puts the single held tile back in the player's hand for placement.
void ReleaseTile(model::Position& pos);

}  // namespace carc::exp::gifts

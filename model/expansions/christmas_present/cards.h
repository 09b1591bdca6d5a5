#pragma once
// The 32 card kinds of Christmas Present (seed 002, "Popis karet" and "Seznam karet"): two decks
// of 16 kinds, two copies each (XMAS-SETUP). Each kind is named in position files by the tail of
// its ruling ID in lower case: XMAS-CARD-DOUBLE-ROAD is "double-road".

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "model/core/types.h"

namespace carc::exp::christmas_present {

enum class Deck : uint8_t { kMonastery, kRoad };

// When a card may be played (the symbol at the foot of the card):
// lightning = immediate, own turn only (XMAS-Q-LIGHTNING); none = any time, read as any step of
// one's own turn (XMAS-Q-ANYTIME); Carcassonne symbol = end of game (XMAS-END).
enum class Timing : uint8_t { kImmediate, kAnyTime, kEndOfGame };

enum class Card : uint8_t {
  // Monastery deck, lightning.
  k3Points,
  kDoubleRoad,
  kCityPlusOne,
  kMonasteryBonus,
  kFigureUnoccupiedField,
  kFigureUnoccupiedRoad,
  kFigureUnoccupiedCity,
  // Monastery deck, no symbol.
  kDoubleLoopRoad,
  kCancelAttack,
  kTakeTwoTiles,
  k3PerArms,
  k3PerTileNoArms,
  kReturnFigure,
  // Monastery deck, Carcassonne symbol.
  k2PerFigureInSupply,
  kFieldLeadBonus,
  kTiedFieldBonus,
  // Road deck, lightning.
  kFigureOccupiedField,
  kFigureOccupiedRoad,
  kFigureOccupiedCity,
  kFigureOccupiedMonastery,
  kLayDownRoad,
  kLayDownCity,
  kLayDownMonastery,
  kAdvantageRoad,
  kAdvantageCity,
  kAdvantageMonastery,
  // Road deck, no symbol.
  kSwapMonastery,
  kSwapCity,
  kSwapRoad,
  kSwapField,
  kForcePlacement,
  // Road deck, Carcassonne symbol.
  kAdvantageField,
};

inline constexpr int kCardKinds = 32;
inline constexpr int kCopies = 2;     // XMAS-SETUP: "2x" for each kind
inline constexpr int kHandLimit = 5;  // XMAS-HAND

struct CardInfo {
  Card card;
  const char* name;    // position-file name
  const char* ruling;  // XMAS-CARD-*
  Deck deck;
  Timing timing;
  // The feature kind the card acts on, for the cards that target one kind of feature.
  std::optional<model::FeatureKind> kind;
};

const CardInfo& Info(Card c);
std::optional<Card> ParseCard(std::string_view name);
std::string_view DeckName(Deck d);
std::optional<Deck> ParseDeck(std::string_view s);
inline Deck DeckOf(Card c) { return Info(c).deck; }
inline Timing TimingOf(Card c) { return Info(c).timing; }

// The card kinds that change how a feature completed this turn is scored (the holder plays them
// when the feature is scored): XMAS-CARD-DOUBLE-LOOP-ROAD, -3-PER-ARMS, -3-PER-TILE-NO-ARMS.
bool IsScoringModifier(Card c);
bool IsSwap(Card c);
// Road-deck cards played against an opponent may be cancelled by them (XMAS-FN8).
bool IsRoadDeckAttack(Card c);

}  // namespace carc::exp::christmas_present

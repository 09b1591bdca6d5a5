#include "model/expansions/christmas_present/cards.h"

namespace carc::exp::christmas_present {

namespace {

using model::FeatureKind;
constexpr auto kRoad = FeatureKind::kRoad;
constexpr auto kCity = FeatureKind::kCity;
constexpr auto kField = FeatureKind::kField;
constexpr auto kMon = FeatureKind::kMonastery;
constexpr auto kM = Deck::kMonastery;
constexpr auto kR = Deck::kRoad;
constexpr auto kNow = Timing::kImmediate;
constexpr auto kAny = Timing::kAnyTime;
constexpr auto kEnd = Timing::kEndOfGame;

// The card list of seed 002, in the order of "Popis karet" (XMAS-SETUP, XMAS-CARD-*).
const std::array<CardInfo, kCardKinds> kTable = {{
    {Card::k3Points, "3-points", "XMAS-CARD-3-POINTS", kM, kNow, std::nullopt},
    {Card::kDoubleRoad, "double-road", "XMAS-CARD-DOUBLE-ROAD", kM, kNow, kRoad},
    {Card::kCityPlusOne, "city-plus-one", "XMAS-CARD-CITY-PLUS-ONE", kM, kNow, kCity},
    {Card::kMonasteryBonus, "monastery-bonus", "XMAS-CARD-MONASTERY-BONUS", kM, kNow, kMon},
    {Card::kFigureUnoccupiedField, "figure-unoccupied-field", "XMAS-CARD-FIGURE-UNOCCUPIED-FIELD",
     kM, kNow, kField},
    {Card::kFigureUnoccupiedRoad, "figure-unoccupied-road", "XMAS-CARD-FIGURE-UNOCCUPIED-ROAD", kM,
     kNow, kRoad},
    {Card::kFigureUnoccupiedCity, "figure-unoccupied-city", "XMAS-CARD-FIGURE-UNOCCUPIED-CITY", kM,
     kNow, kCity},
    {Card::kDoubleLoopRoad, "double-loop-road", "XMAS-CARD-DOUBLE-LOOP-ROAD", kM, kAny, kRoad},
    {Card::kCancelAttack, "cancel-attack", "XMAS-CARD-CANCEL-ATTACK", kM, kAny, std::nullopt},
    {Card::kTakeTwoTiles, "take-two-tiles", "XMAS-CARD-TAKE-TWO-TILES", kM, kAny, std::nullopt},
    {Card::k3PerArms, "3-per-arms", "XMAS-CARD-3-PER-ARMS", kM, kAny, kCity},
    {Card::k3PerTileNoArms, "3-per-tile-no-arms", "XMAS-CARD-3-PER-TILE-NO-ARMS", kM, kAny, kCity},
    {Card::kReturnFigure, "return-figure", "XMAS-CARD-RETURN-FIGURE", kM, kAny, std::nullopt},
    {Card::k2PerFigureInSupply, "2-per-figure-in-supply", "XMAS-CARD-2-PER-FIGURE-IN-SUPPLY", kM,
     kEnd, std::nullopt},
    {Card::kFieldLeadBonus, "field-lead-bonus", "XMAS-CARD-FIELD-LEAD-BONUS", kM, kEnd, kField},
    {Card::kTiedFieldBonus, "tied-field-bonus", "XMAS-CARD-TIED-FIELD-BONUS", kM, kEnd, kField},
    {Card::kFigureOccupiedField, "figure-occupied-field", "XMAS-CARD-FIGURE-OCCUPIED-FIELD", kR,
     kNow, kField},
    {Card::kFigureOccupiedRoad, "figure-occupied-road", "XMAS-CARD-FIGURE-OCCUPIED-ROAD", kR, kNow,
     kRoad},
    {Card::kFigureOccupiedCity, "figure-occupied-city", "XMAS-CARD-FIGURE-OCCUPIED-CITY", kR, kNow,
     kCity},
    {Card::kFigureOccupiedMonastery, "figure-occupied-monastery",
     "XMAS-CARD-FIGURE-OCCUPIED-MONASTERY", kR, kNow, kMon},
    {Card::kLayDownRoad, "lay-down-road", "XMAS-CARD-LAY-DOWN-ROAD", kR, kNow, kRoad},
    {Card::kLayDownCity, "lay-down-city", "XMAS-CARD-LAY-DOWN-CITY", kR, kNow, kCity},
    {Card::kLayDownMonastery, "lay-down-monastery", "XMAS-CARD-LAY-DOWN-MONASTERY", kR, kNow, kMon},
    {Card::kAdvantageRoad, "advantage-road", "XMAS-CARD-ADVANTAGE-ROAD", kR, kNow, kRoad},
    {Card::kAdvantageCity, "advantage-city", "XMAS-CARD-ADVANTAGE-CITY", kR, kNow, kCity},
    {Card::kAdvantageMonastery, "advantage-monastery", "XMAS-CARD-ADVANTAGE-MONASTERY", kR, kNow,
     kMon},
    {Card::kSwapMonastery, "swap-monastery", "XMAS-CARD-SWAP-MONASTERY", kR, kAny, kMon},
    {Card::kSwapCity, "swap-city", "XMAS-CARD-SWAP-CITY", kR, kAny, kCity},
    {Card::kSwapRoad, "swap-road", "XMAS-CARD-SWAP-ROAD", kR, kAny, kRoad},
    {Card::kSwapField, "swap-field", "XMAS-CARD-SWAP-FIELD", kR, kAny, kField},
    {Card::kForcePlacement, "force-placement", "XMAS-CARD-FORCE-PLACEMENT", kR, kAny, std::nullopt},
    {Card::kAdvantageField, "advantage-field", "XMAS-CARD-ADVANTAGE-FIELD", kR, kEnd, kField},
}};

}  // namespace

const CardInfo& Info(Card c) { return kTable[static_cast<int>(c)]; }

std::optional<Card> ParseCard(std::string_view name) {
  for (const CardInfo& i : kTable)
    if (name == i.name) return i.card;
  return std::nullopt;
}

std::string_view DeckName(Deck d) { return d == Deck::kMonastery ? "monastery" : "road"; }

std::optional<Deck> ParseDeck(std::string_view s) {
  if (s == "monastery") return Deck::kMonastery;
  if (s == "road") return Deck::kRoad;
  return std::nullopt;
}

bool IsScoringModifier(Card c) {
  return c == Card::kDoubleLoopRoad || c == Card::k3PerArms || c == Card::k3PerTileNoArms;
}

bool IsSwap(Card c) {
  return c == Card::kSwapMonastery || c == Card::kSwapCity || c == Card::kSwapRoad ||
         c == Card::kSwapField;
}

bool IsRoadDeckAttack(Card c) {
  // XMAS-FN8: road-deck cards used during the game against an opponent. The end card
  // (advantage-field) is revealed at game end, when no in-game card can answer it (XMAS-END).
  return DeckOf(c) == Deck::kRoad && TimingOf(c) != Timing::kEndOfGame;
}

}  // namespace carc::exp::christmas_present

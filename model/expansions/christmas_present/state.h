#pragma once
// The Christmas Present slice of a Position: decks, hands, discards, cards in play, laid-down
// features, deferred points, and the rule variants (typed enums, one per disputed ruling).
// Position-file form: model/expansions/christmas_present/README.md.

#include <array>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/core/expansion.h"
#include "model/core/position.h"
#include "model/expansions/christmas_present/cards.h"

namespace carc::exp::christmas_present {

// --- Variants: each disputed ruling, its adopted reading first (index 0).
enum class DrawMonastery { kEightAroundOpponentMonk, kOrthogonalOpponentMonk, kEightAroundNotOwn };
// kEveryEdgeRoad: only a tile whose four edges are all road (the crossroads).
enum class DrawRoad { kRoadWithoutCityOrMonastery, kPlainRoadTiles, kAnyRoadTile, kEveryEdgeRoad };
enum class MonasteryCount { kExcludeMonasteryTile, kIncludeMonasteryTile };  // XMAS-FN4
enum class Share { kFullValueEach, kSplitValue };                            // XMAS-Q-SHARE
enum class AnyTime { kOwnTurnAnyStep, kAnyPlayersTurn };                     // XMAS-Q-ANYTIME
enum class Lightning { kDrawnTurnOnly, kKeepForLaterOwnTurn };               // XMAS-Q-LIGHTNING
enum class SupplyCount { kBeforeFinalScoring, kAfterFinalScoring };          // XMAS-Q-SUPPLY
enum class TiedField { kAnyTiedField, kHolderMustBeTied };                   // XMAS-Q-TIEDFIELD
enum class ReturnWhose { kOwnFigure, kOpponentAttack };                      // XMAS-Q-RETURN
enum class AdvantageTest {                                                   // XMAS-Q-ADVANTAGE
  kTestWhenPlayedTiesOnly,
  kTestWhenScored,
  kFieldAnySharedPresence,
};
enum class Loop { kEndlessLoopOnly, kGeometricLoop };              // XMAS-Q-LOOP
enum class ForceTiming { kOwnTurnNextTile, kOpponentTurnOnDraw };  // XMAS-Q-FORCE
enum class Extra { kExtraFigure, kReplacesNormal };                // XMAS-Q-EXTRA
enum class HandLimit { kHolderChooses, kRandomDiscard };           // XMAS-Q-HANDLIMIT
// XMAS-Q-TIEDSCORING: who is paid at a scoring card's rate when another player ties the card
// player's majority. Immediate cards (fns 3-6): card-player-only pays only the card player,
// all-tied-leaders every tied leader at the card's rate, tied-leaders-normal-rate the others at
// the end-game value. Modifiers on a completed feature (fns 7, 9, 10): the feature is scored as
// usual, so tied co-leaders are paid the usual value under card-player-only and
// tied-leaders-normal-rate, and the card's rate under all-tied-leaders.
enum class TiedScoring {
  kCardPlayerOnly,
  kAllTiedLeaders,
  kTiedLeadersNormalRate,
};
// XMAS-FN9 / XMAS-FN10: a card's rate where the usual rate is not 2 per tile and 2 per arms
// (C1 city_scoring c1-two-tile-city): the printed rate, or the usual rate + 1.
enum class CardRate { kLiteralRate, kPlusOne };
// XMAS-FN12: an immediate scoring card on a laid-down unfinished feature: the value is fixed
// when the card scores it and paid at game end, or paid at once.
enum class LaidDownCard { kFixedNowPaidAtEnd, kPaidNow };

enum class Dispute : uint8_t {
  kDrawMonastery,
  kDrawRoad,
  kFn4,
  kShare,
  kAnyTime,
  kLightning,
  kSupply,
  kTiedField,
  kReturn,
  kAdvantage,
  kLoop,
  kForce,
  kExtra,
  kHandLimit,
  kTiedScoring,
  kFn9,
  kFn10,
  kFn12,
};
inline constexpr int kDisputes = 18;

struct DisputeInfo {
  const char* ruling;
  std::vector<const char*> readings;  // reading names of database/rulings, adopted first
};
const DisputeInfo& Disputes(Dispute d);

struct Variants {
  std::array<uint8_t, kDisputes> v{};  // reading index per dispute; 0 = adopted
  template <typename E>
  E get(Dispute d) const {
    return static_cast<E>(v[static_cast<int>(d)]);
  }
  DrawMonastery draw_monastery() const { return get<DrawMonastery>(Dispute::kDrawMonastery); }
  DrawRoad draw_road() const { return get<DrawRoad>(Dispute::kDrawRoad); }
  MonasteryCount monastery_count() const { return get<MonasteryCount>(Dispute::kFn4); }
  Share share() const { return get<Share>(Dispute::kShare); }
  AnyTime any_time() const { return get<AnyTime>(Dispute::kAnyTime); }
  Lightning lightning() const { return get<Lightning>(Dispute::kLightning); }
  SupplyCount supply() const { return get<SupplyCount>(Dispute::kSupply); }
  TiedField tied_field() const { return get<TiedField>(Dispute::kTiedField); }
  ReturnWhose return_whose() const { return get<ReturnWhose>(Dispute::kReturn); }
  AdvantageTest advantage() const { return get<AdvantageTest>(Dispute::kAdvantage); }
  Loop loop() const { return get<Loop>(Dispute::kLoop); }
  ForceTiming force() const { return get<ForceTiming>(Dispute::kForce); }
  Extra extra() const { return get<Extra>(Dispute::kExtra); }
  HandLimit hand_limit() const { return get<HandLimit>(Dispute::kHandLimit); }
  TiedScoring tied_scoring() const { return get<TiedScoring>(Dispute::kTiedScoring); }
  CardRate arms_rate() const { return get<CardRate>(Dispute::kFn9); }
  CardRate no_arms_rate() const { return get<CardRate>(Dispute::kFn10); }
  LaidDownCard laid_down_card() const { return get<LaidDownCard>(Dispute::kFn12); }
  friend bool operator==(const Variants&, const Variants&) = default;
};

// A deck: in a known order (top first) or as an unordered set of cards (the next card is a
// chance outcome that a draw action names).
struct DeckState {
  bool ordered = true;
  std::vector<Card> cards;  // top first when ordered
  friend bool operator==(const DeckState&, const DeckState&) = default;
};

// A card attached to a feature until that feature is scored: advantage cards (+1 figure,
// XMAS-CARD-ADVANTAGE-*) and scoring modifiers played on a feature completed this turn.
struct Attached {
  model::PlayerId player = 0;
  Card card = Card::kAdvantageRoad;
  int node = -1;  // a segment of the feature; the feature is Find(node)
  friend bool operator==(const Attached&, const Attached&) = default;
};

// A laid-down feature completed earlier: its value, fixed on completion, paid at game end
// (XMAS-FN12).
struct Deferred {
  std::vector<model::PlayerId> winners;
  int points = 0;
  int node = -1;
  friend bool operator==(const Deferred&, const Deferred&) = default;
};

// A forced placement waiting for the target's next tile (XMAS-Q-FORCE, own-turn-next-tile).
struct Force {
  model::PlayerId holder = 0;
  model::PlayerId target = 0;
  model::Coord square;
  friend bool operator==(const Force&, const Force&) = default;
};

// A road-deck card played against opponents, waiting for them to cancel it or let it act
// (XMAS-FN8). `waiting`: the opponents, in turn order, still to decide.
struct PendingAttack {
  model::Action action;
  std::vector<model::PlayerId> waiting;
  friend bool operator==(const PendingAttack&, const PendingAttack&) = default;
};

class State final : public model::SliceOf<State> {
 public:
  friend bool operator==(const State& a, const State& b) { return a.Same(b); }
  bool Same(const State& o) const {
    return variants == o.variants && decks == o.decks && Trimmed(hands) == Trimmed(o.hands) &&
           discard == o.discard && attached == o.attached && laid_down == o.laid_down &&
           deferred == o.deferred && forces == o.forces && pending == o.pending &&
           two_tiles == o.two_tiles && field_choices == o.field_choices &&
           card_figures_this_turn == o.card_figures_this_turn;
  }

  // Hands without trailing empty ones: a default slice holds 6 (the most players).
  static std::vector<std::vector<Card>> Trimmed(std::vector<std::vector<Card>> h) {
    while (!h.empty() && h.back().empty()) h.pop_back();
    return h;
  }

  Variants variants;
  std::array<DeckState, 2> decks;          // by Deck
  std::vector<std::vector<Card>> hands;    // per player; hidden from the others
  std::vector<Card> discard;               // never reshuffled (XMAS-FN2)
  std::vector<Attached> attached;          // advantage cards and modifiers in play
  std::vector<int> laid_down;              // nodes of laid-down features (XMAS-FN11)
  std::vector<Deferred> deferred;          // XMAS-FN12
  std::vector<Force> forces;               // XMAS-Q-FORCE
  std::optional<PendingAttack> pending;    // XMAS-FN8
  std::vector<model::TileType> two_tiles;  // XMAS-CARD-TAKE-TWO-TILES: the pair drawn
  std::vector<std::pair<model::PlayerId, int>> field_choices;  // advantage-field: player, node
  int card_figures_this_turn = 0;                              // XMAS-Q-EXTRA (replaces-normal)
};

// The slice of a position (null when the expansion is not enabled), through the core's
// Position::slice; inline, as it is asked once per candidate target when plays are listed.
const model::Expansion* Self();  // the module (Get()), for headers that do not see its class
inline const State* Slice(const model::Position& pos) {
  static const model::Expansion* const self = Self();
  return static_cast<const State*>(pos.slice(self));
}
inline State* Slice(model::Position& pos) {
  return const_cast<State*>(Slice(static_cast<const model::Position&>(pos)));
}

// Parses and writes the "expansions": {"christmas_present": {...}} section.
model::Status ParseSection(const nlohmann::json& j, const std::string& where, model::Position& pos);
void DumpSection(const model::Position& pos, nlohmann::json& j);

// Copies of each card kind anywhere (decks, hands, discard, in play).
std::array<int, kCardKinds> CardCounts(const State& s);

// A feature named on the board by exactly {"x", "y", "feature"} -> segment node (the core's
// model::ReadFeatureRef, with the keys checked); errors name `where`.
model::StatusOr<int> ReadTarget(const nlohmann::json& j, const model::Position& pos,
                                const std::string& where);
nlohmann::json FeatureRef(const model::Position& pos, int node);

}  // namespace carc::exp::christmas_present

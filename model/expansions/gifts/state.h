#pragma once
// The Gifts state slice: the gift deck, each player's face-down cards, the face-up discards, the
// typed variants of the disputed rulings, and what the current turn has done with gifts.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/expansion.h"
#include "model/core/position.h"

namespace carc::exp::gifts {

// GIFT-SETUP: five of each.
enum class Card { kSynod, kRoadSweeper, kChangePosition, kCashOut, kTake2 };
inline constexpr int kCardTypes = 5;
inline constexpr int kPerType = 5;
inline constexpr int kMaxPlayers = 6;
using CardCounts = std::array<int, kCardTypes>;

std::string_view CardName(Card c);   // "synod", "road_sweeper", ...
std::string_view CardTitle(Card c);  // "Synod", "Road Sweeper", ...
std::optional<Card> ParseCard(std::string_view s);
int Total(const CardCounts& c);

// GIFT-FN9 (disputed): the unchosen tile of Take 2.
enum class OtherTile { kDiscardUnchosen, kReturnUnchosenToSupply };
// GIFT-Q-EXTEND (disputed): does a tile that completes the road or city extend it?
enum class Completion { kCompletionCounts, kCompletionExcluded };
// GIFT-Q-LYING (disputed): Change Position on a figure lying on a road, city or monastery.
enum class LyingFigure { kFeatureBased, kPostureLiteral };
// GIFT-CHANGE (reading): may Change Position stand a figure up on a finished road, city or
// monastery?
enum class ChangeTarget { kUnfinishedOnly, kAnyFeature };
// GIFT-Q-ADVANTAGE (disputed): does another expansion's majority advantage (Christmas Present's
// advantage cards, one more figure for the holder) count when GIFT-GET / GIFT-FN1 ask whose
// majority the extended road or city is?
enum class AdvantageMajority { kAdvantageCounts, kFiguresOnly };
// GIFT-Q-EXTRA-PART (disputed): another expansion gives the player a further tile in the same
// turn (The Messengers' message 4: "a normal turn with all its phases follows", MSG-FN6). Is
// that part a turn of its own for GIFT-GET-ONE (one gift received) and GIFT-OPEN (one opened)?
enum class ExtraPart { kEachPart, kWholeTurn };

struct Variants {
  OtherTile other_tile = OtherTile::kDiscardUnchosen;
  Completion completion = Completion::kCompletionCounts;
  LyingFigure lying = LyingFigure::kFeatureBased;
  ChangeTarget change_target = ChangeTarget::kUnfinishedOnly;
  AdvantageMajority advantage = AdvantageMajority::kAdvantageCounts;
  ExtraPart extra_part = ExtraPart::kEachPart;
  friend bool operator==(const Variants&, const Variants&) = default;
};

struct Data {
  // The deck: a known order (top first) or, when the order is unknown (a fresh shuffle), counts
  // only; every draw from an unordered deck is then stated (action gift_draw). `deck` always
  // holds the counts.
  bool deck_ordered = false;
  std::vector<Card> deck_order;
  CardCounts deck{kPerType, kPerType, kPerType, kPerType, kPerType};
  std::array<CardCounts, kMaxPlayers> hands{};  // per player, face down
  CardCounts discards{};                        // face up
  Variants variants;
  // GIFT-CHANGE, variant any-feature: the nodes (tile segments) on which Change Position stood
  // a figure up on a finished feature; such a figure stays there to the end of the game
  // (BASE-RETURN is excused for it). Only nodes that still hold a figure are written out.
  std::vector<int> on_finished;
  // --- this turn
  std::vector<model::TileType> held;  // tiles in hand before placement (open_gift, take_2)
  std::optional<Card> opened;         // the gift opened this turn (GIFT-OPEN: one)
  bool take2_drawing = false;         // Take 2: the second tile still to be drawn (counts)
  int change_figure = -1;             // Change Position: figure awaiting its new feature
  bool received = false;              // a gift was received this turn (GIFT-GET-ONE)
  bool earlier_part = false;  // GIFT-Q-EXTRA-PART whole-turn: this is a further part of the turn
  friend bool operator==(const Data&, const Data&) = default;
};

class State final : public model::SliceOf<State> {
 public:
  Data d;
  friend bool operator==(const State& a, const State& b) { return a.d == b.d; }
};

// The slice of the position (the expansion must be enabled), through the core's
// Position::slice; inline, as the steps ask for it several times per action.
const model::Expansion* Self();  // the module (Get()), for headers that do not see its class
inline const Data& Slice(const model::Position& pos) {
  static const model::Expansion* const self = Self();
  return static_cast<const State*>(pos.slice(self))->d;
}
inline Data& Slice(model::Position& pos) {
  return const_cast<Data&>(Slice(static_cast<const model::Position&>(pos)));
}

// The typed variants, declared for the core's "variants" reader (GIFT-FN9, GIFT-Q-EXTEND,
// GIFT-Q-LYING, GIFT-CHANGE, GIFT-Q-ADVANTAGE, GIFT-Q-EXTRA-PART). GIFT-Q-PHANTOM, about the
// phantom whatever returned it, is the Phantom's variant.
void DeclareVariants(model::ModuleLoader& loader);

// Section I/O ("expansions": {"gifts": {...}}, but "variants"); `where` is the section's pointer.
model::Status ParseData(const nlohmann::json& j, const std::string& where, model::Position& pos,
                        Data& d);
void DumpData(const model::Position& pos, const Data& d, nlohmann::json& j);

}  // namespace carc::exp::gifts

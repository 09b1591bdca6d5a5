#pragma once
// The Messengers' slice of the Position: both scoring figures of every player, the message
// stack, points waiting for their figure, and the bookkeeping of the current turn part.
// Rulings: MSG-SETUP, MSG-CHOOSE, MSG-DARK, MSG-ONE, MSG-SECOND, MSG-FN2, MSG-FN18.

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/expansion.h"
#include "model/core/types.h"

namespace carc::exp::messengers {

using model::PlayerId;

// The two scoring figures (MSG-SETUP, MSG-FN11: equivalent).
enum class Figure { kMeeple = 0, kDame = 1 };
inline constexpr int kFigures = 2;
std::string_view FigureName(Figure f);
std::optional<Figure> ParseFigure(std::string_view s);

// The eight messages, by name (MSG-FN2: printings number them differently).
enum class Message {
  kSmallestRoad,    // MSG-1
  kSmallestCity,    // MSG-2
  kMonastery,       // MSG-3
  kExtraTile,       // MSG-4
  kCoatsOfArms,     // MSG-5
  kKnights,         // MSG-6
  kFarmers,         // MSG-7
  kScoreAndReturn,  // MSG-8
};
inline constexpr int kMessages = 8;
std::string_view MessageName(Message m);    // "smallest-road", ...
std::string_view MessageTitle(Message m);   // "smallest road", ...
std::string_view MessageRuling(Message m);  // "MSG-1", ...
std::optional<Message> ParseMessageName(std::string_view s);

// Per-printing numbering tables (MSG-FN2, MSG-FN18).
enum class Numbering {
  kHig,        // "hig": HiG and Mindok Big Box 7 (C3): 1..8 in the order of the enum
  kMindokBb6,  // "mindok-bb6": Mindok Big Box 6, 1st and 2nd printing: 4->7, 5->4, 6->5, 7->6
};
std::string_view NumberingName(Numbering n);
std::optional<Numbering> ParseNumbering(std::string_view s);
int MessageNumber(Numbering n, Message m);
std::optional<Message> MessageByNumber(Numbering n, int number);

// The rules text the game follows (typed; "variant" in the position file).
enum class Variant {
  kC3,                      // "c3": C2/C3 HiG text (default)
  kC2PrintedAlone,          // "c2-printed-alone": MSG-FN1, the ZMG C2 printing
  kOriginalUnlimitedChain,  // "original-unlimited-chain": MSG-FN15, the C1 chain of messages
  kRevision2025,            // "revision-2025": MSG-C31, one figure per turn
};
std::string_view VariantName(Variant v);
std::optional<Variant> ParseVariant(std::string_view s);

// The disputed items, each with its adopted reading first (the default) and the other one.
// "readings": {"<ruling id>": "<reading name>"} in the position file.
struct Readings {
  bool any_intermediate_stop = false;      // MSG-FN13: "any-intermediate-stop"
  bool any_figure_on_dark = false;         // MSG-Q-MOVED: "any-figure-on-dark"
  bool own_payout = false;                 // MSG-Q-SMALLEST: "own-payout"
  bool return_only_with_majority = false;  // MSG-Q-8-RETURN: "return-only-with-majority"
  bool active_player_only = false;         // MSG-Q-8-TIED: "active-player-only"
  bool any_other_figure_blocks = false;    // MSG-Q-ALONE: "any-other-figure-blocks"
  bool step3_only = false;                 // MSG-Q-OUTSIDE: "step-3-only"
  bool unbounded_chain = false;            // MSG-FN15: "c1-unbounded-chain"
  friend bool operator==(const Readings&, const Readings&) = default;
};

// Where points waiting for their figure came from (MSG-DARK, MSG-SECOND, MSG-Q-OUTSIDE).
enum class Origin { kScoring, kMessage, kOutside };
std::string_view OriginName(Origin o);
std::optional<Origin> ParseOrigin(std::string_view s);

// Points scored and added to the player's score, whose figure the player has yet to choose
// (MSG-CHOOSE). One entry per scoring event: its points go whole to one figure (MSG-SPLIT).
struct Pending {
  PlayerId player = 0;
  int points = 0;
  Origin origin = Origin::kScoring;
  std::string source;  // e.g. "city (completed)"
  friend bool operator==(const Pending&, const Pending&) = default;
};

struct Track {
  std::array<int, kFigures> points = {0, 0};
  bool dame_returned = false;  // MSG-FINAL: after the final sum the dame leaves the track
  friend bool operator==(const Track&, const Track&) = default;
};

// The active player's current turn part (MSG-FN13, MSG-FN19: one scoring round per part).
struct TurnPart {
  int part = 1;                                       // 2, 3, ... after message 4 (MSG-4, MSG-FN6)
  std::array<bool, kFigures> moved = {false, false};  // by non-message points this part
  std::array<bool, kFigures> dark_stop = {false, false};  // some such move stopped on dark
  std::array<bool, kFigures> msg_moved = {false, false};  // by the last message's points
  std::array<bool, kFigures> msg_dark_stop = {false, false};
  // Moved by any points this turn part, messages included (kept when msg_moved is reset for
  // the next message): only for the end-of-part notes (MSG-Q-MOVED, MSG-ONE).
  std::array<bool, kFigures> moved_any = {false, false};
  int taken = 0;  // messages taken this part (MSG-ONE, MSG-SECOND, MSG-FN15)
  friend bool operator==(const TurnPart&, const TurnPart&) = default;
};

class State final : public model::SliceOf<State> {
 public:
  friend bool operator==(const State& a, const State& b) { return a.SameAs(b); }
  bool SameAs(const State& o) const {
    return variant == o.variant && readings == o.readings && numbering == o.numbering &&
           tracks == o.tracks && stack_known == o.stack_known && stack == o.stack &&
           in_hand == o.in_hand && used == o.used && pending == o.pending && part == o.part &&
           turn_figure == o.turn_figure && resolving == o.resolving;
  }

  // Options (typed).
  Variant variant = Variant::kC3;
  Readings readings;
  // MSG-FN15 stated in the file's variants (read before the section's own "variant", which
  // must not contradict it); not part of the game state.
  bool chain_reading_stated = false;
  Numbering numbering = Numbering::kHig;
  // Game state.
  std::vector<Track> tracks;       // per player; empty = everyone on 0 (all scores 0)
  bool stack_known = false;        // the order of the face-down stack is known
  std::vector<Message> stack;      // top first (stack_known only)
  std::optional<Message> in_hand;  // drawn, not yet carried out or sealed
  // Unknown stack order only: the messages used since the order became unknown, oldest first,
  // at most the last 7 (MSG-RESOLVE: a used message goes face down under the stack, so it cannot
  // be drawn again before the other messages).
  std::vector<Message> used;
  std::vector<Pending> pending;
  TurnPart part;
  std::vector<int> turn_figure;  // MSG-C31: per player, the figure moved this turn or -1
  // Transient, during one Apply: awards now come from a message.
  bool resolving = false;

  int Points(PlayerId p, Figure f) const;
  bool DameReturned(PlayerId p) const;
  bool Chain() const {
    return variant == Variant::kOriginalUnlimitedChain || readings.unbounded_chain;
  }
  // Fills tracks/turn_figure to the number of players.
  void Sync(int players);
};

// MSG-RESOLVE: how many used messages lie under an unknown stack and cannot come up next.
inline constexpr int kMaxUsed = kMessages - 1;

// Dark spaces are the multiples of 5; a figure's space is its points mod 50 (MSG-DARK).
inline int Space(int points) { return points % 50; }
inline bool Dark(int points) { return points % 5 == 0; }

}  // namespace carc::exp::messengers

#pragma once
// Actions a player (or chance, for a draw) takes, and what applying them produces:
// a verdict with reasons citing ruling IDs, score events, and notes.

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "model/core/check.h"
#include "model/core/score_event.h"
#include "model/core/tile.h"
#include "model/core/types.h"

namespace carc::model {

enum class ActionType : uint8_t { kDraw, kPlaceTile, kPlaceFigure, kPass, kExpansion };

class Expansion;

// The most arguments a declared action has (a card, its player and five more: a swap card's two
// figures, the other figure's owner and the two figures' kinds). ModuleLoader::AddAction checks
// every declaration against it.
inline constexpr int kMaxActionArgs = 7;

// The arguments of a module's action, stored inline (an action owns no heap memory).
// Their layout and meaning are the action's declaration (ActionDecl::args, module_loader.h); a
// module reads and writes them through typed slots (ActionArg below), not bare indices. A slot
// not set reads -1 (an absent optional argument), so two actions that set the same values are
// equal however they were built; size() is one past the last slot that is not -1.
class ActionArgs {
 public:
  constexpr ActionArgs() { v_.fill(-1); }
  constexpr ActionArgs(std::initializer_list<int> v) : ActionArgs() {
    CARC_CHECK(v.size() <= kMaxActionArgs);
    int i = 0;
    for (int x : v) v_[i++] = x;
  }
  constexpr int size() const {
    int n = kMaxActionArgs;
    while (n > 0 && v_[n - 1] == -1) --n;
    return n;
  }
  constexpr bool empty() const { return size() == 0; }
  constexpr int operator[](int i) const { return v_[i]; }
  const int* begin() const { return v_.data(); }
  const int* end() const { return v_.data() + size(); }
  constexpr void Set(int i, int value) {
    CARC_CHECK(i >= 0 && i < kMaxActionArgs);
    v_[i] = value;
  }
  friend constexpr bool operator==(const ActionArgs&, const ActionArgs&) = default;

 private:
  std::array<int32_t, kMaxActionArgs> v_{};
};

struct Action {
  ActionType type = ActionType::kPass;
  TileType tile = -1;     // kDraw, kPlaceTile (optional check: the tile named)
  Coord pos;              // kPlaceTile; kPlaceFigure when has_pos
  bool has_pos = false;   // kPlaceFigure names the tile it goes on
  Rotation rotation = 0;  // kPlaceTile, quarter turns
  int figure_kind = 0;    // kPlaceFigure
  int segment = -1;       // kPlaceFigure: segment index on the named (or placed) tile
  // kExpansion: the expansion that parses, describes and applies it, its own action code and
  // arguments (declared by the expansion: ActionDecl, read through ActionArg slots).
  const Expansion* expansion = nullptr;
  int code = 0;
  ActionArgs args;
  friend bool operator==(const Action&, const Action&) = default;
};

// A typed argument slot of a module's action, at its index in the declaration (ActionDecl::args):
//   inline constexpr model::ActionArg<Card> kCard{0};  ...  Card c = kCard(a); kCard.Set(a, c);
// An optional argument may be absent (-1): ask Has first (an enum with an 8-bit underlying type
// cannot hold -1), and leave it unset rather than Set it to T(-1).
template <typename T>
struct ActionArg {
  int index;
  constexpr T operator()(const Action& a) const { return static_cast<T>(a.args[index]); }
  constexpr bool Has(const Action& a) const { return a.args[index] >= 0; }
  constexpr void Set(Action& a, T value) const { a.args.Set(index, static_cast<int>(value)); }
};

// One reason in a verdict or explanation; always names the ruling that decided it.
struct Reason {
  std::string ruling;
  std::string text;
};

struct Verdict {
  bool legal = true;
  std::vector<Reason> reasons;
  static Verdict Illegal(std::string ruling, std::string text) {
    return {false, {{std::move(ruling), std::move(text)}}};
  }
};

struct ApplyResult {
  Verdict verdict;
  std::vector<ScoreEvent> scores;
  std::vector<Reason> notes;  // things that happened: figures returned, tiles discarded, ...
  std::string input_error;    // the action does not fit the position (bad input, exit 65)
};

}  // namespace carc::model

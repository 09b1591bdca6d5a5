#pragma once
// Actions a player (or chance, for a draw) takes, and what applying them produces:
// a verdict with reasons citing ruling IDs, score events, and notes.

#include <optional>
#include <string>
#include <vector>

#include "model/core/score_event.h"
#include "model/core/tile.h"
#include "model/core/types.h"

namespace carc::model {

enum class ActionType { kDraw, kPlaceTile, kPlaceFigure, kPass, kExpansion };

class Expansion;

struct Action {
  ActionType type = ActionType::kPass;
  TileType tile = -1;     // kDraw, kPlaceTile (optional check: the tile named)
  Coord pos;              // kPlaceTile; kPlaceFigure when has_pos
  bool has_pos = false;   // kPlaceFigure names the tile it goes on
  Rotation rotation = 0;  // kPlaceTile, quarter turns
  int figure_kind = 0;    // kPlaceFigure
  int segment = -1;       // kPlaceFigure: segment index on the named (or placed) tile
  // kExpansion: the expansion that parses, describes and applies it, its own action code and
  // arguments (meaning defined by the expansion).
  const Expansion* expansion = nullptr;
  int code = 0;
  std::vector<int> args;
  friend bool operator==(const Action&, const Action&) = default;
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

#pragma once
// The core turn steps (base game). Expansions anchor their own steps to these names.

#include <optional>
#include <string_view>
#include <vector>

#include "model/core/check.h"
#include "model/core/position.h"
#include "model/core/step.h"

namespace carc::model {

std::vector<const Step*> CoreSteps();

// The tile step's placements (BASE-PLACE-EDGE, BASE-PLACE-ADJ): may tile `t` go on `c` rotated
// `r` under the constraints the modules declared (PlacementConstraint, hooks.h)? The board's
// own checks are not made here. `why` (optional) receives the first constraint's verdict.
bool ConstraintsAllow(const Position& pos, TileType t, Coord c, Rotation r, Verdict* why = nullptr);
// Every placement of tile `t` (each distinct picture once) that the board and the declared
// constraints accept, in frontier order: the core step's list, and a step that places a tile
// of its own choosing (a second tile in hand) lists through it too.
void ListTilePlacements(const Position& pos, TileType t, std::vector<Action>& out);

// Shared by figure-placing steps (core meeple step, expansion figure steps): may `kind` go on
// segment `segment` of the tile placed this turn? Rules: BASE-MEEPLE-TILE, BASE-MEEPLE-FREE,
// BASE-MEEPLE-SUPPLY. An expansion figure passes the rulings it cites instead.
struct FigureRulings {
  const char* tile = "BASE-MEEPLE-TILE";
  const char* free = "BASE-MEEPLE-FREE";
  const char* supply = "BASE-MEEPLE-SUPPLY";
};
Verdict CheckFigure(const Position& pos, const Action& a, int kind, const FigureRulings& rulings);
void ListFigurePlacements(const Position& pos, int kind, std::vector<Action>& out);
void PlaceFigure(Position& pos, const Action& a);
// Places a figure from `player`'s supply on any segment (expansions that place figures
// elsewhere than on the tile just placed); lying on a field, or where an expansion lays the
// feature's figures down (LaidDownByExpansion), unless `lying` says otherwise.
void PlaceFigureAt(Position& pos, PlayerId player, int kind, int node,
                   std::optional<bool> lying = std::nullopt);
// BASE-MEEPLE-TILE: does an enabled expansion lay down the feature `figure` (an index into
// pos.figures) stands on (the excuse hook, Excuse::kLaidDown)?
bool LaidDownByExpansion(const Position& pos, int figure);
// Turn bookkeeping shared by steps: has pipeline step `step` (an index: GameConfig::core_step,
// GameConfig::own_step, IndexOf) been decided this turn? -1 (a step not in the pipeline): never.
// Inline, as steps ask them at every decision.
inline bool Decided(const Position& pos, int step) {
  return step >= 0 && (pos.turn.decided & (1u << step));
}
inline void MarkDecided(Position& pos, int step) {
  CARC_DCHECK(step >= 0);
  pos.turn.decided |= 1u << step;
}
// The index of `step` in pos's pipeline (-1: not in it). The step asked is usually the current
// one (its NeedsDecision, from Advance and the legal list): its index is then pos.turn.step,
// without a search.
inline int IndexOf(const Position& pos, const Step& step) {
  const auto& pipeline = pos.cfg().pipeline;
  const size_t cur = static_cast<size_t>(pos.turn.step);
  if (cur < pipeline.size() && pipeline[cur] == &step) return static_cast<int>(cur);
  return pos.cfg().IndexOf(&step);
}
// Figures of `kind` placed this turn.
int PlacedThisTurn(const Position& pos, int kind);

}  // namespace carc::model

#pragma once
// Whole-board symmetries of a position file: translation by (dx, dy) and a quarter turn
// clockwise (every coordinate rotated, every tile rotated +90). Neither may change legality or
// scores. Also: a key that identifies an action up to equivalent rotations (one picture).

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/core/action.h"
#include "model/core/position.h"

namespace carc::prop {

struct BoardTransform {
  int quarter_turns = 0;  // clockwise, applied first
  int dx = 0, dy = 0;     // then translated
  model::Coord Apply(model::Coord c) const;
};

// The position file with every coordinate, tile rotation and feature name transformed.
nlohmann::json TransformPosition(const nlohmann::json& pos, const BoardTransform& t);
// An action of the original position as an action of the transformed one.
model::Action TransformAction(const model::Action& a, const BoardTransform& t);
// The same for any action: an expansion's action goes through its position-file form (every
// square and feature it names transformed) and is read back in the transformed position `to`.
model::Action TransformAction(const model::Position& from, const model::Action& a,
                              const model::Position& to, const BoardTransform& t);

// "road:EW" turned a quarter clockwise is "road:NS" (board-orientation names).
std::string RotateFeatureName(const std::string& name, int quarter_turns);

// What a rotated tile looks like (edges and segments), independent of which rotation of a
// symmetric tile gave it.
std::string Picture(const model::RotatedTile& rt);
// An action as what it does: place_tile as square + picture, figures as square + kind + segment.
std::string ActionKey(const model::Position& pos, const model::Action& a);
std::vector<std::string> ActionKeys(const model::Position& pos,
                                    const std::vector<model::Action>& actions);

// A strict order on actions over every field operator== compares.
bool ActionLess(const model::Action& x, const model::Action& y);
// Sorts both lists (ActionLess) and takes out the actions they hold in common, as multisets
// (an action twice in one and once in the other stays once). Two lists have the same multiset of
// keys, for a key that is a function of the action alone (in one position, or in two positions
// where it reads the same), exactly when what is left has: the common actions add equal keys to
// both sides. The soak's list comparisons key only what is left.
void CancelCommon(std::vector<model::Action>& x, std::vector<model::Action>& y);

}  // namespace carc::prop

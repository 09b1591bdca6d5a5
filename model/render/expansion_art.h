#pragma once
// The expansions' state drawn beside the board (model/render/svg.cc's legend column), as each
// module describes it (its describe-state hook, model/core/state_picture.h); a module without
// that hook is listed as the keys and values of its section. Internal to model/render.

#include <set>
#include <string>

#include "model/core/position.h"

namespace carc::render {

// Everything the enabled expansions hold, drawn from (x, y) downwards in a column 300 px wide;
// y is advanced past it. Players are named, never numbered.
std::string ExpansionLegend(const model::Position& pos, double x, double& y);

// Feature roots of the figures that lie because an expansion laid their feature down
// (model::LaidDownByExpansion; Christmas Present's lay-down cards, XMAS-FN11).
std::set<int> LaidDownRoots(const model::Position& pos);

}  // namespace carc::render

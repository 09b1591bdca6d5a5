#pragma once
// The expansions' state drawn beside the board (model/render/svg.cc's legend column): gift and
// Christmas cards as named cards per player, decks and the message stack as face-down piles with
// their counts, the Messengers scoring track. Internal to model/render.

#include <set>
#include <string>
#include <vector>

#include "model/core/position.h"

namespace carc::render {

// Everything the enabled expansions hold, drawn from (x, y) downwards in a column 300 px wide;
// y is advanced past it. Players are named, never numbered.
std::string ExpansionLegend(const model::Position& pos, double x, double& y);

// Feature roots of the figures that lie because an expansion laid their feature down
// (model::LaidDownByExpansion; Christmas Present's lay-down cards, XMAS-FN11).
std::set<int> LaidDownRoots(const model::Position& pos);

// A card's name as printed in the picture: "road_sweeper" -> "Road Sweeper", "3-per-arms" ->
// "3 per arms".
std::string CardTitle(const std::string& name);

}  // namespace carc::render

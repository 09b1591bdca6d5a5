#pragma once
// Shrinking a disagreement to a local minimum: no single expansion, player, tile, figure or
// draw-order tile can be removed (and no score zeroed) while a disagreement of the same
// category and with a ruling in common remains and the position stays valid.

#include <functional>
#include <vector>

#include "adjudicator/conform/compare.h"

namespace carc::adjudicator::conform {

// Asks the engine and the reference; error: the engine failed (exit 74).
using Oracle = std::function<model::StatusOr<std::vector<Finding>>(const Query&)>;

struct Shrunk {
  Query query;
  Finding finding;
  int tries = 0;
  bool local_minimum = false;  // false: the budget ran out first
};

model::StatusOr<Shrunk> Shrink(const Query& q, const Finding& target, const Oracle& ask,
                               int budget);

// The size an example is ordered by (smallest first): tiles, players, figures, draw order,
// expansions.
std::vector<size_t> SizeOf(const Query& q);

// The expansions a position enables, from its rules.
std::vector<std::string> ExpansionsOf(const nlohmann::json& position);

}  // namespace carc::adjudicator::conform

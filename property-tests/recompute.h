#pragma once
// From-scratch recomputation of the features of a board, to compare with the model's
// incremental union-find: (1) an independent flood fill over tile segments that uses only the
// tile table, and (2) the model's own Board rebuilt by placing the same tiles in another order
// (breadth first from another tile), for final scores.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "model/core/position.h"

namespace carc::prop {

// The position with its board rebuilt by placing the tiles breadth first from tile `root`
// (figures and the placed tile re-indexed).
model::Position RebuildBoard(const model::Position& pos, int root);

// Four comparisons, in this order, on one flood fill and one reading of the model's features:
// - kFeatures: the model's features (partition of segments, kind, completed, distinct tiles,
//   coats of arms, cities touched by fields) equal the flood fill's;
// - kFinalScoring: an independent rule oracle on the flood fill (C3 rules, standard options):
//   final scoring (BASE-END-ROAD/-CITY/-MONASTERY/-FARM, BASE-MAJORITY) of a copy of the
//   position equals the model's ScoreFinal, per player;
// - kFigurePlacements: at a figure step, every listed figure goes on a feature with no figure in
//   it, and (meeple step, meeple in supply) every such segment of the placed tile is listed
//   (BASE-MEEPLE-FREE);
// - kRebuilt (when the board has a tile): the position file with its board listed breadth first
//   from tile `root` (in range) reads back with the same feature partition, completed features,
//   figure-holding features and final scores.
// `file`, when given, is DumpPosition(pos) (shared with the round trip; borrowed and restored).
// nullopt: all agree; else the first difference and which comparison gave it (CheckFeatures).
struct FeatureDifference {
  enum Which { kFeatures, kFinalScoring, kFigurePlacements, kRebuilt } which;
  std::string message;
};
std::optional<FeatureDifference> CompareAllFeatures(const model::Position& pos, int root,
                                                    nlohmann::json* file = nullptr);

}  // namespace carc::prop

#pragma once
// From-scratch recomputation of the features of a board, to compare with the model's
// incremental union-find: (1) an independent flood fill over tile segments that uses only the
// tile table, and (2) the model's own Board rebuilt by placing the same tiles in another order
// (breadth first from another tile), for final scores.

#include <optional>
#include <string>

#include "model/core/position.h"

namespace carc::prop {

// Compares the model's features (partition of segments, kind, completed, distinct tiles, coats
// of arms, cities touched by fields) with a flood fill. nullopt: they agree; else the first
// difference.
std::optional<std::string> CompareFeatures(const model::Position& pos);

// Independent rule oracles on the flood-fill features (C3 rules, standard options):
// final scoring (BASE-END-ROAD/-CITY/-MONASTERY/-FARM, BASE-MAJORITY) of a copy of the position
// compared with the model's ScoreFinal, per player ...
std::optional<std::string> CompareFinalScoring(const model::Position& pos);
// ... and at a figure step, every listed figure goes on a feature with no figure in it, and (meeple
// step, meeple in supply) every such segment of the placed tile is listed (BASE-MEEPLE-FREE).
std::optional<std::string> CompareFigurePlacements(const model::Position& pos);

// The position with its board rebuilt by placing the tiles breadth first from tile `root`
// (figures and the placed tile re-indexed).
model::Position RebuildBoard(const model::Position& pos, int root);

// Compares `pos` with RebuildBoard(pos, root): same feature partition, same completed features,
// same figure-holding features, same final scores. nullopt: they agree.
std::optional<std::string> CompareRebuilt(const model::Position& pos, int root);

// The four comparisons above in that order (CompareRebuilt from tile `root`, in range, when the
// board has a tile), the flood fill and the model's features computed once for all of them
// (CheckFeatures). nullopt: all agree; else the first difference and which comparison gave it.
struct FeatureDifference {
  enum Which { kFeatures, kFinalScoring, kFigurePlacements, kRebuilt } which;
  std::string message;
};
std::optional<FeatureDifference> CompareAllFeatures(const model::Position& pos, int root);

}  // namespace carc::prop

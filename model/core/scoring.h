#pragma once
// Scoring of features: during the game (completed) and at the end (final), with breakdowns.

#include <vector>

#include "model/core/action.h"
#include "model/core/position.h"

namespace carc::model {

// Majority among the figures in a feature (BASE-MAJORITY): strength per player and winners.
void Majority(const Position& pos, const std::vector<int>& figure_ids, ScoreEvent& ev);

// Scores a completed road, city or monastery and returns its figures (BASE-SCORE-*,
// BASE-MAJORITY, BASE-RETURN). No event if no figure stands in it.
void ScoreCompleted(Position& pos, int root, ApplyResult& out);

// Final scoring of every unfinished feature and every farm (BASE-END-*, BASE-END-FARM).
void FinalScoring(Position& pos, std::vector<ScoreEvent>& out);

// Sends the given figures back to their owners' supplies (BASE-RETURN).
void ReturnFigures(Position& pos, std::vector<int> figure_ids);

}  // namespace carc::model

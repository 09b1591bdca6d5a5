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

// Adds points to a player, unless an expansion takes them over (Expansion::InterceptAward).
// Every source of points goes through here.
void AwardPoints(Position& pos, const ScoreEvent& ev, PlayerId player, int points);
// Awards ev.points to each of ev.winners.
void Award(Position& pos, const ScoreEvent& ev);

// The value of a road, city or monastery as at final scoring, with its majority (no points
// are awarded): for expansions that score "as at game end" (BASE-END-*).
ScoreEvent FinalValue(const Position& pos, int root);

}  // namespace carc::model

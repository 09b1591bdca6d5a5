#pragma once
// Scoring of features: during the game (completed) and at the end (final), with breakdowns.

#include <optional>
#include <string>
#include <vector>

#include "model/core/action.h"
#include "model/core/position.h"

namespace carc::model {

// Majority among the figures in a feature (BASE-MAJORITY): strength per player and winners.
void Majority(const Position& pos, const std::vector<int>& figure_ids, ScoreEvent& ev);
// What the modules say may adjust the majority of feature `root` (Expansion::
// MajorityAdjustmentsOn), in registry order.
std::vector<MajorityAdjustment> MajorityAdjustmentsOn(const Position& pos, int root);

// Scores a completed road, city or monastery and returns its figures (BASE-SCORE-*,
// BASE-MAJORITY, BASE-RETURN). No event if no figure stands in it.
void ScoreCompleted(Position& pos, int root, ApplyResult& out);

// Final scoring of every unfinished feature and every farm (BASE-END-*, BASE-END-FARM).
void FinalScoring(Position& pos, std::vector<ScoreEvent>& out);

// Sends the given figures back to their owners' supplies (BASE-RETURN).
void ReturnFigures(Position& pos, std::vector<int> figure_ids);

// Adds points to a player, unless an expansion takes them over (the intercept-award hook, hooks.h).
// Every source of points goes through here.
void AwardPoints(Position& pos, const ScoreEvent& ev, PlayerId player, int points);
// Awards each of ev.winners what the event states (ScoreEvent::Receives), through AwardPoints.
void Award(Position& pos, const ScoreEvent& ev);

// A road, city or monastery `root` was scored during the game and its figures leave it: completed
// (the core's scoring step, also when a module keeps the figures and pays at game end), or
// scored early by a module "as at game end" with every figure returned (e.g. by a card). Tells
// the modules (the feature-scored hook, hooks.h), so that what lasts "until the feature is scored"
// ends here. A scoring that leaves the figures on an open feature (a message) is not one.
void FeatureScored(Position& pos, int root, ApplyResult& out);

// Evidence for verdicts. BASE-FEATURE-JOIN: a feature is everything joined across
// tile edges, so a road stops at a junction, a monastery or a city gate, and is open at an edge
// with no neighbour; a city is open at each city edge with no neighbour.
std::vector<FeatureEnd> FeatureEnds(const Position& pos, int root);
// Every city a field touches (BASE-END-FARM: only the completed ones are paid).
std::vector<CitySeen> TouchedCities(const Position& pos, int field_root);
std::vector<FigureSeen> FiguresSeen(const Position& pos, const std::vector<int>& figure_ids);
// Texts: "(1, 0)"; "(0, 0), (1, 0)"; "Anna's thief at (0, 0)"; "the junction at (1, 0)",
// "an open edge on the E side of (2, 0)" or, on a partial board, "the edge of the stated board
// at (2, 0) on the E side".
std::string CoordText(Coord c);
std::string CoordsText(const std::vector<Coord>& cs);
std::string FigureText(const Position& pos, const FigureSeen& f);
// The same for a figure known to stand on a feature of kind `on` (a scored feature's figures,
// which may have left the board since): "Anna's knight at (0, 0)".
std::string FigureTextAs(const Position& pos, const FigureSeen& f, std::optional<FeatureKind> on);
// "thief", "knight", "farmer", "monk": the role of a figure on a feature of that kind.
std::string RoleName(FeatureKind on);
// A figure of `kind` named by its role on a feature of kind `on`: a meeple is "knight", any
// other figure "<kind> knight".
std::string FigureRole(const Position& pos, int kind, FeatureKind on);
std::string EndText(const FeatureEnd& e);
// "the road through (1, 0), (2, 0) (it ends at the junction at (1, 0) and an open edge on the
// E side of (2, 0))": a feature as a legality reason names it (BASE-MEEPLE-FREE).
std::string FeatureText(const Position& pos, int root);

// "Anna's thief at (0, 0) is on another road, which ends at the junction at (1, 0)": the
// figures on features of the same kind that share a tile with the feature `root` but are not
// joined to it, each with where they part ("" if none): why a figure nearby does not make
// `root` occupied (BASE-MEEPLE-FREE).
std::string NearbyFiguresText(const Position& pos, int root);

// The roads, cities and monasteries the tile placed this turn completed that hold a figure and
// that the turn's step score has not scored yet (empty when no tile lies placed, or the turn is
// past that step): what final scoring in the middle of a turn would value as unfinished
// (BASE-SCORE-TIMING: they are scored at the end of the turn, as completed).
std::vector<int> CompletedNotYetScored(const Position& pos);

// The value of a road, city or monastery as at final scoring, with its majority (no points
// are awarded): for expansions that score "as at game end" (BASE-END-*).
ScoreEvent FinalValue(const Position& pos, int root);

// The value of the farm `farm_root` as at final scoring, scored on its own under the game's
// farm_scoring (no points are awarded), for expansions that score a farm "as at game end":
// BASE-END-FARM and BASE-END-FARM-C1-ONCE: one event, 3 per completed city the farm touches, to
// the majority of its farmers (the "once" matters only between the farms of one final scoring);
// BASE-END-FARM-C1-4PT: per completed city the farm touches, the event final scoring gives that
// city (4 points to the majority of the farmers of every farm touching it, rooted at the city);
// touching none, one event worth 0 with the majority of the farm's farmers.
std::vector<ScoreEvent> FarmFinalValues(const Position& pos, int farm_root);

}  // namespace carc::model

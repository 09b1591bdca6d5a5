#pragma once
// board_partial (adjudicator/POSITION_FORMAT.md, "Only the part that matters"): the file states
// only part of the table. A square without a stated tile lies beyond the stated board: it may
// hold a tile the file leaves out, and the figures a player owns that are neither in supply nor
// on the stated tiles may stand there. What the stated tiles decide is judged exactly; an
// answer that depends on the rest is refused, naming what is missing (strictness: the model
// never guesses the table). A square in board_empty is stated too: known to hold no tile, so a
// feature with a side towards it is open there and a placement next to it has no edge to
// match. The checks below return "" when the stated part decides, else a sentence saying what
// it depends on.

#include <optional>
#include <string>
#include <vector>

#include "model/core/action.h"
#include "model/core/position.h"

namespace carc::model {

// The first place where a feature reaches the edge of the stated board: a side of a road or
// city, or a half-edge of a field, facing a square neither holding a stated tile nor known
// empty (what "stated edge", the tile and the side); for a monastery the first of its eight
// squares not stated (what "stated edge", that square, side -1). nullopt: enclosed by stated
// tiles and squares known empty. Looks at the board only: callers check board_partial.
std::optional<FeatureEnd> StatedEdge(const Position& pos, int root);

// "Anna has 2 meeples neither in supply nor on the stated board" (the first such player and
// figure kind): figures that may stand beyond the stated board. "" when every figure is stated.
std::string FiguresBeyond(const Position& pos);

// Why the outcome of a feature (completed or not, its size, the completed cities a field
// touches) depends on the unstated part, e.g. "the road through (1, 0), (2, 0) reaches the edge
// of the stated board at (2, 0) on the E side". "" when the stated tiles decide it.
std::string FeatureBeyond(const Position& pos, int root);

// The questions. `legal`: a tile may go next to any tile the file leaves out.
std::string PartialLegalList(const Position& pos);
// Why an action cannot be judged on a partial board ("" when it can). `scoring_only`: the action
// itself is judged, but whether the turn's scoring completes a feature is not (a claim about
// legality alone is still answered; one about the scores is not).
struct PartialWhy {
  std::string why;
  bool scoring_only = false;
};
// An action as judged on `before` (result r), `after` the position it left, turn unfinished.
// Rules: BASE-PLACE-ADJ, BASE-PLACE-EDGE (the squares next to a placed tile), BASE-MEEPLE-FREE
// (figures beyond), BASE-SCORE-TIMING (completed this turn or not).
PartialWhy PartialAction(const Position& before, const Action& a, const ApplyResult& r,
                         const Position& after);
// What a run of the turn produced on `after` (tiles set aside as unplaceable, final scoring):
// BASE-PLACE-UNPLACEABLE, BASE-END-*.
std::string PartialRun(const Position& after, const ApplyResult& run);
// Final scoring of the position as it stands (BASE-END-*): scored on a copy, then each score
// event's feature and the figures beyond are checked.
std::string PartialFinalScoring(const Position& pos);

}  // namespace carc::model

#pragma once
// How a feature runs across its tiles, for the texts of verdicts: the order of its tiles along
// it and the way from one of its segments to another. The rules do not use these (a feature is
// a set of joined segments, board.h); only explanations do, so nothing here is kept between
// calls.

#include <string>
#include <vector>

#include "model/core/position.h"
#include "model/core/score_event.h"

namespace carc::model {

// The segments (Board::Node) of feature `root` in order along it: from an end (a road's end or
// open edge, a city's open edge; the first in the order the tiles were laid; else the segment
// laid first), each next one joined across a tile edge to one before it (depth first, sides
// N E S W). A road that does not branch comes out from end to end.
std::vector<int> FeatureWalk(const Position& pos, int root);

// The tiles of feature `root` in the order of FeatureWalk, each once.
std::vector<Coord> FeatureTilesAlong(const Position& pos, int root);

// The shortest chain of joined segments from node `from` to node `to` (both of one feature),
// both included; {from} when they are the same node.
std::vector<int> FeaturePath(const Position& pos, int from, int to);

// What a road stopping on this tile stops at: "monastery", "junction", "city" or "end"
// (BASE-FEATURE-JOIN: a road stops at a junction, a monastery or a city gate).
std::string RoadStopName(const RotatedTile& rt);

// How segment `from` is joined to segment `to` of the same feature, named `from_text` and
// `to_text` (e.g. a figure): "from (1, 0) the field runs through (0, 0) field:ER.SL.SR.WL and
// (-1, 0) to Anna's farmer at (0, 0) field:EL.NL.NR.WR, passing around the end of the road at
// the monastery (-1, 0)". A tile that holds two segments of the kind is named with the
// segment. The same node: "<to_text> stands on this very road (road:EW of (1, 0))".
std::string ConnectionText(const Position& pos, int from, int to, const std::string& from_text,
                           const std::string& to_text);

// How segment `node` is joined to the figure of its feature nearest along it, `from_text`
// naming the segment: ConnectionText to that figure (FigurePlaceText); "" if the feature holds
// none.
std::string ConnectionToNearestFigure(const Position& pos, int node, const std::string& from_text);

// The square of a segment, with the segment's name where its tile holds another segment of
// the same kind: "(0, 0)", "(0, 0) field:EL.NL.NR.WR".
std::string SegmentPlaceText(const Position& pos, int node);
// A figure with the same: "Anna's farmer at (0, 0) field:EL.NL.NR.WR".
std::string FigurePlaceText(const Position& pos, int figure);
// The same for a figure seen on a scored feature, which may have gone home since.
std::string FigurePlaceText(const Position& pos, const FigureSeen& f);

}  // namespace carc::model

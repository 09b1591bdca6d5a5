#pragma once
// A scoring of one feature (or one other source of points) with its breakdown, and the evidence a
// reader checks it with. Split from action.h so that the scoring record and the action record
// can change apart.

#include <string>
#include <vector>

#include "model/core/types.h"

namespace carc::model {

// Evidence a reader checks a verdict with (issue 16): a figure counted, where a road or city
// ends, a city a field touches.
struct FigureSeen {
  PlayerId owner = 0;
  int kind = 0;  // figure kind id
  Coord at;      // the tile it stands on
};
struct FeatureEnd {
  std::string what;  // "junction", "monastery", "city", "open edge"
  Coord at;          // the tile where it ends
  int side = -1;     // open edge: the side (0..3 = N E S W) with no neighbour
};
struct CitySeen {
  std::vector<Coord> tiles;  // distinct tiles, in placement order
  bool completed = false;
};

// A scoring of one feature (or one other source of points), with its breakdown.
struct ScoreEvent {
  std::string cause;  // "completed", "final", or an expansion's cause
  FeatureKind kind = FeatureKind::kRoad;
  int root = -1;             // feature root node at the time, -1 if not a feature
  std::vector<Coord> tiles;  // distinct tiles of the feature
  int shields = 0;
  int cities = 0;                 // field: completed cities counted
  std::vector<int> strength;      // per player: figures counted for majority
  std::vector<PlayerId> winners;  // players who score
  int points = 0;                 // to each winner
  std::string formula;            // e.g. "2 x 4 tiles + 2 x 1 coat of arms"
  std::vector<std::string> rulings;
  std::vector<FigureSeen> figures;      // the figures counted for the majority
  std::vector<FeatureEnd> ends;         // road, city: where it ends (none: closed loop/city)
  std::vector<CitySeen> touched_cities;  // field: every city it touches
  // Per winner (same order): the points each actually receives where an expansion splits the
  // value between them; empty: each winner receives `points`.
  std::vector<int> receives;
};

}  // namespace carc::model

#pragma once
// A scoring of one feature (or one other source of points) with its breakdown, and the evidence a
// reader checks it with. Split from action.h so that the scoring record and the action record
// can change apart.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/types.h"

namespace carc::model {

// Evidence a reader checks a verdict with: a figure counted, where a road or city
// ends, a city a field touches.
struct FigureSeen {
  PlayerId owner = 0;
  int kind = 0;   // figure kind id
  Coord at;       // the tile it stands on
  int node = -1;  // the segment it stands on (still named after a completed feature sent it home)
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

// Why points were scored: the core's two causes, or a module's own cause with the
// module whose rule gives the points. Code compares causes, never their spelling; the spelling
// is only for output (CauseName). Trivially copyable, no heap: a module names itself and its
// cause with static strings (its kId and a literal), see a module's MakeCause.
struct ScoreCause {
  enum class Kind : uint8_t {
    kNone,       // an event built only to compute a majority (spelled "")
    kCompleted,  // a feature completed during the game (BASE-SCORE-*)
    kFinal,      // final scoring (BASE-END; a module may give final points of its own)
    kModule,     // a module's own cause: `module` and its `code`
  };
  Kind kind = Kind::kNone;
  uint8_t code = 0;         // kModule: the module's own cause enum
  std::string_view module;  // the module whose rule gives the points (its Id()); empty: the core
  std::string_view name;    // kModule: the spelling in position files and verdicts

  static constexpr ScoreCause Completed() { return {Kind::kCompleted, 0, {}, {}}; }
  // Final scoring; `module` names the module when the final points are its own.
  static constexpr ScoreCause Final(std::string_view module = {}) {
    return {Kind::kFinal, 0, module, {}};
  }
  static constexpr ScoreCause Module(std::string_view module, uint8_t code, std::string_view name) {
    return {Kind::kModule, code, module, name};
  }
  bool IsCompleted() const { return kind == Kind::kCompleted; }
  // Any final scoring, the core's or a module's.
  bool IsFinal() const { return kind == Kind::kFinal; }
  // Same kind, module and code (the spelling is not compared).
  friend constexpr bool operator==(const ScoreCause& a, const ScoreCause& b) {
    return a.kind == b.kind && a.code == b.code && a.module == b.module;
  }
};

// The spelling of a cause in position files and verdicts: "completed", "final", a module's name,
// or "" (kNone). The output boundary only (DumpScoreEvent, verdict text).
constexpr std::string_view CauseName(const ScoreCause& c) {
  switch (c.kind) {
    case ScoreCause::Kind::kNone:
      return "";
    case ScoreCause::Kind::kCompleted:
      return "completed";
    case ScoreCause::Kind::kFinal:
      return "final";
    case ScoreCause::Kind::kModule:
      return c.name;
  }
  return "";
}

// A scoring of one feature (or one other source of points), with its breakdown.
struct ScoreEvent {
  ScoreCause cause;  // Completed(), Final() or a module's cause
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
  std::vector<FigureSeen> figures;       // the figures counted for the majority
  std::vector<FeatureEnd> ends;          // road, city: where it ends (none: closed loop/city)
  std::vector<CitySeen> touched_cities;  // field: every city it touches
  // Per winner (same order): the points each actually receives where an expansion splits the
  // value between them; empty: each winner receives `points`.
  std::vector<int> receives;

  // Whether the event states one amount per winner (an expansion split the value).
  bool StatesShares() const { return !receives.empty() && receives.size() == winners.size(); }
  // What winner number i receives: receives[i] when the event states shares, else `points`.
  int Receives(size_t i) const { return StatesShares() ? receives[i] : points; }
  // What player p receives of this event: Receives for a winner, 0 for anyone else.
  int ReceivesOf(PlayerId p) const {
    for (size_t i = 0; i < winners.size(); ++i)
      if (winners[i] == p) return Receives(i);
    return 0;
  }
};

}  // namespace carc::model

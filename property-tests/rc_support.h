#pragma once
// RapidCheck generators and failure reporting for the property tests (test executables only:
// the static RapidCheck library is not PIC). Include <gtest/gtest.h> before this header.

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/core/position_io.h"
#include "property-tests/checks.h"
#include "property-tests/gen_game.h"

namespace carc::prop {

// Shown by RapidCheck in a counterexample.
inline void showValue(const GameSpec& s, std::ostream& os) { os << SpecJson(s).dump(); }

// A game for the given expansion combinations and 2-6 players. Picks and choices are lists that
// RapidCheck shortens and lowers when it shrinks; with the default max size of 100 the longer
// games use all 71 tiles. `max_tiles` caps the draw order for costly properties.
inline rc::Gen<GameSpec> GenSpec(std::vector<std::vector<std::string>> combos, int max_tiles = 71) {
  return rc::gen::map(
      rc::gen::tuple(
          rc::gen::inRange(2, 7), rc::gen::elementOf(combos),
          rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 71)),
          rc::gen::scale(3.0, rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 1000)))),
      [max_tiles](
          const std::tuple<int, std::vector<std::string>, std::vector<int>, std::vector<int>>& t) {
        GameSpec s;
        s.players = std::get<0>(t);
        s.expansions = std::get<1>(t);
        s.picks = std::get<2>(t);
        if (static_cast<int>(s.picks.size()) > max_tiles) s.picks.resize(max_tiles);
        s.choices = std::get<3>(t);
        return s;
      });
}

// Every combination of the landed expansions (base alone, base + phantom, ...).
inline rc::Gen<GameSpec> GenAnySpec(int max_tiles = 71) {
  return GenSpec(ExpansionCombinations(), max_tiles);
}

// Index of a decision in a game ("a legal position at any step"); reduced modulo the length.
inline rc::Gen<int> GenStep() { return rc::gen::inRange(0, 1 << 16); }

inline rc::Gen<std::vector<RawAction>> GenRawActions() {
  return rc::gen::container<std::vector<RawAction>>(rc::gen::map(
      rc::gen::tuple(rc::gen::inRange(0, 5), rc::gen::inRange(0, 100), rc::gen::inRange(0, 100),
                     rc::gen::inRange(0, 4), rc::gen::inRange(0, 10), rc::gen::inRange(0, 10),
                     rc::gen::inRange(0, 3)),
      [](const std::tuple<int, int, int, int, int, int, int>& t) {
        return RawAction{std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t),
                         std::get<4>(t), std::get<5>(t), std::get<6>(t)};
      }));
}

// On failure: writes the position file (the last failing call is the shrunk counterexample) to
// $CARC_COUNTEREXAMPLE_DIR (default: the working directory), logs it and fails the property.
inline void Report(const std::optional<Failure>& f, const GameSpec& spec) {
  if (!f) return;
  const char* dir = std::getenv("CARC_COUNTEREXAMPLE_DIR");
  std::string path = std::string(dir ? dir : ".") + "/" + f->property + ".position.json";
  std::ofstream(path) << f->position.dump(2) << "\n";
  RC_LOG() << "game spec: " << SpecJson(spec).dump() << "\n";
  if (!f->action.is_null()) RC_LOG() << "action: " << f->action.dump() << "\n";
  RC_LOG() << "position file (also written to " << path << "):\n" << f->position.dump(2) << "\n";
  RC_FAIL(f->property + ": " + f->message);
}

// Plays the spec; fails the property if the playout itself breaks.
inline Game PlayOrFail(const GameSpec& spec) {
  Game g = Playout(spec);
  Report(CheckPlayout(g), spec);
  RC_TAG(spec.expansions.empty() ? std::string("base") : SpecJson(spec)["expansions"].dump());
  return g;
}

}  // namespace carc::prop

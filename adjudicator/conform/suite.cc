// The suite: queries from the fixtures, from seeded random games (the property tests'
// generators, every expansion combination the engine declares), or from a folder of case files.
#include <algorithm>
#include <filesystem>
#include <random>

#include "adjudicator/conform/checker.h"
#include "adjudicator/conform/compare.h"
#include "adjudicator/conform/shrink.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "property-tests/gen_game.h"

namespace carc::adjudicator::conform {

namespace fs = std::filesystem;
using model::Position;
using nlohmann::json;

namespace {

// The legal query for a position, and final scoring when the game is over or at its end.
void AddPositionQueries(const Position& pos, const std::string& source, std::vector<Query>& out) {
  json pj = model::DumpPosition(pos);
  auto exps = ExpansionsOf(pj);
  if (!pos.turn.game_over) out.push_back({"legal", pj, json(), source, exps});
  if (pos.turn.game_over || pos.supply.total() == 0)
    out.push_back({"final_score", pj, json(), source, exps});
}

void FixtureQueries(const std::string& source, const json& doc, std::vector<Query>& out) {
  json position = doc;
  json question = position.value("question", json());
  position.erase("question");
  position.erase("meta");
  auto pos = ReadQueryPosition(position, source);
  if (!pos.ok() || !model::Validate(*pos).empty()) return;
  AddPositionQueries(*pos, source, out);
  if (!question.is_object() || question.value("ask", "") != "apply") return;
  auto ctx = exp::Context(source);
  for (const json& aj : question.value("actions", json::array())) {
    if (pos->turn.game_over) break;
    auto a = model::ParseAction(aj, *pos, "/question/actions", ctx);
    if (!a.ok()) break;
    json pj = model::DumpPosition(*pos);
    json action = model::DumpAction(*pos, *a);
    model::ApplyResult r = model::Apply(*pos, *a);
    // An action that only makes sense inside an open turn (a second meeple) is not a protocol
    // query: the protocol always runs the turn on to the next decision.
    if (!r.input_error.empty()) break;
    out.push_back({"apply", pj, action, source, ExpansionsOf(pj)});
    if (!r.verdict.legal) break;
    AddPositionQueries(*pos, source, out);
  }
}

// Random position i: a game of the property tests' generator with a short random draw order,
// stopped at a random decision; its legal list, the action the game took there, two other
// listed actions, and final scoring.
void RandomQueries(uint32_t seed, int i, const std::vector<std::string>& combo,
                   std::vector<Query>& out) {
  std::mt19937_64 rng(seed * 1000003ull + static_cast<uint64_t>(i));
  prop::GameSpec spec = prop::RandomSpec(rng, combo);
  spec.picks.resize(1 + rng() % 40);
  prop::Game game = prop::Playout(spec, /*keep_positions=*/true);
  if (!game.error.empty() || game.before.empty()) return;
  const size_t k = rng() % (game.before.size() + 1);
  const Position& pos = k < game.before.size() ? game.before[k] : game.final_pos;
  const std::string source = "random seed " + std::to_string(seed) + " #" + std::to_string(i);
  AddPositionQueries(pos, source, out);
  if (pos.turn.game_over) return;
  json pj = model::DumpPosition(pos);
  auto exps = ExpansionsOf(pj);
  std::vector<model::Action> acts;
  if (k < game.actions.size()) acts.push_back(game.actions[k]);
  auto legal = model::LegalActions(pos);
  for (int n = 0; n < 2 && !legal.empty(); ++n) acts.push_back(legal[rng() % legal.size()]);
  for (const auto& a : acts) out.push_back({"apply", pj, model::DumpAction(pos, a), source, exps});
  out.push_back({"final_score", pj, json(), source, exps});
}

}  // namespace

model::StatusOr<std::vector<Query>> BuildSuite(
    const SuiteOptions& opts, const std::vector<std::vector<std::string>>& combos) {
  if (!opts.rerun.empty()) return LoadCases(opts.rerun);
  std::vector<Query> out;
  fs::path dir = fs::path(opts.root) / "fixtures";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return model::Status(model::ErrorCode::kNoInput,
                         dir.string() + ": no fixtures folder (use --root)");
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    std::string n = e.path().filename().string();
    if (n.size() > 14 && n.substr(n.size() - 14) == ".position.json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    auto doc = model::ReadJsonFile(f.string());
    // The source names the file relative to the checkout, never a build machine's path. A
    // board_partial fixture is left out: the protocol states whole boards only.
    if (doc.ok() && doc->is_object() && doc->value("board_partial", json()) != json(true))
      FixtureQueries(fs::relative(f, opts.root, ec).generic_string(), *doc, out);
  }
  const std::vector<std::vector<std::string>> base = {{}};
  const auto& cs = combos.empty() ? base : combos;
  for (int i = 0; i < opts.random; ++i) RandomQueries(opts.seed, i, cs[i % cs.size()], out);
  return out;
}

std::vector<std::vector<std::string>> DeclaredCombinations(const Declared& d) {
  std::vector<std::string> ids;
  for (const std::string& id : exp::Ids())  // registry order
    if (d.expansions.count(id)) ids.push_back(id);
  std::vector<std::vector<std::string>> out;
  for (uint32_t mask = 0; mask < (1u << ids.size()); ++mask) {
    std::vector<std::string> c;
    for (size_t b = 0; b < ids.size(); ++b)
      if (mask & (1u << b)) c.push_back(ids[b]);
    out.push_back(c);
  }
  return out;
}

}  // namespace carc::adjudicator::conform

// The suite: queries from the fixtures, from seeded random games (random_game.h, every
// expansion combination the engine declares), or from a folder of case files.
#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <optional>
#include <random>

#include "adjudicator/conform/checker.h"
#include "adjudicator/conform/compare.h"
#include "adjudicator/conform/random_game.h"
#include "adjudicator/conform/shrink.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/core/step.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator::conform {

namespace fs = std::filesystem;
using model::Position;
using nlohmann::json;

namespace {

// Where final scoring is defined (PROTOCOL.md, final_score): at the end of the game (the scores
// as they are), or at a turn boundary, before the turn's tile is drawn: nothing of a turn is
// pending there (a feature the placed tile completed is scored after the figure step, BASE-
// SCORE-TIMING, so final scoring in the middle of a turn would value it as incomplete). A
// position whose turn has only drawn its tile from a known draw order is taken back to the
// boundary (the tile returned to the front of the draw order). nullopt: not at a boundary.
std::optional<json> TurnBoundary(const Position& pos) {
  if (pos.turn.game_over) return model::DumpPosition(pos);
  const auto& names = pos.cfg().step_names;
  const std::string_view step = pos.current_step().Name();
  if (pos.turn.placed >= 0 || !pos.turn.figures_this_turn.empty()) return std::nullopt;
  if (step == model::kDrawTile && !pos.turn.drawn) return model::DumpPosition(pos);
  if (step != model::kPlaceTile || !pos.turn.drawn || !pos.supply.ordered || pos.turn.step == 0 ||
      names[pos.turn.step - 1] != model::kDrawTile)
    return std::nullopt;
  Position b = pos;
  const model::TileType t = *b.turn.drawn;
  b.supply.order.insert(b.supply.order.begin(), t);
  if (t < static_cast<int>(b.supply.counts.size())) b.supply.counts[t]++;
  b.turn.drawn.reset();
  b.turn.step = pos.turn.step - 1;
  b.turn.decided = 0;
  json j = model::DumpPosition(b);
  auto back = model::ParsePosition(j, exp::Context("suite"));
  if (!back.ok() || !model::Validate(*back).empty()) return std::nullopt;
  return j;
}

// The legal query for a position, and final scoring where it is defined (TurnBoundary).
void AddPositionQueries(const Position& pos, const std::string& source, std::deque<Query>& out) {
  json pj = model::DumpPosition(pos);
  auto exps = ExpansionsOf(pj);
  if (!pos.turn.game_over) out.push_back({"legal", pj, json(), source, exps});
  if (auto b = TurnBoundary(pos)) out.push_back({"final_score", *b, json(), source, exps});
}

void FixtureQueries(const std::string& source, const json& doc, std::deque<Query>& out) {
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

std::string RandomName(uint32_t seed, int i) {
  return "random seed " + std::to_string(seed) + " #" + std::to_string(i);
}

// Random position i: a random game (random_game.h) with a short random draw order,
// stopped at a random decision; its legal list, the action the game took there, two other
// listed actions, and final scoring at the start of that turn (or at the end of the game).
void RandomQueries(uint32_t seed, int i, const std::vector<std::string>& combo,
                   std::deque<Query>& out) {
  std::mt19937_64 rng(seed * 1000003ull + static_cast<uint64_t>(i));
  GameSpec spec = RandomSpec(rng, combo);
  spec.picks.resize(1 + rng() % 40);
  Game game = Playout(spec, /*keep_positions=*/true);
  if (!game.error.empty() || game.before.empty()) return;
  const size_t k = rng() % (game.before.size() + 1);
  const Position& pos = k < game.before.size() ? game.before[k] : game.final_pos;
  const std::string source = RandomName(seed, i);
  json pj = model::DumpPosition(pos);
  auto exps = ExpansionsOf(pj);
  if (!pos.turn.game_over) out.push_back({"legal", pj, json(), source, exps});
  // The latest turn boundary at or before decision k (that turn's start, or an earlier one).
  for (size_t j = std::min(k, game.before.size()) + 1; j-- > 0;) {
    const Position& b = j < game.before.size() ? game.before[j] : game.final_pos;
    if (auto fb = TurnBoundary(b)) {
      out.push_back({"final_score", *fb, json(), source, ExpansionsOf(*fb)});
      break;
    }
  }
  if (pos.turn.game_over) return;
  std::vector<model::Action> acts;
  if (k < game.actions.size()) acts.push_back(game.actions[k]);
  auto legal = model::LegalActions(pos);
  for (int n = 0; n < 2 && !legal.empty(); ++n) acts.push_back(legal[rng() % legal.size()]);
  for (const auto& a : acts) out.push_back({"apply", pj, model::DumpAction(pos, a), source, exps});
}

}  // namespace

namespace {

// A whole number as reports write it: digits only, no sign, no leading zero, at most `max`.
std::optional<uint64_t> Number(const std::string& s, uint64_t max) {
  if (s.empty() || s.size() > 10 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v > max) return std::nullopt;
  return v;
}

constexpr const char* kRandomPrefix = "random seed ";

}  // namespace

bool IsRandomName(const std::string& name) { return name.rfind("random", 0) == 0; }

std::optional<std::pair<uint32_t, int>> ParseRandomName(const std::string& name) {
  const std::string prefix = kRandomPrefix;
  if (name.rfind(prefix, 0) != 0) return std::nullopt;
  const size_t hash = name.find(" #", prefix.size());
  if (hash == std::string::npos) return std::nullopt;
  auto seed = Number(name.substr(prefix.size(), hash - prefix.size()), 0xFFFFFFFFull);
  auto index = Number(name.substr(hash + 2), kMaxRandom - 1);
  if (!seed || !index) return std::nullopt;
  return std::make_pair(static_cast<uint32_t>(*seed), static_cast<int>(*index));
}

std::string CheckRandomName(const std::string& name) {
  if (ParseRandomName(name)) return "";
  return "--only \"" + name.substr(0, 200) +
         "\": a random position is named exactly as reports write it, \"random seed S #I\" (S "
         "from 0 to 4294967295, I from 0 to " +
         std::to_string(kMaxRandom - 1) + ", no sign, no leading zero, single spaces)";
}

model::StatusOr<std::unique_ptr<SuiteReader>> SuiteReader::Open(
    const SuiteOptions& opts, const std::vector<std::vector<std::string>>& combos) {
  auto r = std::unique_ptr<SuiteReader>(new SuiteReader());
  r->opts_ = opts;
  r->combos_ = combos.empty() ? std::vector<std::vector<std::string>>{{}} : combos;
  // A --rerun checks the folder's cases only: --only then names a case's source.
  if (!opts.only.empty() && opts.rerun.empty() && IsRandomName(opts.only)) {
    auto rn = ParseRandomName(opts.only);
    if (!rn) return model::Status(model::ErrorCode::kUsage, CheckRandomName(opts.only));
    // One random position, by its name.
    RandomQueries(rn->first, rn->second, r->combos_[rn->second % r->combos_.size()], r->pending_);
    r->games_ = 0;
    return r;
  }
  if (!opts.rerun.empty()) {
    auto cases = LoadCases(opts.rerun);
    if (!cases.ok()) return cases.status();
    for (Query& q : *cases) r->pending_.push_back(std::move(q));
  } else {
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
        FixtureQueries(fs::relative(f, opts.root, ec).generic_string(), *doc, r->pending_);
    }
    r->games_ = opts.random;
  }
  if (!opts.only.empty()) {  // one fixture (or case) by its source
    std::deque<Query> kept;
    for (Query& q : r->pending_)
      if (q.source == opts.only) kept.push_back(std::move(q));
    r->pending_ = std::move(kept);
    r->games_ = 0;
    if (r->pending_.empty())
      return model::Status(model::ErrorCode::kNoInput,
                           "--only \"" + opts.only +
                               "\": no query of the suite has that source (a fixture path "
                               "relative to --root, or \"random seed S #I\")");
  }
  return r;
}

bool SuiteReader::Next(Query& q) {
  while (pending_.empty() && next_game_ < games_) {
    RandomQueries(opts_.seed, next_game_, combos_[next_game_ % combos_.size()], pending_);
    ++next_game_;
  }
  if (pending_.empty()) return false;
  q = std::move(pending_.front());
  pending_.pop_front();
  q.index = index_++;
  return true;
}

model::StatusOr<std::vector<Query>> BuildSuite(
    const SuiteOptions& opts, const std::vector<std::vector<std::string>>& combos) {
  auto r = SuiteReader::Open(opts, combos);
  if (!r.ok()) return r.status();
  std::vector<Query> out;
  for (Query q; (*r)->Next(q);) out.push_back(std::move(q));
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

#include "property-tests/soak.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <iomanip>
#include <limits>
#include <ostream>

#include "adjudicator/shard.h"
#include "model/core/input_file.h"
#include "model/core/text_escape.h"
#include "model/expansions/registry.h"

namespace carc::prop {

GameSpec ShrinkSpec(GameSpec spec, const std::function<bool(const GameSpec&)>& fails) {
  bool progress = true;
  while (progress) {
    progress = false;
    // Shorter games first: halve, then drop single picks from the end.
    for (auto* list : {&spec.picks, &spec.choices}) {
      while (list->size() > 1) {
        GameSpec t = spec;
        auto* tl = list == &spec.picks ? &t.picks : &t.choices;
        tl->resize(tl->size() / 2);
        if (!fails(t)) break;
        spec = t;
        progress = true;
      }
      for (size_t i = list->size(); i-- > 0;) {
        GameSpec t = spec;
        auto* tl = list == &spec.picks ? &t.picks : &t.choices;
        tl->erase(tl->begin() + static_cast<long>(i));
        if (fails(t)) {
          spec = t;
          progress = true;
        }
      }
      for (size_t i = 0; i < list->size(); ++i) {
        if ((*list)[i] == 0) continue;
        GameSpec t = spec;
        auto* tl = list == &spec.picks ? &t.picks : &t.choices;
        (*tl)[i] = 0;
        if (fails(t)) {
          spec = t;
          progress = true;
        }
      }
    }
    if (spec.players > 2) {
      GameSpec t = spec;
      t.players = 2;
      if (fails(t)) {
        spec = t;
        progress = true;
      }
    }
  }
  return spec;
}

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The expansions game `index` enables: all of opts.expansions, or with --combinations subset
// index (mod 2^k).
std::vector<std::string> EnabledAt(const SoakOptions& opts, long index) {
  if (!opts.combinations) return opts.expansions;
  std::vector<std::string> enabled;
  const size_t n = opts.expansions.size();
  const uint64_t mask = static_cast<uint64_t>(index) % (uint64_t{1} << n);
  for (size_t i = 0; i < n; ++i)
    if (mask & (uint64_t{1} << i)) enabled.push_back(opts.expansions[i]);
  return enabled;
}

}  // namespace

std::optional<Failure> SoakCheck(const SoakOptions& opts, const Game& g, uint64_t salt,
                                 CheckTally* tally) {
  return opts.check ? opts.check(g, salt, opts.policy, tally)
                    : CheckAll(g, salt, opts.policy, tally);
}

GameDraw GameAt(const SoakOptions& opts, long index) {
  std::mt19937_64 rng(opts.seed);
  rng.discard(2 * static_cast<unsigned long long>(index));  // each game draws two numbers
  const uint64_t game_seed = rng();
  return {SeededSpec(game_seed, EnabledAt(opts, index)), rng()};
}

std::vector<SoakGame> PlayGames(const SoakOptions& opts, const std::function<bool(long)>& mine,
                                const std::function<bool(long)>& stop_before,
                                const std::function<void(const SoakGame&)>& on_game,
                                std::optional<Failure>* failure) {
  const auto t0 = Clock::now();
  std::mt19937_64 rng(opts.seed);
  std::vector<SoakGame> played;
  for (long index = 0;
       (opts.games <= 0 || index < opts.games) && (opts.seconds <= 0 || Since(t0) < opts.seconds);
       ++index) {
    // Every shard draws every game's seeds (cheap) so that game n is the same in each; only the
    // shard that plays it builds its spec (SeededSpec plays the game out once to choose).
    const uint64_t game_seed = rng();
    const uint64_t salt = rng();
    if (!mine(index)) continue;
    if (stop_before(index)) break;
    const auto p0 = Clock::now();
    GameSpec spec = SeededSpec(game_seed, EnabledAt(opts, index));
    Game g = Playout(spec);
    SoakGame game;
    game.checks.runs["(seeding and playout, game)"] = 1;
    game.checks.seconds["(seeding and playout, game)"] = Since(p0);
    std::optional<Failure> f = SoakCheck(opts, g, salt, &game.checks);
    game.index = index;
    game.expansions = spec.expansions;
    game.players = spec.players;
    game.decisions = g.decisions();
    for (const model::Player& p : g.final_pos.players) game.scores.push_back(p.score);
    if (f) game.failure = f->property;
    game.steps = StepVisits(g);
    played.push_back(std::move(game));
    on_game(played.back());
    if (f) {
      *failure = std::move(f);
      break;
    }
  }
  return played;
}

SoakResult Summarize(std::vector<SoakGame> played) {
  std::sort(played.begin(), played.end(),
            [](const SoakGame& a, const SoakGame& b) { return a.index < b.index; });
  SoakResult res;
  for (const SoakGame& g : played) {
    ++res.games;
    res.decisions += g.decisions;
    for (const auto& [step, n] : g.steps) {
      res.step_visits[step] += n;
      ++res.games_reaching[step];
    }
    for (const auto& [check, n] : g.checks.runs) res.checks.runs[check] += n;
    for (const auto& [check, t] : g.checks.seconds) res.checks.seconds[check] += t;
  }
  res.played = std::move(played);
  return res;
}

void ShrinkAndWrite(const SoakOptions& opts, long index, const Failure& f, SoakResult* res,
                    std::ostream& progress) {
  const GameDraw draw = GameAt(opts, index);
  // The failure as found goes to the file at once (shrinking a long game can take minutes),
  // then the shrunk one replaces it.
  auto write = [&](const Failure& fl, const GameSpec& sp, bool shrunk) {
    std::ofstream out(opts.out);
    out << nlohmann::json{{"failure", fl.property}, {"message", fl.message}, {"action", fl.action},
                          {"spec", SpecJson(sp)},   {"salt", draw.salt},     {"shrunk", shrunk},
                          {"position", fl.position}}
               .dump(2)
        << "\n";
    std::ofstream pos_out(opts.out + ".position.json");
    pos_out << fl.position.dump(2) << "\n";
  };
  write(f, draw.spec, false);
  progress << (opts.rewrite_progress ? "\n" : "") << "carc fuzz: " << f.property
           << " failed (written to " << opts.out << "); shrinking the game...\n"
           << std::flush;
  const std::string property = f.property;
  auto fails = [&](const GameSpec& s) {
    auto r = SoakCheck(opts, Playout(s), draw.salt, nullptr);
    return r && r->property == property;
  };
  res->failing_spec = ShrinkSpec(draw.spec, fails);
  res->failure = SoakCheck(opts, Playout(res->failing_spec), draw.salt, nullptr);
  write(*res->failure, res->failing_spec, true);
}

SoakResult RunSoak(const SoakOptions& opts, std::ostream& progress) {
  if (opts.jobs > 1) return RunSoakJobs(opts, progress);
  const auto t0 = Clock::now();
  const int shards = std::max(opts.shards, 1);
  long games = 0, decisions = 0;
  double last_report = -1;
  std::optional<Failure> failure;
  std::vector<SoakGame> played = PlayGames(
      opts, [&](long index) { return index % shards == opts.shard - 1; },
      [](long) { return false; },
      [&](const SoakGame& g) {
        ++games;
        decisions += g.decisions;
        if (Since(t0) - last_report < 1.0 && g.failure.empty()) return;
        last_report = Since(t0);
        progress << (opts.rewrite_progress ? "\r" : "") << "carc fuzz: " << games << " games, "
                 << decisions << " decisions, " << std::fixed << std::setprecision(1) << Since(t0)
                 << " s, " << games / std::max(Since(t0), 1e-9) << " games/s"
                 << (opts.rewrite_progress ? "" : "\n") << std::flush;
      },
      &failure);
  SoakResult res = Summarize(std::move(played));
  if (failure) ShrinkAndWrite(opts, res.played.back().index, *failure, &res, progress);
  res.seconds = Since(t0);
  if (opts.rewrite_progress) progress << "\n";
  return res;
}

nlohmann::json SoakGameJson(const SoakGame& g, bool with_seconds) {
  nlohmann::json j = {{"game", g.index},      {"expansions", g.expansions},
                      {"players", g.players}, {"decisions", g.decisions},
                      {"scores", g.scores},   {"failure", g.failure},
                      {"steps", g.steps},     {"checks", g.checks.runs}};
  if (with_seconds) j["check_seconds"] = g.checks.seconds;
  return j;
}

SoakGame SoakGameFromJson(const nlohmann::json& j) {
  SoakGame g;
  g.index = j.at("game").get<long>();
  g.expansions = j.at("expansions").get<std::vector<std::string>>();
  g.players = j.at("players").get<int>();
  g.decisions = j.at("decisions").get<int>();
  g.scores = j.at("scores").get<std::vector<int>>();
  g.failure = j.at("failure").get<std::string>();
  g.steps = j.at("steps").get<std::map<std::string, int>>();
  if (j.contains("checks")) g.checks.runs = j.at("checks").get<std::map<std::string, long>>();
  if (j.contains("check_seconds"))
    g.checks.seconds = j.at("check_seconds").get<std::map<std::string, double>>();
  return g;
}

nlohmann::json SoakReportJson(const SoakOptions& opts, const SoakResult& r) {
  nlohmann::json games = nlohmann::json::array();
  for (const SoakGame& g : r.played) games.push_back(SoakGameJson(g, /*with_seconds=*/false));
  return {{"seed", opts.seed},
          {"shard", std::to_string(opts.shard) + "/" + std::to_string(opts.shards)},
          {"combinations", opts.combinations},
          {"expansions", opts.expansions},
          {"games", games},
          {"step_visits", r.step_visits},
          {"games_reaching", r.games_reaching},
          {"check_runs", r.checks.runs}};
}

namespace {

using nlohmann::json;

// What a JSON value is, for messages: "-1", "true", "the string \"3/2\"", "[\"bogus\"]"; an
// array or object longer than 60 characters as "an array", "an object".
std::string Found(const json& v) {
  const std::string text = v.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() > 60 && v.is_structured()) return v.is_array() ? "an array" : "an object";
  return (v.is_string() ? "the string " : "") + model::EscapeControls(text.substr(0, 60));
}

// The pointer to `key` in the object at `at` (~ and / escaped as RFC 6901 has them).
std::string Key(const std::string& at, const std::string& key) {
  return model::EscapeControls((json::json_pointer(at.empty() ? "" : at) / key).to_string());
}
std::string Index(const std::string& at, size_t i) { return at + "/" + std::to_string(i); }

// v when it is a JSON whole number from lo to hi (5.0, "5" and true are not), else nullopt.
std::optional<int64_t> WholeIn(const json& v, int64_t lo, int64_t hi) {
  int64_t n = 0;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
    n = static_cast<int64_t>(u);
  } else if (v.is_number_integer()) {
    n = v.get<int64_t>();
  } else {
    return std::nullopt;
  }
  return n >= lo && n <= hi ? std::optional<int64_t>(n) : std::nullopt;
}
std::string NotWhole(const std::string& at, const json& v, int64_t lo, int64_t hi) {
  return at + ": expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
         ", found " + Found(v);
}

// Empty when the object `j` (at `at`) has each of `required` and no key but those and
// `optional`, else what is wrong.
std::string Fields(const json& j, const std::string& at, const std::vector<std::string>& required,
                   const std::vector<std::string>& optional) {
  std::string all;
  for (const auto* list : {&required, &optional})
    for (const std::string& k : *list) all += (all.empty() ? "" : ", ") + k;
  for (const auto& [key, value] : j.items())
    if (std::find(required.begin(), required.end(), key) == required.end() &&
        std::find(optional.begin(), optional.end(), key) == optional.end())
      return Key(at, key) + ": unknown field (" + all + ")";
  for (const std::string& k : required)
    if (!j.contains(k)) return Key(at, k) + ": missing (" + all + ")";
  return "";
}

// Empty when `totals` (at `at`) holds exactly `sums`, what the report's games add up to (`what`:
// what each number counts), else what differs.
std::string SameTotals(const json& totals, const std::string& at,
                       const std::map<std::string, int64_t>& sums, const char* what) {
  if (!totals.is_object()) return at + ": expected an object, found " + Found(totals);
  for (const auto& [key, n] : totals.items()) {
    const auto it = sums.find(key);
    const int64_t sum = it == sums.end() ? 0 : it->second;
    if (!WholeIn(n, 1, std::numeric_limits<int64_t>::max()))
      return NotWhole(Key(at, key), n, 1, std::numeric_limits<int64_t>::max());
    if (n.get<int64_t>() != sum)
      return Key(at, key) + ": " + Found(n) + ", but the report's games give " +
             std::to_string(sum) + " " + what;
  }
  for (const auto& [key, sum] : sums)
    if (!totals.contains(key))
      return Key(at, key) + ": missing, but the report's games give " + std::to_string(sum) + " " +
             what;
  return "";
}

constexpr int64_t kMinPlayers = 2, kMaxPlayers = 6;  // BASE-SETUP

// The game at `at` of a report of the run `run` (its seed, expansions, combinations and shard
// checked); `counted`: the report has per-check counts, so each game has its "checks".
std::string CheckReportGame(const json& g, const std::string& at, const SoakOptions& run,
                            bool counted) {
  if (!g.is_object()) return at + ": expected an object (a game), found " + Found(g);
  // A report has the per-check counts in its totals and in every game, or nowhere (one from
  // before them).
  if (!counted && g.contains("checks"))
    return at +
           "/checks: the report has no \"check_runs\" (per-check counts are in a report's "
           "totals and in every game, or in neither)";
  std::vector<std::string> fields = {"game",   "expansions", "players", "decisions",
                                     "scores", "failure",    "steps"};
  if (counted) fields.push_back("checks");
  if (std::string e = Fields(g, at, fields, {}); !e.empty()) return e;
  const auto index = WholeIn(g["game"], 0, std::numeric_limits<int64_t>::max());
  if (!index) return NotWhole(at + "/game", g["game"], 0, std::numeric_limits<int64_t>::max());
  if (*index % run.shards != run.shard - 1)
    return at + "/game: game " + std::to_string(*index) + " is not played by shard " +
           std::to_string(run.shard) + "/" + std::to_string(run.shards);
  const json enabled = EnabledAt(run, static_cast<long>(*index));
  if (g["expansions"] != enabled)
    return at + "/expansions: expected " + enabled.dump() + " (the expansions game " +
           std::to_string(*index) + " of the run enables), found " + Found(g["expansions"]);
  const auto players = WholeIn(g["players"], kMinPlayers, kMaxPlayers);
  if (!players) return NotWhole(at + "/players", g["players"], kMinPlayers, kMaxPlayers);
  const auto decisions = WholeIn(g["decisions"], 0, model::kMaxJsonInt);
  if (!decisions) return NotWhole(at + "/decisions", g["decisions"], 0, model::kMaxJsonInt);
  const json& scores = g["scores"];
  if (!scores.is_array())
    return at + "/scores: expected an array (a score per player), found " + Found(scores);
  if (static_cast<int64_t>(scores.size()) != *players)
    return at + "/scores: " + std::to_string(scores.size()) + " scores in a game of " +
           std::to_string(*players) + " players";
  for (size_t i = 0; i < scores.size(); ++i)
    if (!WholeIn(scores[i], 0, model::kMaxJsonInt))
      return NotWhole(Index(at + "/scores", i), scores[i], 0, model::kMaxJsonInt);
  if (!g["failure"].is_string())
    return at + "/failure: expected a string (the property that failed, \"\" if none), found " +
           Found(g["failure"]);
  // Steps listed are taken at least once, and at most once per decision; checks run at least
  // once (the writer lists no zero).
  const auto counts = [&](const char* key, int64_t hi) -> std::string {
    const json& m = g[key];
    if (!m.is_object()) return at + "/" + key + ": expected an object, found " + Found(m);
    for (const auto& [name, n] : m.items())
      if (!WholeIn(n, 1, hi)) return NotWhole(Key(at + "/" + key, name), n, 1, hi);
    return "";
  };
  if (std::string e = counts("steps", *decisions); !e.empty()) return e;
  if (counted)
    if (std::string e = counts("checks", model::kMaxJsonInt); !e.empty()) return e;
  return "";
}

}  // namespace

std::string CheckSoakReport(const json& j) {
  if (!j.is_object())
    return "not a report of carc fuzz --report (expected an object, found " + Found(j) + ")";
  const bool counted = j.contains("check_runs");
  if (std::string e = Fields(
          j, "",
          {"seed", "shard", "combinations", "expansions", "games", "step_visits", "games_reaching"},
          {"check_runs"});
      !e.empty())
    return e;
  if (!j["seed"].is_number_unsigned())
    return "/seed: expected a whole number from 0 to " +
           std::to_string(std::numeric_limits<uint64_t>::max()) + ", found " + Found(j["seed"]);
  SoakOptions run;
  run.seed = j["seed"].get<uint64_t>();
  if (!j["shard"].is_string() ||
      !adjudicator::ParseShard(j["shard"].get<std::string>(), run.shard, run.shards).empty())
    return "/shard: expected K/N with 1 <= K <= N, as --shard takes it, found " + Found(j["shard"]);
  if (!j["combinations"].is_boolean())
    return "/combinations: expected true or false, found " + Found(j["combinations"]);
  run.combinations = j["combinations"].get<bool>();
  const json& ex = j["expansions"];
  if (!ex.is_array()) return "/expansions: expected an array, found " + Found(ex);
  for (size_t i = 0; i < ex.size(); ++i) {
    const std::string at = Index("/expansions", i);
    if (!ex[i].is_string()) return at + ": expected an expansion's name, found " + Found(ex[i]);
    const std::string id = ex[i].get<std::string>();
    if (!exp::ByName(id)) {
      std::string known;
      for (const std::string& k : exp::Ids()) known += (known.empty() ? "" : ", ") + k;
      return at + ": unknown expansion " + model::EscapeControls(ex[i].dump()) +
             " (known: " + known + ")";
    }
    for (size_t k = 0; k < i; ++k)
      if (ex[k] == ex[i])
        return at + ": expansion " + model::EscapeControls(ex[i].dump()) +
               " given twice (first at " + Index("/expansions", k) + ")";
    run.expansions.push_back(id);
  }
  const json& games = j["games"];
  if (!games.is_array()) return "/games: expected an array, found " + Found(games);
  // A game listed twice would be stored once, one copy silently replacing the other.
  std::map<int64_t, size_t> listed;
  std::map<std::string, int64_t> visits, reaching, runs;  // the games' totals (Summarize)
  for (size_t i = 0; i < games.size(); ++i) {
    const std::string at = Index("/games", i);
    if (std::string e = CheckReportGame(games[i], at, run, counted); !e.empty()) return e;
    const int64_t index = games[i]["game"].get<int64_t>();
    if (auto [it, fresh] = listed.emplace(index, i); !fresh)
      return at + ": game " + std::to_string(index) + " is listed twice (first at " +
             Index("/games", it->second) + ")";
    for (const auto& [step, n] : games[i]["steps"].items()) {
      visits[step] += n.get<int64_t>();
      ++reaching[step];
    }
    if (counted)
      for (const auto& [check, n] : games[i]["checks"].items()) runs[check] += n.get<int64_t>();
  }
  // The report's totals are its games' (the merge sums the games; totals that disagree are not
  // a report carc fuzz wrote).
  if (std::string e = SameTotals(j["step_visits"], "/step_visits", visits, "decisions at the step");
      !e.empty())
    return e;
  if (std::string e =
          SameTotals(j["games_reaching"], "/games_reaching", reaching, "games reaching the step");
      !e.empty())
    return e;
  if (counted)
    if (std::string e = SameTotals(j["check_runs"], "/check_runs", runs, "runs of the check");
        !e.empty())
      return e;
  return "";
}

}  // namespace carc::prop

#include "property-tests/soak.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <iomanip>
#include <ostream>

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

SoakResult RunSoak(const SoakOptions& opts, std::ostream& progress) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  std::mt19937_64 rng(opts.seed);
  SoakResult res;
  double last_report = -1;
  const int shards = std::max(opts.shards, 1);
  for (long index = 0;
       (opts.games <= 0 || index < opts.games) && (opts.seconds <= 0 || elapsed() < opts.seconds);
       ++index) {
    std::vector<std::string> enabled = opts.expansions;
    if (opts.combinations) {
      enabled.clear();
      const size_t n = opts.expansions.size();
      const uint64_t mask = static_cast<uint64_t>(index) % (uint64_t{1} << n);
      for (size_t i = 0; i < n; ++i)
        if (mask & (uint64_t{1} << i)) enabled.push_back(opts.expansions[i]);
    }
    // Every shard draws every game's seeds (cheap) so that game n is the same in each; only the
    // shard that plays it builds its spec (SeededSpec plays the game out once to choose).
    const uint64_t game_seed = rng();
    const uint64_t salt = rng();
    if (index % shards != opts.shard - 1) continue;
    const auto p0 = Clock::now();
    GameSpec spec = SeededSpec(game_seed, enabled);
    Game g = Playout(spec);
    ++res.checks.runs["(seeding and playout, game)"];
    res.checks.seconds["(seeding and playout, game)"] +=
        std::chrono::duration<double>(Clock::now() - p0).count();
    res.decisions += g.decisions();
    std::optional<Failure> f = CheckAll(g, salt, opts.policy, &res.checks);
    ++res.games;
    SoakGame played;
    played.index = index;
    played.expansions = spec.expansions;
    played.players = spec.players;
    played.decisions = g.decisions();
    for (const model::Player& p : g.final_pos.players) played.scores.push_back(p.score);
    if (f) played.failure = f->property;
    played.steps = StepVisits(g);
    for (const auto& [step, n] : played.steps) {
      res.step_visits[step] += n;
      ++res.games_reaching[step];
    }
    res.played.push_back(std::move(played));
    if (elapsed() - last_report >= 1.0 || f) {
      last_report = elapsed();
      progress << (opts.rewrite_progress ? "\r" : "") << "carc fuzz: " << res.games << " games, "
               << res.decisions << " decisions, " << std::fixed << std::setprecision(1) << elapsed()
               << " s, " << std::setprecision(1) << res.games / std::max(elapsed(), 1e-9)
               << " games/s" << (opts.rewrite_progress ? "" : "\n") << std::flush;
    }
    if (!f) continue;
    // The failure as found goes to the file at once (shrinking a long game can take minutes),
    // then the shrunk one replaces it.
    auto write = [&](const Failure& fl, const GameSpec& sp, bool shrunk) {
      std::ofstream out(opts.out);
      out << nlohmann::json{{"failure", fl.property}, {"message", fl.message},
                            {"action", fl.action},    {"spec", SpecJson(sp)},
                            {"salt", salt},           {"shrunk", shrunk},
                            {"position", fl.position}}
                 .dump(2)
          << "\n";
      std::ofstream pos_out(opts.out + ".position.json");
      pos_out << fl.position.dump(2) << "\n";
    };
    write(*f, spec, false);
    progress << (opts.rewrite_progress ? "\n" : "") << "carc fuzz: " << f->property
             << " failed (written to " << opts.out << "); shrinking the game...\n"
             << std::flush;
    const std::string property = f->property;
    auto fails = [&](const GameSpec& s) {
      auto r = CheckAll(Playout(s), salt, opts.policy);
      return r && r->property == property;
    };
    res.failing_spec = ShrinkSpec(spec, fails);
    res.failure = CheckAll(Playout(res.failing_spec), salt, opts.policy);
    write(*res.failure, res.failing_spec, true);
    break;
  }
  res.seconds = elapsed();
  if (opts.rewrite_progress) progress << "\n";
  return res;
}

nlohmann::json SoakReportJson(const SoakOptions& opts, const SoakResult& r) {
  nlohmann::json games = nlohmann::json::array();
  for (const SoakGame& g : r.played)
    games.push_back({{"game", g.index},
                     {"expansions", g.expansions},
                     {"players", g.players},
                     {"decisions", g.decisions},
                     {"scores", g.scores},
                     {"failure", g.failure},
                     {"steps", g.steps}});
  return {{"seed", opts.seed},
          {"shard", std::to_string(opts.shard) + "/" + std::to_string(opts.shards)},
          {"combinations", opts.combinations},
          {"expansions", opts.expansions},
          {"games", games},
          {"step_visits", r.step_visits},
          {"games_reaching", r.games_reaching}};
}

}  // namespace carc::prop

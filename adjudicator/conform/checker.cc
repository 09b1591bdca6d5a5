#include "adjudicator/conform/checker.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "adjudicator/conform/attribute.h"
#include "adjudicator/conform/engine.h"
#include "adjudicator/conform/process.h"
#include "adjudicator/conform/shrink.h"
#include "adjudicator/rulings_catalog.h"
#include "database/sha256.h"
#include "model/core/options.h"
#include "model/core/text_escape.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator::conform {

using model::ErrorCode;
using model::Status;
using nlohmann::json;

namespace {

// What a hello declares must be this model's: an expansion id, option key or value it does not
// know would admit nothing (a typo "c3" would skip every position and the run would pass
// without a check) or restrict nothing ("farm_scorin"). Empty: known; else what is wrong.
std::string Known(const std::string& key, const std::string& value) {
  const std::string shown = "\"" + model::EscapeControls(value) + "\"";
  if (key == "expansions") {
    const std::vector<std::string> ids = exp::Ids();
    if (std::find(ids.begin(), ids.end(), value) != ids.end()) return "";
    std::string known;
    for (const std::string& id : ids) known += (known.empty() ? "" : ", ") + id;
    return "expansion " + shown + " is not one of this model's (" + known + ")";
  }
  if (key == "edition")
    return model::ParseEdition(value) ? "" : "edition " + shown + " is not C1, C2 or C3";
  if (key == "city_scoring")
    return model::ParseCityScoring(value)
               ? ""
               : "options/city_scoring " + shown + " is not standard or c1-two-tile-city";
  if (key == "farm_scoring")
    return model::ParseFarmScoring(value) ? ""
                                          : "options/farm_scoring " + shown +
                                                " is not per-farm, c1-four-per-city or "
                                                "c1-three-per-city-once";
  return "option key \"" + model::EscapeControls(key) +
         "\" is none of this model's (edition, city_scoring, farm_scoring)";
}

}  // namespace

model::StatusOr<Declared> ReadHello(const json& h) {
  auto bad = [&](const std::string& what) {
    return Status(ErrorCode::kIo,
                  "engine's hello answer: " + what + " (PROTOCOL.md): " + h.dump().substr(0, 300));
  };
  if (!h.value("ok", false) || h.value("protocol", json()) != kProtocolVersion)
    return bad("it does not accept protocol " + std::to_string(kProtocolVersion));
  // A misspelt field ("expansion", "deviation") would be dropped: the engine's expansions never
  // checked, its deviations reported as failures. Refused, naming it, as the position reader
  // refuses an unknown field.
  for (auto it = h.begin(); it != h.end(); ++it)
    if (!std::set<std::string>{"id", "ok", "protocol", "name", "expansions", "options",
                               "deviations"}
             .count(it.key()))
      return bad("\"" + model::EscapeControls(it.key().substr(0, 100)) +
                 "\" is not a field of hello (id, ok, protocol, name, expansions, options, "
                 "deviations)");
  Declared d;
  d.name = h.value("name", json("engine")).is_string() ? h.value("name", "engine") : "engine";
  auto too_many = [&](const char* what, size_t n, size_t limit) {
    return Status(ErrorCode::kIo, "engine's hello answer: " + std::to_string(n) + " " + what +
                                      ", more than the limit of " + std::to_string(limit) +
                                      " (PROTOCOL.md, Limits)");
  };
  for (const char* list : {"expansions", "deviations"})
    if (h.contains(list) && h[list].is_array() && h[list].size() > kMaxDeclared)
      return too_many(list, h[list].size(), kMaxDeclared);
  if (h.contains("options") && h["options"].is_object()) {
    if (h["options"].size() > kMaxDeclared)
      return too_many("option keys", h["options"].size(), kMaxDeclared);
    for (auto it = h["options"].begin(); it != h["options"].end(); ++it)
      if (it.value().is_array() && it.value().size() > kMaxDeclared)
        return too_many(("values of options/" + it.key()).c_str(), it.value().size(), kMaxDeclared);
  }
  const json exps = h.value("expansions", json::array());
  if (!exps.is_array()) return bad("\"expansions\" must be an array of expansion ids");
  for (const json& e : exps) {
    if (!e.is_string()) return bad("\"expansions\" must be an array of expansion ids");
    if (auto s = Known("expansions", e.get<std::string>()); !s.empty()) return bad(s);
    if (!d.expansions.insert(e.get<std::string>()).second)
      return bad("\"expansions\" names \"" + e.get<std::string>() + "\" twice");
  }
  const json opts = h.value("options", json::object());
  if (!opts.is_object()) return bad("\"options\" must be an object of arrays");
  for (auto it = opts.begin(); it != opts.end(); ++it) {
    if (!it.value().is_array()) return bad("\"options/" + it.key() + "\" must be an array");
    if (it.key() != "edition" && it.key() != "city_scoring" && it.key() != "farm_scoring")
      return bad(Known(it.key(), ""));
    // An empty list admits no position: a run that skipped every one would pass unchecked.
    if (it.value().empty())
      return bad("\"options/" + it.key() +
                 "\" is empty: it would admit no position (leave the key out for every value)");
    auto& set = d.options[it.key()];
    for (const json& v : it.value()) {
      if (!v.is_string()) return bad("\"options/" + it.key() + "\" must hold strings");
      if (auto s = Known(it.key(), v.get<std::string>()); !s.empty()) return bad(s);
      if (!set.insert(v.get<std::string>()).second)
        return bad("\"options/" + it.key() + "\" names \"" + v.get<std::string>() + "\" twice");
    }
  }
  const json devs = h.value("deviations", json::array());
  if (!devs.is_array()) return bad("\"deviations\" must be an array");
  for (const json& dv : devs) {
    if (!dv.is_object() || !dv.value("ruling", json()).is_string())
      return bad("each deviation needs a \"ruling\" string");
    for (auto k = dv.begin(); k != dv.end(); ++k)
      if (k.key() != "ruling" && k.key() != "reason")
        return bad("a deviation has \"ruling\" and \"reason\" only, not \"" +
                   model::EscapeControls(k.key()) + "\"");
    // A deviation from a ruling this model does not have would excuse nothing, or a typo would
    // silently excuse nothing the engine meant: refused, naming the ID.
    const std::string id = dv["ruling"].get<std::string>();
    if (!EmbeddedRuling(id))
      return bad("deviation names \"" + model::EscapeControls(id) + "\", no ruling of this model");
    if (d.deviations.count(id)) return bad("deviation names \"" + id + "\" twice");
    d.deviations[dv["ruling"].get<std::string>()] =
        dv.value("reason", json("")).is_string() ? dv.value("reason", "") : "";
  }
  return d;
}

// Rules: the options a position states are BASE-SCORE-CITY-C1-SMALL, BASE-END-FARM (C1 farm
// rules); an engine that declares the values it handles is sent only positions using those.
std::string SkipReason(const Query& q, const Declared& d) {
  for (const std::string& e : q.expansions)
    if (!d.expansions.count(e)) return "expansion " + e;
  const json& rules = q.position["rules"];
  std::vector<std::pair<std::string, json>> stated = {
      {"edition", rules.value("edition", json("C3"))}};  // the edition first
  const json options = rules.value("options", json::object());
  for (auto& [key, v] : options.items()) stated.push_back({key, v});
  for (const auto& [key, v] : stated) {
    auto it = d.options.find(key);
    if (it != d.options.end() && v.is_string() && !it->second.count(v.get<std::string>()))
      return key + " " + v.get<std::string>();
  }
  return "";
}

namespace {

// One engine process and the requests it answered.
class Worker {
 public:
  Worker(int number, Trace* trace) : number_(number), trace_(trace) {}
  Status Start(const CheckOptions& o) {
    if (auto s = proc_.Start(o.engine, o.timeout); !s.ok()) return s;
    proc_.SetTrace(trace_, number_);
    auto hello = proc_.Ask({{"id", 0}, {"cmd", "hello"}, {"protocol", kProtocolVersion}});
    if (!hello.ok()) return hello.status();
    hello_ = *hello;
    return Status::Ok();
  }
  const json& hello() const { return hello_; }
  // The findings of one query; error: the engine failed.
  model::StatusOr<std::vector<Finding>> Run(const Query& q) {
    try {
      return RunQuery(q);
    } catch (const json::exception& e) {  // a checker bug, never the engine's: exit 70
      return Status(ErrorCode::kInternal,
                    std::string("internal error comparing the answers: ") + e.what());
    }
  }
  model::StatusOr<std::vector<Finding>> RunQuery(const Query& q) {
    auto eng = Ask(q, Request(q));
    if (!eng.ok()) return eng.status();
    json req = Request(q);
    last_engine_ = *eng;
    last_reference_ = Answer(req, -1);
    std::vector<Finding> out = Compare(q, last_reference_, *eng);
    // A score difference: the feature(s) whose value differs (attribute.h).
    for (Finding& f : out)
      if (f.category == kScores) {
        EngineAsk ask = [&](const json& r) { return Ask(q, r); };
        if (auto s = AttributeScores(q, *eng, f, ask); !s.ok()) return s;
      }
    return out;
  }
  // Quit is a request like the others (PROTOCOL.md): a second answer to the last query is read
  // here, in place of the quit answer, and fails the run as it would after any other query.
  Status Quit() {
    auto answer = proc_.Ask({{"id", ++id_}, {"cmd", "quit"}});
    proc_.Stop();
    if (!answer.ok()) return answer.status();
    if (answer->value("ok", json()) != json(true) || answer->size() != 2)
      return Status(ErrorCode::kIo, "engine answered quit with " + answer->dump().substr(0, 200) +
                                        ", expected {\"id\": " + std::to_string(id_) +
                                        ", \"ok\": true} (PROTOCOL.md)");
    return Status::Ok();
  }
  json last_engine_, last_reference_;

 private:
  model::StatusOr<json> Ask(const Query& q, json req) {
    req["id"] = ++id_;
    auto eng = proc_.Ask(req);
    if (!eng.ok()) return eng.status();
    if (auto s = CheckAnswerTypes(q, *eng); !s.ok()) return s;
    return eng;
  }
  EngineProcess proc_;
  int number_;
  Trace* trace_;
  json hello_;
  int id_ = 0;
};

struct Member {
  Query query;
  Finding finding;
};

// The findings of one category and rulings, as they come in: a count, the sources of the first
// queries in suite order, and the smallest examples (by size, then suite order) to shrink.
struct Group {
  bool deviation = false;
  int count = 0;
  std::map<std::string, size_t> sources;  // source -> first suite index, the lowest kept
  bool sources_cut = false;
  std::vector<Member> smallest;
  std::optional<Shrunk> shrunk;
  json reference, engine;  // the answers to the shrunk example

  void Add(const Query& q, const Finding& f, size_t keep) {
    ++count;
    AddSource(q);
    auto before = [](const Member& a, const Member& b) {
      auto sa = SizeOf(a.query), sb = SizeOf(b.query);
      return sa != sb ? sa < sb : a.query.index < b.query.index;
    };
    Member m{q, f};
    if (smallest.size() < keep) {
      smallest.push_back(std::move(m));
    } else if (!smallest.empty() && before(m, smallest.back())) {
      smallest.back() = std::move(m);
    } else {
      return;
    }
    std::sort(smallest.begin(), smallest.end(), before);
  }
  void AddSource(const Query& q) {
    auto it = sources.find(q.source);
    if (it != sources.end()) {
      it->second = std::min(it->second, q.index);
    } else if (sources.size() < kMaxListedSources) {
      sources[q.source] = q.index;
    } else {
      sources_cut = true;
      auto last = std::max_element(sources.begin(), sources.end(),
                                   [](auto& a, auto& b) { return a.second < b.second; });
      if (q.index < last->second) {
        sources.erase(last);
        sources[q.source] = q.index;
      }
    }
  }
  json Sources() const {
    std::vector<std::pair<size_t, std::string>> v;
    for (const auto& [s, i] : sources) v.push_back({i, s});
    std::sort(v.begin(), v.end());
    json out = json::array();
    for (const auto& [i, s] : v) out.push_back(s);
    return out;
  }
};

json Size(const Query& q) {
  auto s = SizeOf(q);
  return {{"tiles", s[0]},
          {"players", s[1]},
          {"figures", s[2]},
          {"draw_order", s[3]},
          {"expansions", s[4]}};
}

std::string ExpName(const Query& q) {
  std::string ex;
  for (const auto& e : q.expansions) ex += (ex.empty() ? "" : "+") + e;
  return ex.empty() ? std::string("base") : ex;
}

// A legal-list example as the disputed action's apply question (the first action only one side
// lists), so that `carc adjudicate` on the written case explains the verdict.
Query AsApply(const Query& q, const Finding& f) {
  if (q.kind != "legal") return q;
  for (const json& d : f.diff)
    for (const char* side : {"engine_only", "reference_only"})
      for (const json& a : d.value(side, json::array()))
        if (a.is_object()) {
          Query out = q;
          out.kind = "apply";
          out.action = a;
          if (ValidQuery(out)) return out;
        }
  return q;
}

// Runs body(worker) on a thread per worker; meanwhile shows progress every 200 ms (under mu).
template <typename Body, typename Show>
void OnEveryWorker(std::vector<std::unique_ptr<Worker>>& workers, std::mutex& mu, Body body,
                   Show show) {
  std::vector<std::thread> threads;
  std::atomic<int> running{static_cast<int>(workers.size())};
  for (auto& w : workers)
    threads.emplace_back([&, w = w.get()] {
      body(w);
      --running;
    });
  while (running > 0) {
    {
      std::lock_guard<std::mutex> lock(mu);
      show();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  for (auto& t : threads) t.join();
}

// One check while the queries stream through the workers: read, checked and grouped as they
// come, so nothing grows with the number of queries. Members are taken under mu.
struct CheckRun {
  CheckRun(const SuiteOptions& sopts, const CheckOptions& o, const Declared& dd, SuiteReader& s)
      : opts(o),
        d(dd),
        suite(s),
        shards(static_cast<size_t>(std::max(sopts.shards, 1))),
        shard(static_cast<size_t>(std::clamp(sopts.shard, 1, sopts.shards))) {}
  const CheckOptions& opts;
  const Declared& d;
  SuiteReader& suite;
  const size_t shards, shard;
  std::mutex mu;
  std::string suite_hash;  // chained: each query's request digest in suite order
  size_t total = 0, mine = 0, sent = 0, done = 0;
  std::map<std::string, int> skipped;
  std::map<std::string, Group> pre;
  std::map<std::string, std::pair<int, int>> per_exp;  // checked, disagreeing
  int disagreeing = 0;
  std::atomic<bool> stop{false};
  Status first = Status::Ok();
  const std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();

  void Record(const json& r) {
    if (opts.on_case) opts.on_case(r);
  }
  // The next query of the shard; a skipped one is recorded on the way.
  bool Take(Query& q, std::string& why) {
    for (;;) {
      if (stop || !suite.Next(q)) return false;
      ++total;
      suite_hash = database::Sha256Hex(suite_hash + database::Sha256Hex(Request(q).dump()));
      if (q.index % shards != shard - 1) continue;
      ++mine;
      why = SkipReason(q, d);
      if (why.empty()) return ++sent, true;
      skipped[why]++;
      Record({{"case", q.index},
              {"kind", q.kind},
              {"source", q.source},
              {"expansions", ExpName(q)},
              {"skipped", why}});
    }
  }
  void Merge(const Query& q, const std::vector<Finding>& fs) {
    auto& pe = per_exp[ExpName(q)];
    pe.first++;
    bool counted = false;
    json findings = json::array();
    for (const Finding& f : fs) {
      // A declared deviation is matched against the rulings the finding is attributed to.
      bool dev = std::any_of(f.rulings.begin(), f.rulings.end(),
                             [&](const std::string& r) { return d.deviations.count(r) > 0; });
      if (!dev && !counted) pe.second++, ++disagreeing, counted = true;
      Group& g = pre[(dev ? "deviation|" : "") + GroupKey(f)];
      g.deviation = dev;
      g.Add(q, f, static_cast<size_t>(std::max(opts.shrink_candidates, 1)));
      findings.push_back({{"category", f.category}, {"rulings", f.rulings}, {"deviation", dev}});
    }
    ++done;
    Record({{"case", q.index},
            {"kind", q.kind},
            {"source", q.source},
            {"expansions", ExpName(q)},
            {"findings", findings}});
  }
  void Progress(const std::string& what, size_t n, const std::string& of) const {
    if (!opts.progress) return;
    auto secs =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - t0);
    std::cerr << "\rconform: " << what << " " << n << of << ", " << disagreeing
              << " disagreeing queries, " << secs.count() << " s   " << std::flush;
  }
  void Failed(Status s) {  // under mu
    if (first.ok()) first = std::move(s);
    stop = true;
  }
};

void RunQueries(CheckRun& run, std::vector<std::unique_ptr<Worker>>& workers) {
  OnEveryWorker(
      workers, run.mu,
      [&](Worker* w) {
        Query q;
        std::string why;
        for (;;) {
          {
            std::lock_guard<std::mutex> lock(run.mu);
            if (!run.Take(q, why)) break;
          }
          auto f = w->Run(q);
          std::lock_guard<std::mutex> lock(run.mu);
          if (!f.ok()) {
            run.Failed(
                Status(f.status().code(), f.status().message() + " (query from " + q.source + ")"));
            break;
          }
          run.Merge(q, *f);
        }
      },
      [&] { run.Progress("queries", run.done, ""); });
}

// Shrinks the smallest examples of group g, then asks again for the example as shown.
Status ShrinkGroup(Group& g, Worker* w, const CheckOptions& opts) {
  Oracle ask = [&](const Query& c) { return w->Run(c); };
  for (const Member& m : g.smallest) {
    auto sh = Shrink(m.query, m.finding, ask, opts.max_shrink_steps);
    if (!sh.ok()) return sh.status();
    if (!g.shrunk || SizeOf(sh->query) < SizeOf(g.shrunk->query)) g.shrunk = *sh;
  }
  auto again = w->Run(g.shrunk->query);
  if (!again.ok()) return again.status();
  g.reference = w->last_reference_;
  g.engine = w->last_engine_;
  for (const Finding& f : *again)
    if (f.category == g.shrunk->finding.category &&
        (g.shrunk->finding.rulings.empty() ||
         std::any_of(f.rulings.begin(), f.rulings.end(),
                     [&](const std::string& r) { return g.shrunk->finding.rulings.count(r) > 0; })))
      g.shrunk->finding = f;
  return Status::Ok();
}

// Shrink the smallest examples of each group, one group per engine at a time.
void ShrinkGroups(CheckRun& run, std::vector<std::unique_ptr<Worker>>& workers) {
  std::vector<Group*> groups;
  for (auto& [k, g] : run.pre) groups.push_back(&g);
  std::atomic<size_t> next{0}, shrunk{0};
  OnEveryWorker(
      workers, run.mu,
      [&](Worker* w) {
        for (size_t gi; !run.stop && (gi = next++) < groups.size();) {
          Status s = ShrinkGroup(*groups[gi], w, run.opts);
          ++shrunk;
          if (!s.ok()) {
            std::lock_guard<std::mutex> lock(run.mu);
            run.Failed(s);
          }
        }
      },
      [&] { run.Progress("shrinking groups", shrunk, "/" + std::to_string(groups.size())); });
}

// Groups whose examples shrank to the same category and rulings, as one: their count, sources
// and smallest example. `best` is set to the group holding that example.
json MergedGroup(const std::vector<const Group*>& gs, const Declared& d, const Group*& best_out) {
  const Group* best = gs[0];
  Group all;  // the sources of the merged groups
  int count = 0;
  for (const Group* g : gs) {
    count += g->count;
    if (SizeOf(g->shrunk->query) < SizeOf(best->shrunk->query)) best = g;
    all.sources_cut |= g->sources_cut;
    for (const auto& [src, i] : g->sources) {
      Query q;
      q.source = src;
      q.index = i;
      all.AddSource(q);
    }
  }
  const Shrunk& sh = *best->shrunk;
  const Finding& f = sh.finding;
  json ref = best->reference, eng = best->engine;
  for (json* a : {&ref, &eng})
    for (const char* k : {"id", "ok", "rulings", "verdict_rulings", "note_rulings"}) a->erase(k);
  json ex = {{"kind", sh.query.kind},
             {"source", sh.query.source},
             {"size", Size(sh.query)},
             {"expansions", sh.query.expansions},
             {"diff", f.diff},
             {"explain", f.explain},
             {"position", sh.query.position},
             {"reference", ref},
             {"engine", eng},
             {"shrink", {{"tries", sh.tries}, {"local_minimum", sh.local_minimum}}}};
  if (sh.query.kind == "apply") ex["action"] = sh.query.action;
  if (!f.attributed.empty()) ex["attributed"] = f.attributed;
  json g = {{"category", f.category},   {"rulings", f.rulings},           {"count", count},
            {"queries", all.Sources()}, {"queries_cut", all.sources_cut}, {"example", ex}};
  if (gs[0]->deviation) {
    json reasons = json::array();
    for (const auto& r : f.rulings)
      if (d.deviations.count(r)) reasons.push_back({{"ruling", r}, {"reason", d.deviations.at(r)}});
    g["declared_deviation"] = reasons;
  }
  best_out = best;
  return g;
}

// The report's groups and declared deviations, largest first (ties: category and rulings, as
// keyed); each group's example also goes to rep.examples for --rerun.
void WriteGroups(const CheckRun& run, Report& rep) {
  std::map<std::string, std::vector<const Group*>> merged;
  for (const auto& [k, g] : run.pre)
    merged[(g.deviation ? "deviation|" : "") + GroupKey(g.shrunk->finding)].push_back(&g);
  std::vector<std::pair<json, const Group*>> out_groups, out_devs;
  for (auto& [key, gs] : merged) {
    const Group* best = nullptr;
    json g = MergedGroup(gs, run.d, best);
    (gs[0]->deviation ? out_devs : out_groups).push_back({g, best});
  }
  auto by_count = [](const auto& a, const auto& b) {
    return a.first["count"].template get<int>() > b.first["count"].template get<int>();
  };
  std::stable_sort(out_groups.begin(), out_groups.end(), by_count);
  std::stable_sort(out_devs.begin(), out_devs.end(), by_count);
  json groups_json = json::array(), devs_json = json::array();
  for (auto& [g, best] : out_groups) {
    groups_json.push_back(g);
    rep.examples.push_back(AsApply(best->shrunk->query, best->shrunk->finding));
    json meta = {{"category", g["category"]}, {"rulings", g["rulings"]}, {"count", g["count"]}};
    if (best->shrunk->query.kind == "legal" && rep.examples.back().kind == "apply")
      meta["found_by"] = "legal";
    rep.example_meta.push_back(meta);
  }
  for (auto& [g, best] : out_devs) devs_json.push_back(g);
  json summary = {{"queries", run.mine},
                  {"checked", run.sent},
                  {"skipped", run.mine - run.sent},
                  {"skipped_because", run.skipped},
                  {"disagreeing_queries", run.disagreeing},
                  {"groups", groups_json.size()},
                  {"deviation_groups", devs_json.size()}};
  for (auto& [g, c] : run.per_exp)
    summary["per_expansion"][g] = {{"checked", c.first}, {"disagreeing", c.second}};
  rep.json["summary"] = summary;
  rep.json["groups"] = groups_json;
  rep.json["declared_deviations"] = devs_json;
  rep.exit_code = groups_json.empty() ? 0 : 1;
}

}  // namespace

Report Check(const SuiteOptions& sopts, const CheckOptions& opts) {
  Report rep;
  auto fail_with = [&](const Status& s) {
    rep.exit_code = static_cast<int>(s.code());
    rep.json["error"] = s.message();
    return rep;
  };
  auto fail = [&](const std::string& msg) {  // the engine or the run failed: exit 74
    rep.exit_code = 74;
    rep.json["error"] = msg;
    return rep;
  };
  std::unique_ptr<Trace> trace;
  if (!opts.trace.empty()) {
    trace = std::make_unique<Trace>();
    if (auto s = trace->Open(opts.trace); !s.ok()) return fail_with(s);
  }
  std::vector<std::unique_ptr<Worker>> workers;
  for (int j = 0; j < std::max(opts.jobs, 1); ++j) {
    workers.push_back(std::make_unique<Worker>(j, trace.get()));
    if (auto s = workers.back()->Start(opts); !s.ok()) return fail(s.message());
  }
  auto declared = ReadHello(workers[0]->hello());
  if (!declared.ok()) return fail(declared.status().message());
  const Declared& d = *declared;
  rep.json["engine"] = d.name;
  auto suite = SuiteReader::Open(sopts, DeclaredCombinations(d));
  if (!suite.ok()) return fail_with(suite.status());
  CheckRun run(sopts, opts, d, **suite);
  RunQueries(run, workers);
  if (!run.first.ok()) {
    if (opts.progress) std::cerr << "\n";
    return fail(run.first.message());
  }
  // A run that checked nothing would pass without a check: the hello admits none of the
  // queries asked (every one skipped). PROTOCOL.md refuses a hello that admits no position for
  // that reason (74); this is the same run reached through --only or --rerun. A shard of a
  // larger run may check none: the merge counts the run.
  if (run.sent == 0 && run.shards == 1) {
    if (opts.progress) std::cerr << "\n";
    for (auto& w : workers) (void)w->Quit();  // the run fails for the reason below either way
    std::string why;
    for (const auto& [reason, n] : run.skipped)
      why += (why.empty() ? "" : ", ") + reason + ": " + std::to_string(n);
    return fail("nothing checked: the engine's hello admits none of the " +
                std::to_string(run.mine) + " queries (skipped: " + why +
                "), and a run that checks nothing cannot pass (PROTOCOL.md)");
  }
  // The run, as `carc conform merge` keys it: the same engine answer to hello, seed, random
  // count and suite (every query's request) give the same run, whichever shard checked it.
  rep.json["run"] = {{"engine", d.name},
                     {"hello", database::Sha256Hex(workers[0]->hello().dump()).substr(0, 16)},
                     {"seed", sopts.seed},
                     {"random", sopts.random},
                     {"cases", run.total},
                     {"suite", database::Sha256Hex(run.suite_hash).substr(0, 16)}};
  rep.json["shard"] = {{"k", run.shard}, {"n", run.shards}};
  if (!sopts.only.empty()) rep.json["only"] = sopts.only;
  ShrinkGroups(run, workers);
  if (opts.progress) std::cerr << "\n";
  if (!run.first.ok()) return fail(run.first.message());
  Status quit = Status::Ok();
  for (auto& w : workers)
    if (Status s = w->Quit(); !s.ok() && quit.ok()) quit = s;
  if (!quit.ok()) return fail(quit.message());
  WriteGroups(run, rep);
  return rep;
}

namespace {

// "BASE-END-FARM (Farms at the end of the game)": an ID with its title, when the build knows it.
std::string Titled(const json& ids) {
  std::string out;
  for (const json& id : ids) {
    if (!id.is_string()) continue;
    out += (out.empty() ? "" : "; ") + id.get<std::string>();
    if (const RulingEntry* r = EmbeddedRuling(id.get<std::string>()); r && !r->title.empty())
      out += " (" + r->title + ")";
  }
  return out;
}

// The reference's reasons: a verdict's, or the score events a difference is attributed to.
std::string ExplainText(const json& explain) {
  std::string out;
  for (const json& e : explain) {
    if (e.contains("reason")) {
      out += "  reference verdict: " + e["reason"].get<std::string>() + "  [" +
             Titled(e["rulings"]) + "]\n";
      continue;
    }
    std::string where;
    if (e.contains("at") && e["at"].is_object())
      where = " at (" + e["at"].value("x", json(0)).dump() + ", " +
              e["at"].value("y", json(0)).dump() + ") " + e["at"].value("feature", "");
    std::string players;
    for (const json& p : e.value("players", json::array()))
      players += (players.empty() ? "" : ", ") + (p.is_string() ? p.get<std::string>() : p.dump());
    out += "  reference score: " + e.value("feature", std::string("points")) + where + ": " +
           e.value("formula", std::string()) + " = " + e.value("points", json(0)).dump() + " to " +
           (players.empty() ? "nobody" : players) + "  [" + Titled(e["rulings"]) + "]\n";
  }
  return out;
}

}  // namespace

std::string ReportText(const json& r) {
  // The engine's own words (its name, its deviations' reasons) with controls escaped: an ESC
  // or a C1 control in them would reach the terminal the report is printed on.
  std::string out = "engine: " + model::EscapeControls(r.value("engine", std::string("?"))) + "\n";
  if (r.contains("shard") && r["shard"]["n"].get<size_t>() > 1)
    out += "shard " + r["shard"]["k"].dump() + "/" + r["shard"]["n"].dump() + " of the run's " +
           r["run"]["cases"].dump() + " queries\n";
  const json& s = r["summary"];
  int n = 0;
  for (const json& g : r["groups"]) {
    const json& ex = g["example"];
    const json& sz = ex["size"];
    std::string rulings;
    for (const json& id : g["rulings"])
      rulings += (rulings.empty() ? "" : ", ") + id.get<std::string>();
    out += "\n[" + std::to_string(++n) + "] " + g["category"].get<std::string>() + "  [" + rulings +
           "]  " + std::to_string(g["count"].get<int>()) + " queries\n";
    out += "  smallest example: " + ex["kind"].get<std::string>() + " on " +
           std::to_string(sz["tiles"].get<size_t>()) + " tiles, " +
           std::to_string(sz["players"].get<size_t>()) + " players, " +
           std::to_string(sz["figures"].get<size_t>()) + " figures, " +
           std::to_string(sz["draw_order"].get<size_t>()) + " tiles to draw" +
           (ex["shrink"]["local_minimum"].get<bool>() ? "" : " (shrink budget ran out)") +
           "; from " + ex["source"].get<std::string>() + "\n";
    if (ex.contains("action")) out += "  action: " + ex["action"].dump() + "\n";
    out += DiffText(ex["diff"]);
    out += ExplainText(ex.value("explain", json::array()));
    out += "  position: " + ex["position"].dump() + "\n";
    std::string also;
    for (const json& q : g["queries"]) also += (also.empty() ? "" : "; ") + q.get<std::string>();
    out += "  seen in: " + also + (g.value("queries_cut", false) ? "; ..." : "") + "\n";
  }
  for (const json& g : r["declared_deviations"]) {
    std::string why;
    for (const json& d : g.value("declared_deviation", json::array()))
      why += (why.empty() ? "" : "; ") + model::EscapeControls(d.value("reason", std::string()));
    out += "deviation (declared): " + g["category"].get<std::string>() + " " + g["rulings"].dump() +
           ", " + std::to_string(g["count"].get<int>()) + " queries" +
           (why.empty() ? "" : " (\"" + why + "\")") + "\n";
  }
  out += "\n";
  if (s.contains("per_expansion"))
    for (auto it = s["per_expansion"].begin(); it != s["per_expansion"].end(); ++it)
      out += "  " + it.key() + ": " + std::to_string(it.value()["checked"].get<int>()) +
             " checked, " + std::to_string(it.value()["disagreeing"].get<int>()) + " disagree\n";
  std::string skipped;
  for (auto it = s["skipped_because"].begin(); it != s["skipped_because"].end(); ++it)
    skipped +=
        (skipped.empty() ? " (" : ", ") + it.key() + ": " + std::to_string(it.value().get<int>());
  if (!skipped.empty()) skipped += ")";
  out += std::to_string(s["checked"].get<size_t>()) + " queries checked, " +
         std::to_string(s["skipped"].get<size_t>()) + " skipped" + skipped + "; " +
         std::to_string(s["disagreeing_queries"].get<int>()) + " disagree, in " +
         std::to_string(s["groups"].get<size_t>()) + " groups; " +
         std::to_string(s["deviation_groups"].get<size_t>()) + " declared deviation groups\n";
  return out;
}

}  // namespace carc::adjudicator::conform

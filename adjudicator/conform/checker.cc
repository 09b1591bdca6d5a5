#include "adjudicator/conform/checker.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include "adjudicator/conform/engine.h"
#include "adjudicator/conform/process.h"
#include "adjudicator/conform/shrink.h"
#include "database/sha256.h"

namespace carc::adjudicator::conform {

using model::ErrorCode;
using model::Status;
using nlohmann::json;

model::StatusOr<Declared> ReadHello(const json& h) {
  auto bad = [&](const std::string& what) {
    return Status(ErrorCode::kIo,
                  "engine's hello answer: " + what + " (PROTOCOL.md): " + h.dump().substr(0, 300));
  };
  if (!h.value("ok", false) || h.value("protocol", json()) != kProtocolVersion)
    return bad("it does not accept protocol " + std::to_string(kProtocolVersion));
  Declared d;
  d.name = h.value("name", json("engine")).is_string() ? h.value("name", "engine") : "engine";
  const json exps = h.value("expansions", json::array());
  if (!exps.is_array()) return bad("\"expansions\" must be an array of expansion ids");
  for (const json& e : exps) {
    if (!e.is_string()) return bad("\"expansions\" must be an array of expansion ids");
    d.expansions.insert(e.get<std::string>());
  }
  const json opts = h.value("options", json::object());
  if (!opts.is_object()) return bad("\"options\" must be an object of arrays");
  for (auto it = opts.begin(); it != opts.end(); ++it) {
    if (!it.value().is_array()) return bad("\"options/" + it.key() + "\" must be an array");
    auto& set = d.options[it.key()];
    for (const json& v : it.value()) {
      if (!v.is_string()) return bad("\"options/" + it.key() + "\" must hold strings");
      set.insert(v.get<std::string>());
    }
  }
  const json devs = h.value("deviations", json::array());
  if (!devs.is_array()) return bad("\"deviations\" must be an array");
  for (const json& dv : devs) {
    if (!dv.is_object() || !dv.value("ruling", json()).is_string())
      return bad("each deviation needs a \"ruling\" string");
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
  Status Start(const CheckOptions& o) {
    if (auto s = proc_.Start(o.engine, o.timeout); !s.ok()) return s;
    auto hello = proc_.Ask({{"id", 0}, {"cmd", "hello"}, {"protocol", kProtocolVersion}});
    if (!hello.ok()) return hello.status();
    hello_ = *hello;
    return Status::Ok();
  }
  const json& hello() const { return hello_; }
  // The findings of one query; error: the engine failed.
  model::StatusOr<std::vector<Finding>> Run(const Query& q) {
    json req = Request(q);
    req["id"] = ++id_;
    auto eng = proc_.Ask(req);
    if (!eng.ok()) return eng.status();
    if (auto s = CheckAnswerTypes(q, *eng); !s.ok()) return s;
    last_engine_ = *eng;
    last_reference_ = Answer(req, -1);
    return Compare(q, last_reference_, *eng);
  }
  void Quit() {
    proc_.Ask({{"id", ++id_}, {"cmd", "quit"}});
    proc_.Stop();
  }
  json last_engine_, last_reference_;

 private:
  EngineProcess proc_;
  json hello_;
  int id_ = 0;
};

struct Member {
  size_t query;
  Finding finding;
};

struct Group {
  std::vector<Member> members;
  std::optional<Shrunk> shrunk;
  json reference, engine;  // the answers to the shrunk example
  std::string key;         // after shrinking
};

// Runs `work(worker, i)` for i in [0, n) over the workers, first error wins.
template <typename Work>
Status Parallel(std::vector<std::unique_ptr<Worker>>& workers, size_t n, Work work,
                const std::function<void(size_t)>& progress) {
  std::atomic<size_t> next{0}, done{0};
  std::atomic<bool> stop{false};
  std::mutex mu;
  Status first = Status::Ok();
  std::vector<std::thread> threads;
  for (auto& w : workers)
    threads.emplace_back([&, w = w.get()] {
      for (size_t i; !stop && (i = next++) < n;) {
        Status s = work(*w, i);
        ++done;
        if (!s.ok()) {
          std::lock_guard<std::mutex> lock(mu);
          if (first.ok()) first = s;
          stop = true;
        }
      }
    });
  while (done < n && !stop) {
    progress(done);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  for (auto& t : threads) t.join();
  return first;
}

json Size(const Query& q) {
  auto s = SizeOf(q);
  return {{"tiles", s[0]},
          {"players", s[1]},
          {"figures", s[2]},
          {"draw_order", s[3]},
          {"expansions", s[4]}};
}

}  // namespace

Report Check(const SuiteOptions& sopts, const CheckOptions& opts) {
  Report rep;
  auto fail = [&](const std::string& msg) {
    rep.exit_code = 74;
    rep.json["error"] = msg;
    return rep;
  };
  std::vector<std::unique_ptr<Worker>> workers;
  for (int j = 0; j < std::max(opts.jobs, 1); ++j) {
    workers.push_back(std::make_unique<Worker>());
    if (auto s = workers.back()->Start(opts); !s.ok()) return fail(s.message());
  }
  auto declared = ReadHello(workers[0]->hello());
  if (!declared.ok()) return fail(declared.status().message());
  const Declared& d = *declared;
  rep.json["engine"] = d.name;
  auto suite = BuildSuite(sopts, DeclaredCombinations(d));
  if (!suite.ok()) {
    rep.exit_code = static_cast<int>(suite.status().code());
    rep.json["error"] = suite.status().message();
    return rep;
  }
  // The run, as `carc conform merge` keys it: the same engine answer to hello, seed, random
  // count and suite (every query's request) give the same run, whichever shard checked it.
  std::string digests;
  for (const Query& q : *suite) digests += database::Sha256Hex(Request(q).dump());
  rep.json["run"] = {{"engine", d.name},
                     {"hello", database::Sha256Hex(workers[0]->hello().dump()).substr(0, 16)},
                     {"seed", sopts.seed},
                     {"random", sopts.random},
                     {"cases", suite->size()},
                     {"suite", database::Sha256Hex(digests).substr(0, 16)}};
  const size_t shards = static_cast<size_t>(std::max(sopts.shards, 1));
  const size_t shard = static_cast<size_t>(std::clamp(sopts.shard, 1, sopts.shards));
  rep.json["shard"] = {{"k", shard}, {"n", shards}};
  std::vector<size_t> send, mine;  // checked; every query of the shard
  std::map<std::string, int> skipped;
  for (size_t i = 0; i < suite->size(); ++i) {
    if (i % shards != shard - 1) continue;
    mine.push_back(i);
    std::string why = SkipReason((*suite)[i], d);
    if (why.empty())
      send.push_back(i);
    else
      skipped[why]++;
  }
  // Progress on a terminal: one line, rewritten.
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<size_t> found{0};
  auto progress = [&](const std::string& what, size_t done, size_t total) {
    if (!opts.progress) return;
    auto secs =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - t0);
    std::cerr << "\rconform: " << what << " " << done << "/" << total << ", " << found
              << " disagreeing queries, " << secs.count() << " s   " << std::flush;
  };
  std::vector<std::vector<Finding>> results(send.size());
  Status s = Parallel(
      workers, send.size(),
      [&](Worker& w, size_t i) {
        auto f = w.Run((*suite)[send[i]]);
        if (!f.ok())
          return Status(f.status().code(),
                        f.status().message() + " (query from " + (*suite)[send[i]].source + ")");
        if (!f->empty()) ++found;
        results[i] = std::move(*f);
        return Status::Ok();
      },
      [&](size_t done) { progress("queries", done, send.size()); });
  if (!s.ok()) {
    if (opts.progress) std::cerr << "\n";
    return fail(s.message());
  }
  // Group by category and rulings; findings involving a declared deviation apart.
  std::map<std::string, Group> pre;
  std::map<std::string, std::pair<int, int>> per_exp;  // checked, disagreeing
  std::map<size_t, json> records;                      // suite index -> case record
  auto exp_name = [](const Query& q) {
    std::string ex;
    for (const auto& e : q.expansions) ex += (ex.empty() ? "" : "+") + e;
    return ex.empty() ? std::string("base") : ex;
  };
  for (size_t i : mine) {
    const Query& q = (*suite)[i];
    records[i] = {{"case", i}, {"kind", q.kind}, {"source", q.source}, {"expansions", exp_name(q)}};
    if (std::string why = SkipReason(q, d); !why.empty()) records[i]["skipped"] = why;
  }
  for (size_t i = 0; i < send.size(); ++i) {
    const Query& q = (*suite)[send[i]];
    auto& pe = per_exp[exp_name(q)];
    pe.first++;
    bool counted = false;
    json findings = json::array();
    for (const Finding& f : results[i]) {
      bool dev = std::any_of(f.rulings.begin(), f.rulings.end(),
                             [&](const std::string& r) { return d.deviations.count(r) > 0; });
      if (!dev && !counted) pe.second++, counted = true;
      pre[(dev ? "deviation|" : "") + GroupKey(f)].members.push_back({send[i], f});
      findings.push_back({{"category", f.category}, {"rulings", f.rulings}, {"deviation", dev}});
    }
    records[send[i]]["findings"] = findings;
  }
  for (auto& [i, r] : records) rep.cases.push_back(std::move(r));
  // Shrink the smallest examples of each group, one group per engine at a time.
  std::vector<Group*> groups;
  for (auto& [k, g] : pre) {
    std::stable_sort(g.members.begin(), g.members.end(), [&](const Member& a, const Member& b) {
      return SizeOf((*suite)[a.query]) < SizeOf((*suite)[b.query]);
    });
    groups.push_back(&g);
  }
  s = Parallel(
      workers, groups.size(),
      [&](Worker& w, size_t gi) {
        Group& g = *groups[gi];
        Oracle ask = [&](const Query& c) { return w.Run(c); };
        for (size_t m = 0; m < g.members.size() && m < size_t(opts.shrink_candidates); ++m) {
          auto sh = Shrink((*suite)[g.members[m].query], g.members[m].finding, ask,
                           opts.max_shrink_steps);
          if (!sh.ok()) return sh.status();
          if (!g.shrunk || SizeOf(sh->query) < SizeOf(g.shrunk->query)) g.shrunk = *sh;
        }
        // The answers to the example as shown.
        auto again = w.Run(g.shrunk->query);
        if (!again.ok()) return again.status();
        g.reference = w.last_reference_;
        g.engine = w.last_engine_;
        for (const Finding& f : *again)
          if (f.category == g.shrunk->finding.category) g.shrunk->finding = f;
        return Status::Ok();
      },
      [&](size_t done) { progress("shrinking groups", done, groups.size()); });
  if (opts.progress) std::cerr << "\n";
  if (!s.ok()) return fail(s.message());
  for (auto& w : workers) w->Quit();
  // Groups whose examples shrank to the same category and rulings are one group.
  std::map<std::string, std::vector<Group*>> merged;
  for (auto& [k, g] : pre)
    merged[(k.rfind("deviation|", 0) == 0 ? "deviation|" : "") + GroupKey(g.shrunk->finding)]
        .push_back(&g);
  json out_groups = json::array(), out_devs = json::array();
  for (auto& [key, gs] : merged) {
    Group* best = gs[0];
    int count = 0;
    json sources = json::array();
    for (Group* g : gs) {
      count += static_cast<int>(g->members.size());
      if (SizeOf(g->shrunk->query) < SizeOf(best->shrunk->query)) best = g;
    }
    std::set<std::string> seen;
    for (Group* g : gs)
      for (const Member& m : g->members)
        if (seen.insert((*suite)[m.query].source).second && sources.size() < 20)
          sources.push_back((*suite)[m.query].source);
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
               {"position", sh.query.position},
               {"reference", ref},
               {"engine", eng},
               {"shrink", {{"tries", sh.tries}, {"local_minimum", sh.local_minimum}}}};
    if (sh.query.kind == "apply") ex["action"] = sh.query.action;
    json g = {{"category", f.category},
              {"rulings", f.rulings},
              {"count", count},
              {"queries", sources},
              {"example", ex}};
    if (key.rfind("deviation|", 0) == 0) {
      json reasons = json::array();
      for (const auto& r : f.rulings)
        if (d.deviations.count(r))
          reasons.push_back({{"ruling", r}, {"reason", d.deviations.at(r)}});
      g["declared_deviation"] = reasons;
      out_devs.push_back(g);
    } else {
      out_groups.push_back(g);
      rep.examples.push_back(sh.query);
      rep.example_meta.push_back(
          {{"category", f.category}, {"rulings", f.rulings}, {"count", count}});
    }
  }
  json summary = {{"queries", mine.size()},
                  {"checked", send.size()},
                  {"skipped", mine.size() - send.size()},
                  {"skipped_because", skipped},
                  {"disagreeing_queries", 0},
                  {"groups", out_groups.size()},
                  {"deviation_groups", out_devs.size()}};
  int disagreeing = 0;
  for (auto& [g, c] : per_exp) {
    summary["per_expansion"][g] = {{"checked", c.first}, {"disagreeing", c.second}};
    disagreeing += c.second;
  }
  summary["disagreeing_queries"] = disagreeing;
  rep.json["summary"] = summary;
  rep.json["groups"] = out_groups;
  rep.json["declared_deviations"] = out_devs;
  rep.exit_code = out_groups.empty() ? 0 : 1;
  return rep;
}

std::string ReportText(const json& r) {
  std::string out = "engine: " + r.value("engine", std::string("?")) + "\n";
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
    out += "  position: " + ex["position"].dump() + "\n";
    std::string also;
    for (const json& q : g["queries"]) also += (also.empty() ? "" : "; ") + q.get<std::string>();
    out += "  seen in: " + also + (g["count"].get<int>() > 20 ? "; ..." : "") + "\n";
  }
  for (const json& g : r["declared_deviations"])
    out += "deviation (declared): " + g["category"].get<std::string>() + " " + g["rulings"].dump() +
           ", " + std::to_string(g["count"].get<int>()) + " queries\n";
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

// `carc conform merge --db FILE REPORT...` (registered in cmd_conform.cc): the queries of
// sharded conformance reports into the database, mirroring `carc fuzz merge` (soak_games).
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <vector>

#include "adjudicator/conform/checker.h"
#include "adjudicator/conform/compare.h"
#include "adjudicator/conform/merge.h"
#include "adjudicator/exit_codes.h"
#include "adjudicator/rulings_catalog.h"
#include "database/db.h"
#include "database/migrate.h"
#include "model/core/input_file.h"
#include "model/core/json_reader.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator::conform {

namespace {

namespace db = carc::database;
using nlohmann::json;

// The run a report belongs to: queries of one run are merged, whichever shard checked them.
// Throws json::exception on a report without the fields.
std::string RunKey(const json& run) {
  return "engine=" + run.at("engine").get<std::string>() +
         " hello=" + run.at("hello").get<std::string>() +
         " seed=" + std::to_string(run.at("seed").get<uint64_t>()) +
         " random=" + std::to_string(run.at("random").get<int64_t>()) +
         " cases=" + std::to_string(run.at("cases").get<int64_t>()) +
         " suite=" + run.at("suite").get<std::string>();
}

// What a JSON value is, for messages ("a string", "the number 5").
std::string Kind(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_string()) return "the string " + v.dump().substr(0, 60);
  if (v.is_boolean() || v.is_number()) return v.dump();
  return v.is_array() ? "an array" : "an object";
}

// Empty when j[key] (at pointer `at`) exists and has the type `ok` tests, else what is wrong.
template <typename Ok>
std::string Need(const json& j, const std::string& at, const char* key, const char* what, Ok ok) {
  const std::string where = at + "/" + key;
  if (!j.is_object() || !j.contains(key)) return where + ": missing (expected " + what + ")";
  if (!ok(j[key])) return where + ": expected " + what + ", found " + Kind(j[key]);
  return "";
}
bool IsString(const json& v) { return v.is_string(); }
bool IsCount(const json& v) { return v.is_number_integer() && v.get<int64_t>() >= 0; }
bool IsBool(const json& v) { return v.is_boolean(); }
bool IsStrings(const json& v) {
  return v.is_array() &&
         std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_string(); });
}

const std::set<std::string> kCaseKeys = {"case",       "kind",    "source",
                                         "expansions", "skipped", "findings"};
const std::set<std::string> kCategories = {conform::kAcceptsIllegal, conform::kRejectsLegal,
                                           conform::kScores, conform::kPosition,
                                           conform::kUnreadable};
std::string KnownCategories() {
  std::string out;
  for (const std::string& c : kCategories) out += (out.empty() ? "" : ", ") + c;
  return out;
}

// Every key of object `j` (at `at`) is one of `keys`; else "<at>/<key>: unknown field (...)".
std::string OnlyKeys(const json& j, const std::string& at, const std::set<std::string>& keys) {
  if (!j.is_object()) return "";
  for (const auto& [key, value] : j.items())
    if (!keys.count(key)) {
      std::string known;
      for (const std::string& k : keys) known += (known.empty() ? "" : ", ") + k;
      return at + "/" + model::JsonPointerToken(key) + ": unknown field (" + known + ")";
    }
  return "";
}

// The hashes a report names a run by: 16 lower-case hex digits (checker.cc).
bool IsHash(const json& v) {
  if (!v.is_string() || v.get<std::string>().size() != 16) return false;
  const std::string h = v.get<std::string>();
  return std::all_of(h.begin(), h.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}
bool IsSeed(const json& v) { return IsCount(v) && v.get<uint64_t>() <= 0xFFFFFFFFull; }
bool IsRandom(const json& v) { return IsCount(v) && v.get<int64_t>() <= kMaxRandom; }
bool IsText(const json& v) { return v.is_string() && !v.get<std::string>().empty(); }

// A case's expansions as the checker writes them: "base", or expansion ids of this model joined
// by "+", each once. Empty when it is one, else what is wrong.
std::string CheckExpansions(const std::string& e) {
  if (e == "base") return "";
  const std::vector<std::string> ids = exp::Ids();
  std::set<std::string> seen;
  size_t start = 0;
  for (;;) {
    const size_t plus = e.find('+', start);
    const std::string id = e.substr(start, plus == std::string::npos ? plus : plus - start);
    if (std::find(ids.begin(), ids.end(), id) == ids.end())
      return "\"" + id.substr(0, 60) +
             "\" is not an expansion of this model (\"base\", or ids "
             "joined by +)";
    if (!seen.insert(id).second) return "\"" + id + "\" named twice";
    if (plus == std::string::npos) return "";
    start = plus + 1;
  }
}

// The report's summary counts what its cases say (checker.cc writes both from one run): a
// summary that does not would be stored beside rows that contradict it.
std::string CheckSummary(const json& j) {
  if (!j.contains("summary")) return "";
  if (!j["summary"].is_object()) return "/summary: expected an object, found " + Kind(j["summary"]);
  const json& s = j["summary"];
  if (auto e = OnlyKeys(s, "/summary",
                        {"queries", "checked", "skipped", "skipped_because", "disagreeing_queries",
                         "groups", "deviation_groups", "per_expansion"});
      !e.empty())
    return e;
  int64_t checked = 0, skipped = 0, disagreeing = 0;
  std::map<std::string, int64_t> because;
  std::map<std::string, std::pair<int64_t, int64_t>> per_exp_count;  // checked, disagreeing
  for (const json& c : j["cases"]) {
    if (c.contains("skipped")) {
      ++skipped, ++because[c["skipped"].get<std::string>()];
      continue;
    }
    ++checked;
    bool disagrees = false;
    for (const json& f : c["findings"]) disagrees |= !f["deviation"].get<bool>();
    disagreeing += disagrees;
    auto& pe = per_exp_count[c["expansions"].get<std::string>()];
    ++pe.first, pe.second += disagrees;
  }
  json per_exp = json::object();
  for (const auto& [ex, n] : per_exp_count)
    per_exp[ex] = {{"checked", n.first}, {"disagreeing", n.second}};
  const json want = {{"queries", checked + skipped},
                     {"checked", checked},
                     {"skipped", skipped},
                     {"skipped_because", json(because)},
                     {"disagreeing_queries", disagreeing},
                     {"groups", j.value("groups", json::array()).size()},
                     {"deviation_groups", j.value("declared_deviations", json::array()).size()}};
  for (const auto& [key, value] : want.items())
    if (s.value(key, json()) != value)
      return "/summary/" + key + ": " + s.value(key, json()).dump().substr(0, 60) +
             ", but the report's cases (and groups) count " + value.dump().substr(0, 60);
  if (s.value("per_expansion", json::object()) != per_exp)
    return "/summary/per_expansion: " + s.value("per_expansion", json()).dump().substr(0, 100) +
           ", but the report's cases count " + per_exp.dump().substr(0, 100);
  return "";
}

// Empty when `j` is a well-formed report of `carc conform --report`, else what is wrong and
// where (a JSON pointer into the report).
std::string CheckReport(const json& j) {
  if (!j.is_object() || !j.contains("run") || !j.contains("shard") || !j.contains("cases"))
    return "not a report of carc conform --report (needs \"run\", \"shard\" and \"cases\")";
  // The fields the checker writes, and nothing else: a misspelt one would be dropped unread.
  if (auto e = OnlyKeys(
          j, "",
          {"engine", "run", "shard", "only", "summary", "groups", "declared_deviations", "cases"});
      !e.empty())
    return e;
  if (!j["cases"].is_array()) return "/cases: expected an array, found " + Kind(j["cases"]);
  if (!j["run"].is_object()) return "/run: expected an object, found " + Kind(j["run"]);
  if (!j["shard"].is_object()) return "/shard: expected an object, found " + Kind(j["shard"]);
  for (const auto& [key, what, ok] :
       std::vector<std::tuple<const char*, const char*, bool (*)(const json&)>>{
           {"engine", "a string", IsString},
           {"hello", "a string", IsString},
           {"seed", "a count", IsCount},
           {"random", "a count", IsCount},
           {"cases", "a count", IsCount},
           {"suite", "a string", IsString}})
    if (auto e = Need(j["run"], "/run", key, what, ok); !e.empty()) return e;
  // The values conform writes: --seed is 32-bit, --random at most kMaxRandom, the hashes 16
  // hex digits; another value names no run conform could have made.
  for (const auto& [key, what, ok] :
       std::vector<std::tuple<const char*, const char*, bool (*)(const json&)>>{
           {"hello", "a hash of 16 lower-case hex digits", IsHash},
           {"seed", "a seed from 0 to 4294967295 (--seed)", IsSeed},
           {"random", "a count from 0 to 1000000 (--random)", IsRandom},
           {"suite", "a hash of 16 lower-case hex digits", IsHash}})
    if (auto e = Need(j["run"], "/run", key, what, ok); !e.empty()) return e;
  if (auto e = OnlyKeys(j["run"], "/run", {"engine", "hello", "seed", "random", "cases", "suite"});
      !e.empty())
    return e;
  for (const char* key : {"k", "n"})
    if (auto e = Need(j["shard"], "/shard", key, "a count", IsCount); !e.empty()) return e;
  if (auto e = OnlyKeys(j["shard"], "/shard", {"k", "n"}); !e.empty()) return e;
  // The report names its engine twice (top level and run): one name, or which is it?
  if (j.contains("engine") && j["engine"] != j["run"]["engine"])
    return "/engine: " + Kind(j["engine"]) + ", but /run/engine is " + Kind(j["run"]["engine"]);
  if (j.contains("only") && !IsText(j["only"]))
    return "/only: expected the source the run was limited to, found " + Kind(j["only"]);
  for (const char* key : {"groups", "declared_deviations"})
    if (j.contains(key) && !j[key].is_array())
      return std::string("/") + key + ": expected an array, found " + Kind(j[key]);
  const int64_t total = j["run"]["cases"].get<int64_t>();
  const int64_t k = j["shard"]["k"].get<int64_t>(), n = j["shard"]["n"].get<int64_t>();
  if (n < 1 || k < 1 || k > n) return "/shard: not K/N with 1 <= K <= N";
  for (size_t i = 0; i < j["cases"].size(); ++i) {
    const json& c = j["cases"][i];
    const std::string at = "/cases/" + std::to_string(i);
    if (!c.is_object()) return at + ": expected an object, found " + Kind(c);
    if (auto e = Need(c, at, "case", "a count", IsCount); !e.empty()) return e;
    const int64_t q = c["case"].get<int64_t>();
    if (q >= total) return at + ": case " + std::to_string(q) + " is not in the run";
    if (q % n != k - 1)
      return at + ": case " + std::to_string(q) + " does not belong to shard " + std::to_string(k) +
             "/" + std::to_string(n);
    for (const char* key : {"kind", "source", "expansions"}) {
      if (auto e = Need(c, at, key, "a string", IsString); !e.empty()) return e;
      if (c[key].get<std::string>().empty())
        return at + "/" + key + ": empty (expected a non-empty string)";
    }
    if (auto e = CheckExpansions(c["expansions"].get<std::string>()); !e.empty())
      return at + "/expansions: " + e;
    if (c["kind"] != "legal" && c["kind"] != "apply" && c["kind"] != "final_score")
      return at + "/kind: expected legal, apply or final_score, found " + Kind(c["kind"]);
    for (const auto& [key, value] : c.items())
      if (!kCaseKeys.count(key))
        return at + "/" + key +
               ": unknown field (case, kind, source, expansions, skipped, findings)";
    // A query is skipped (with its reason) or checked (with its findings, maybe none), never
    // both: stored as skipped, its findings would be dropped unread.
    if (c.contains("skipped")) {
      if (auto e = Need(c, at, "skipped", "a string", IsString); !e.empty()) return e;
      if (c["skipped"].get<std::string>().empty())
        return at + "/skipped: empty (the reason the query was not checked)";
      if (c.contains("findings"))
        return at + ": both skipped and findings (a query is skipped or checked, not both)";
      continue;
    }
    if (auto e = Need(c, at, "findings", "an array", [](const json& v) { return v.is_array(); });
        !e.empty())
      return e;
    for (size_t fi = 0; fi < c["findings"].size(); ++fi) {
      const json& f = c["findings"][fi];
      const std::string fat = at + "/findings/" + std::to_string(fi);
      if (!f.is_object()) return fat + ": expected an object, found " + Kind(f);
      if (auto e = Need(f, fat, "category", "a string", IsString); !e.empty()) return e;
      if (auto e = Need(f, fat, "rulings", "an array of strings", IsStrings); !e.empty()) return e;
      if (auto e = Need(f, fat, "deviation", "true or false", IsBool); !e.empty()) return e;
      for (const auto& [key, value] : f.items())
        if (key != "category" && key != "rulings" && key != "deviation")
          return fat + "/" + key + ": unknown field (category, rulings, deviation)";
      // Findings are grouped by category and rulings: an unknown category or a ruling named
      // twice would make a group of its own for one wrong rule.
      if (!kCategories.count(f["category"].get<std::string>()))
        return fat + "/category: unknown category " + Kind(f["category"]) + " (" +
               KnownCategories() + ")";
      std::set<std::string> seen;
      for (size_t ri = 0; ri < f["rulings"].size(); ++ri) {
        const std::string id = f["rulings"][ri].get<std::string>();
        // A ruling this model does not have would be a group of its own that no rule explains.
        if (!EmbeddedRuling(id))
          return fat + "/rulings/" + std::to_string(ri) + ": " + Kind(f["rulings"][ri]) +
                 " is not a ruling ID of this model (carc rulings list)";
        if (!seen.insert(id).second)
          return fat + "/rulings/" + std::to_string(ri) + ": ruling " + id + " given twice";
      }
      // A declared deviation is matched against a finding's rulings (PROTOCOL.md): a finding
      // citing none cannot be one, and counted as excused it would hide a disagreement.
      if (f["deviation"].get<bool>() && f["rulings"].empty())
        return fat +
               "/deviation: true, but the finding cites no ruling (a declared deviation "
               "is matched against its rulings)";
    }
  }
  return CheckSummary(j);
}

struct GroupSum {
  std::string category;
  json rulings;
  int count = 0;
  std::vector<std::string> sources;  // distinct, in suite order, at most 20
};

json GroupsJson(const std::map<std::string, GroupSum>& groups) {
  json out = json::array();
  for (const auto& [key, g] : groups)
    out.push_back({{"category", g.category},
                   {"rulings", g.rulings},
                   {"count", g.count},
                   {"queries", g.sources}});
  return out;
}

// Every report's run and its queries, in one transaction; `runs` lists the runs in the order
// first seen.
model::Status StoreReports(db::Connection& conn, const std::vector<json>& reports,
                           std::vector<std::string>& runs) {
  auto tx = db::Transaction::Begin(conn);
  if (!tx.ok()) return tx.status();
  auto run_ins = conn.Prepare(
      "INSERT OR REPLACE INTO conform_runs (run, engine, hello, seed, random, cases, suite) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  if (!run_ins.ok()) return run_ins.status();
  auto ins = conn.Prepare(
      "INSERT OR REPLACE INTO conform_queries (run, query, kind, source, expansions, skipped, "
      "findings) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  if (!ins.ok()) return ins.status();
  for (const json& j : reports) {  // checked by CheckReport: no json exception here
    const json& r = j["run"];
    const std::string run = RunKey(r);
    if (std::find(runs.begin(), runs.end(), run) == runs.end()) runs.push_back(run);
    run_ins->Bind(1, run)
        .Bind(2, r["engine"].get<std::string>())
        .Bind(3, r["hello"].get<std::string>())
        .Bind(4, static_cast<int64_t>(r["seed"].get<uint64_t>()))
        .Bind(5, r["random"].get<int64_t>())
        .Bind(6, r["cases"].get<int64_t>())
        .Bind(7, r["suite"].get<std::string>());
    if (auto s = run_ins->Run(); !s.ok()) return s;
    for (const json& c : j["cases"]) {
      ins->Bind(1, run)
          .Bind(2, c["case"].get<int64_t>())
          .Bind(3, c["kind"].get<std::string>())
          .Bind(4, c["source"].get<std::string>())
          .Bind(5, c["expansions"].get<std::string>())
          .Bind(6, c.value("skipped", std::string()))
          .Bind(7, c.value("findings", json::array()).dump());
      if (auto s = ins->Run(); !s.ok()) return s;
    }
  }
  return tx->Commit();
}

// Counts of one run's stored queries.
struct RunSum {
  int64_t merged = 0, checked = 0, skipped = 0, disagreeing = 0;
  std::map<std::string, int> skipped_because;
  std::map<std::string, std::pair<int, int>> per_exp;
  std::map<std::string, GroupSum> groups, devs;

  void Add(const std::string& source, const std::string& ex, const std::string& why,
           const json& findings) {
    ++merged;
    if (!why.empty()) {
      ++skipped, ++skipped_because[why];
      return;
    }
    ++checked, ++per_exp[ex].first;
    bool counted = false;
    for (const json& f : findings) {
      const bool dev = f["deviation"].get<bool>();
      if (!dev && !counted) ++disagreeing, ++per_exp[ex].second, counted = true;
      GroupSum& g =
          (dev ? devs : groups)[f["category"].get<std::string>() + "|" + f["rulings"].dump()];
      g.category = f["category"], g.rulings = f["rulings"], ++g.count;
      if (g.sources.size() < 20 &&
          std::find(g.sources.begin(), g.sources.end(), source) == g.sources.end())
        g.sources.push_back(source);
    }
  }
};

// The summary of one run, from every row stored for it (all shards merged so far). Counted as
// `carc conform` counts (checker.cc): a query disagrees when a finding of it cites no declared
// deviation; a group is a category and its rulings, counted per finding.
model::StatusOr<json> SummarizeRun(db::Connection& conn, const std::string& run) {
  auto r = conn.Prepare("SELECT engine, seed, random, cases FROM conform_runs WHERE run = ?1");
  if (!r.ok()) return r.status();
  r->Bind(1, run);
  if (auto row = r->Step(); !row.ok() || !*row)
    return row.ok() ? model::Status(model::ErrorCode::kIo, "run row missing") : row.status();
  json sum = {
      {"engine", r->Text(0)}, {"seed", r->Int(1)}, {"random", r->Int(2)}, {"cases", r->Int(3)}};
  auto q = conn.Prepare(
      "SELECT source, expansions, skipped, findings FROM conform_queries WHERE run = ?1 "
      "ORDER BY query");
  if (!q.ok()) return q.status();
  q->Bind(1, run);
  RunSum n;
  for (;;) {
    auto row = q->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    n.Add(q->Text(0), q->Text(1), q->Text(2), json::parse(q->Text(3)));
  }
  sum["merged"] = n.merged;
  sum["missing"] = sum["cases"].get<int64_t>() - n.merged;
  sum["checked"] = n.checked;
  sum["skipped"] = n.skipped;
  sum["skipped_because"] = n.skipped_because;
  sum["disagreeing_queries"] = n.disagreeing;
  for (const auto& [ex, c] : n.per_exp)
    sum["per_expansion"][ex] = {{"checked", c.first}, {"disagreeing", c.second}};
  sum["groups"] = GroupsJson(n.groups);
  sum["declared_deviations"] = GroupsJson(n.devs);
  return sum;
}

// The reports, each read by the one JSON reader (model/core/input_file.h: bounded, no
// duplicate key) and checked (CheckReport); 0, or the exit code after the message.
int ReadReports(const std::vector<std::string>& files, std::vector<json>& reports) {
  // Where each query of each run is given: a query given twice in the reports of one merge
  // (a case listed twice, a report named twice, two shards claiming one query) is refused
  // rather than one of its outcomes kept. Merging it again later replaces it, as documented.
  std::map<std::pair<std::string, int64_t>, std::string> given;
  for (const std::string& file : files) {
    auto text = model::ReadInputFile(file);
    if (!text.ok()) {
      std::cerr << "carc: conform merge: " << text.status().message() << "\n";
      return static_cast<int>(text.status().code());
    }
    auto j = model::ParseJsonText(*text, model::DisplayName(file));
    if (!j.ok()) {
      std::cerr << "carc: conform merge: " << j.status().message() << "\n";
      return kExitMalformed;
    }
    if (const std::string bad = CheckReport(*j); !bad.empty()) {
      std::cerr << "carc: conform merge: " << file << ": " << bad << "\n";
      return kExitMalformed;
    }
    const std::string run = RunKey((*j)["run"]);
    for (size_t i = 0; i < (*j)["cases"].size(); ++i) {
      const int64_t q = (*j)["cases"][i]["case"].get<int64_t>();
      const std::string at = file + ": /cases/" + std::to_string(i);
      if (auto [it, fresh] = given.emplace(std::make_pair(run, q), at); !fresh) {
        std::cerr << "carc: conform merge: " << at << ": case " << q
                  << " of this run is given twice (first at " << it->second << ")\n";
        return kExitMalformed;
      }
    }
    reports.push_back(std::move(*j));
  }
  return 0;
}

}  // namespace

int MergeReports(const std::string& path, const std::vector<std::string>& files) {
  std::vector<json> reports;
  if (int code = ReadReports(files, reports); code != 0) return code;
  // A carc database (created and migrated when missing), so rulings, games and runs may share it.
  auto conn = db::OpenDatabase(path, {.mode = db::OpenMode::kCreate});
  auto fail = [&](const model::Status& s) {
    std::cerr << "carc: conform merge: " << path << ": " << s.message() << "\n";
    return kExitIo;
  };
  if (!conn.ok()) return fail(conn.status());
  if (auto s = conn->Exec(
          "CREATE TABLE IF NOT EXISTS conform_runs (run TEXT PRIMARY KEY, engine TEXT NOT NULL, "
          "hello TEXT NOT NULL, seed INTEGER NOT NULL, random INTEGER NOT NULL, "
          "cases INTEGER NOT NULL, suite TEXT NOT NULL) STRICT;"
          "CREATE TABLE IF NOT EXISTS conform_queries (run TEXT NOT NULL, query INTEGER NOT NULL, "
          "kind TEXT NOT NULL, source TEXT NOT NULL, expansions TEXT NOT NULL, "
          "skipped TEXT NOT NULL, findings TEXT NOT NULL, PRIMARY KEY (run, query)) STRICT");
      !s.ok())
    return fail(s);
  std::vector<std::string> runs;
  if (auto s = StoreReports(*conn, reports, runs); !s.ok()) return fail(s);
  json out = json::object();
  for (const std::string& run : runs) {
    auto sum = SummarizeRun(*conn, run);
    if (!sum.ok()) return fail(sum.status());
    out[run] = *sum;
  }
  std::cout << out.dump(2) << "\n";
  return kExitUpheld;
}

}  // namespace carc::adjudicator::conform

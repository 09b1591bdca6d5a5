#pragma once
// The conformance checker: reads the engine's `hello`, builds the suite it can handle (fixtures,
// random positions over every expansion combination it declares, or a folder written by --out),
// asks the engine and the reference model, compares, groups the disagreements by category and
// ruling, shrinks the smallest example of each group, and reports.

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "adjudicator/conform/compare.h"
#include "model/core/status.h"

namespace carc::adjudicator::conform {

// What the engine's hello declares it implements.
struct Declared {
  std::string name;
  std::set<std::string> expansions;
  // "edition" and the keys of rules.options (farm_scoring, city_scoring): the values handled.
  std::map<std::string, std::set<std::string>> options;
  std::map<std::string, std::string> deviations;  // ruling -> reason
};
// Error (kIo): a hello answer that refuses the protocol or has wrong-typed fields.
model::StatusOr<Declared> ReadHello(const nlohmann::json& hello);
// Empty: the engine can handle the query; otherwise why it is skipped ("edition C1").
std::string SkipReason(const Query& q, const Declared& d);

struct SuiteOptions {
  std::string root;   // project checkout (fixtures/)
  std::string rerun;  // instead of fixtures: the cases of a folder written by --out or export
  int random = 0;
  uint32_t seed = 1;
  // Shard K of N: only the queries i of the suite (in suite order) with i % N == K - 1 are
  // checked; N shards together check exactly the unsharded run's queries.
  int shard = 1, shards = 1;
  // Only the queries of this source: a fixture path relative to the root (or a --rerun case's
  // source), or a random position's name "random seed S #I" (generated alone).
  std::string only;
};

// The most random positions a run asks (--random): an index of "random seed S #I" is below it.
inline constexpr int kMaxRandom = 1000000;
// Whether --only names a random position (it starts "random"); ParseRandomName reads the name
// exactly as reports write it, "random seed S #I" (nullopt: not that form), and CheckRandomName
// says what is wrong with it ("" when it reads).
bool IsRandomName(const std::string& name);
std::optional<std::pair<uint32_t, int>> ParseRandomName(const std::string& name);
std::string CheckRandomName(const std::string& name);

// The suite in order, generated as it is read: the fixture (or --rerun) queries, then the
// random positions one game at a time, so that memory does not grow with --random.
class SuiteReader {
 public:
  static model::StatusOr<std::unique_ptr<SuiteReader>> Open(
      const SuiteOptions& opts, const std::vector<std::vector<std::string>>& combos);
  // The next query, with its suite index; false at the end.
  bool Next(Query& q);

 private:
  SuiteReader() = default;
  SuiteOptions opts_;
  std::vector<std::vector<std::string>> combos_;
  std::deque<Query> pending_;
  int games_ = 0, next_game_ = 0;
  size_t index_ = 0;
};

// The whole suite at once (SuiteReader read to its end). The suite: for each valid fixture
// position, the legal list, each question action applied in turn (with the legal list after it),
// and final scoring; then `random` positions from seeded random games, spread over `combos`
// (expansion combinations; empty: the base game only).
model::StatusOr<std::vector<Query>> BuildSuite(const SuiteOptions& opts,
                                               const std::vector<std::vector<std::string>>& combos);
// Every combination of the registered expansions the engine declares, base game first.
std::vector<std::vector<std::string>> DeclaredCombinations(const Declared& d);

struct CheckOptions {
  std::string engine;  // shell command
  double timeout = 10;
  bool progress = false;  // a progress line on stderr
  int jobs = 1;           // engine processes in parallel
  int max_shrink_steps = 1000;
  int shrink_candidates = 2;  // smallest examples shrunk per group
  std::string trace;          // a file: every request and answer, one JSON line each
  // Called with each query's record, in the order the queries finish (for --report): {"case":
  // suite index, "kind", "source", "expansions" ("base" or "a+b"), then "skipped": reason or
  // "findings": [{"category", "rulings", "deviation"}]} (empty findings: agreement).
  std::function<void(const nlohmann::json&)> on_case;
};

// What the checker accepts of an engine (PROTOCOL.md, Limits): a longer answer, or a longer
// list in one, is an engine failure (exit 74) naming the limit.
// (kMaxAnswerBytes: process.h; kMaxListedActions, kMaxEvents: compare.h.)
inline constexpr size_t kMaxDeclared = 1000;  // hello: expansions, deviations, option values
// Sources listed per group; more are counted (queries_cut).
inline constexpr size_t kMaxListedSources = 20;

struct Report {
  nlohmann::json json;          // summary + groups
  int exit_code = 0;            // 0 agree, 1 disagreement, 74 engine failure
  std::vector<Query> examples;  // one per group (shrunk), in report order
  std::vector<nlohmann::json> example_meta;
};

Report Check(const SuiteOptions& suite, const CheckOptions& opts);
std::string ReportText(const nlohmann::json& report);

// Writes queries as case files: DIR/<name>.position.json (position + question + meta),
// DIR/<name>.expected.json (the reference answer), DIR/manifest.json (case -> kind, expansions,
// rulings, files), DIR/README.md and DIR/compare.py (a reference script that runs an engine over
// the files and compares answers). `meta[i]` (optional) adds fields to case i's manifest entry.
model::Status WriteCases(const std::vector<Query>& cases, const std::vector<std::string>& names,
                         const std::vector<nlohmann::json>& meta, const std::string& dir);
// Writes every query of the suite as it is read; returns the number written.
model::StatusOr<size_t> ExportSuite(SuiteReader& suite, const std::string& dir);
// The cases of such a folder, in manifest order.
model::StatusOr<std::vector<Query>> LoadCases(const std::string& dir);

}  // namespace carc::adjudicator::conform

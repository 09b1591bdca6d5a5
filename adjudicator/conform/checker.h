#pragma once
// The conformance checker: builds the suite (fixtures + random positions), asks the engine and
// the reference model, compares, shrinks each disagreement, and reports.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/core/status.h"

namespace carc::adjudicator::conform {

struct Query {
  std::string kind;         // legal | apply | final_score
  nlohmann::json position;  // canonical position file (no question)
  nlohmann::json action;    // apply only
  std::string source;       // fixture path or "random seed S #i"
  std::vector<std::string> expansions;
};

struct SuiteOptions {
  std::string root;  // project checkout (fixtures/)
  int random = 0;
  uint32_t seed = 1;
};

// The suite: for each valid fixture position, the legal list, each question action applied in
// turn (with the legal list after it), and final scoring; then `random` positions from seeded
// random games (base and base + Phantom), each with its legal list, a few actions and scoring.
model::StatusOr<std::vector<Query>> BuildSuite(const SuiteOptions& opts);

struct CheckOptions {
  std::string engine;  // shell command
  double timeout = 10;
  bool progress = false;
  int max_shrink_steps = 300;
};

struct Report {
  nlohmann::json json;  // summary + disagreements
  int exit_code = 0;    // 0 agree, 1 disagreement, 74 engine failure
};

Report Check(const std::vector<Query>& suite, const CheckOptions& opts);
std::string ReportText(const nlohmann::json& report);

// Writes each query as DIR/NNNN_<kind>.position.json (with a "question") and the reference
// answer as DIR/NNNN_<kind>.expected.json, plus DIR/README.md.
model::Status ExportSuite(const std::vector<Query>& suite, const std::string& dir);

// The request a query sends (without id).
nlohmann::json Request(const Query& q);

}  // namespace carc::adjudicator::conform

#pragma once
// Comparing one engine answer with the reference answer: only the fields PROTOCOL.md defines,
// each difference as a finding with a category, the rulings involved and a field-by-field diff.

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "model/core/position.h"
#include "model/core/status.h"

namespace carc::adjudicator::conform {

struct Query {
  std::string kind;         // legal | apply | final_score
  nlohmann::json position;  // canonical position file (no question, no meta)
  nlohmann::json action;    // apply only
  std::string source;       // fixture path relative to the root, or "random seed S #i"
  std::vector<std::string> expansions;
  size_t index = 0;  // its place in the suite
};

// The request a query sends (without id).
nlohmann::json Request(const Query& q);

// The query's position, parsed and advanced to the step that waits for a decision (as the
// reference answers it); a parse failure is returned as its Status.
model::StatusOr<model::Position> ReadQueryPosition(const nlohmann::json& j,
                                                   const std::string& source);

// What kind of mistake a finding shows. One wrong rule gives one category, whatever the query
// (a legal list and an apply both show "accepts an illegal action").
inline constexpr const char* kAcceptsIllegal = "accepts an illegal action";
inline constexpr const char* kRejectsLegal = "rejects a legal action";
inline constexpr const char* kScores = "scores differ";
inline constexpr const char* kPosition = "resulting position differs";
inline constexpr const char* kUnreadable = "answer the reference cannot read";

struct Finding {
  std::string category;
  std::set<std::string> rulings;
  // Field-by-field: each entry {"field", "reference", "engine"} (a value absent on one side is
  // null), or for lists compared as sets {"field", "reference_only": [...], "engine_only": [...]}.
  nlohmann::json diff = nlohmann::json::array();
  // Why the reference answers as it does: for a verdict {"reason", "rulings"} per reason; for
  // scores the events the difference is attributed to, {"feature", "formula", "points",
  // "players", "rulings"} each. Shown in reports, not grouped on.
  nlohmann::json explain = nlohmann::json::array();
  // How a score difference was attributed to features (attribute.h); empty: not narrowed.
  std::string attributed;
};

// The longest lists the checker reads in one answer (PROTOCOL.md, Limits).
inline constexpr size_t kMaxListedActions = 10000;
inline constexpr size_t kMaxEvents = 1000;

// Checks that an engine answer has the protocol's types for the query's fields, and no field
// that answer does not have. Error: kIo with the field named (a wrong-typed or surplus field is
// an engine failure, exit 74).
model::Status CheckAnswerTypes(const Query& q, const nlohmann::json& eng);

// The findings of one query (empty: agreement). `ref` is the reference adapter's answer.
std::vector<Finding> Compare(const Query& q, const nlohmann::json& ref, const nlohmann::json& eng);

// The group a finding belongs to: category and rulings.
std::string GroupKey(const Finding& f);

// The diff as indented text lines.
std::string DiffText(const nlohmann::json& diff);

}  // namespace carc::adjudicator::conform

#pragma once
// The ruling checklist and fixtures in the database: built from the repository's
// database/rulings/*.json and fixtures/**/*.ruling.json, searched with FTS5 (bm25), shown and
// listed. Results are JSON, ready for `carc rulings ...` to print.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "database/db.h"

namespace carc::database {

struct BuildReport {
  int rulings = 0;
  int fixtures = 0;
  int covers = 0;
  int links = 0;
  std::vector<std::string> files;                // ruling files read
  std::vector<std::string> unknown_cover_ids;    // fixtures citing IDs not in the checklist
  nlohmann::json per_expansion = nlohmann::json::object();
};

// Replaces every ruling and fixture row with what ROOT holds, in one transaction (games and
// adjudications are kept). Bad ruling files are kMalformed (65) naming file and JSON pointer.
StatusOr<BuildReport> BuildFromRepo(Connection& conn, const std::string& root);

struct SearchHit {
  std::string id, expansion, status, title, snippet;
  double score = 0;  // bm25, lower is better
};

// Ranked full-text search over IDs, titles and summaries (bm25 weights id 10, title 5,
// summary 1). Every word must match; when no ruling has them all, any word may. The query is
// split into words here, so FTS5 syntax characters in it are harmless.
StatusOr<std::vector<SearchHit>> Search(Connection& conn, const std::string& query, int limit);

// The ruling (nullopt: no such ID), with its fixtures, links both ways, and for a dispute its
// readings and the adopted one.
StatusOr<std::optional<nlohmann::json>> ShowRuling(Connection& conn, const std::string& id);

// Rulings filtered by expansion and status ("disputed", or a full "needs-expansion:tower";
// "needs-expansion" alone matches every one). Empty filters match all.
StatusOr<nlohmann::json> ListRulings(Connection& conn, const std::string& expansion,
                                     const std::string& status);
StatusOr<std::vector<std::string>> Expansions(Connection& conn);

// The status kinds of the checklist, and whether a status string is one of them.
bool ValidStatus(const std::string& status);

}  // namespace carc::database

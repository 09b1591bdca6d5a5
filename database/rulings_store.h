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
  double score = 0;                  // bm25, lower is better
  double rank = 0;                   // the order of the hits, lower first (see Search)
  std::vector<std::string> matched;  // the question's words (not stop words) this ruling holds
  std::string source;                // page, section, footnote
};

// Ranked full-text search for a player's question (search_words.h: stop words dropped, the
// game's synonyms added, porter stemming) over IDs, titles, the players' questions of each
// ruling, summaries and the rest of the entry (bm25 column weights 2, 8, 6, 2, 1). Every ruling
// holding any word is a candidate. Its score adds, per word of the question, the word's idf
// times how well the ruling holds it (its bm25 for the word relative to the best ruling's; a
// synonym counts 0.7 of the word), so rulings answering more of the question, in their title
// or questions, come first; rulings of an expansion the question does not name count 0.6.
// FTS5 syntax characters in the query are harmless.
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

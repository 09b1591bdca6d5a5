#pragma once
// The ruling checklist and fixtures in the database: built from the repository's
// database/rulings/*.json and fixtures/**/*.ruling.json, searched with FTS5 (bm25), shown and
// listed. Results are JSON, ready for `carc rulings ...` to print.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "database/db.h"
#include "database/search_words.h"

namespace carc::database {

struct BuildReport {
  int rulings = 0;
  int fixtures = 0;
  int covers = 0;
  int links = 0;
  std::vector<std::string> files;              // ruling files read
  std::vector<std::string> unknown_cover_ids;  // fixtures citing IDs not in the checklist
  nlohmann::json per_expansion = nlohmann::json::object();
};

// Replaces every ruling and fixture row with what ROOT holds, in one transaction (games and
// adjudications are kept). Bad ruling files are kMalformed (65) naming file and JSON pointer.
StatusOr<BuildReport> BuildFromRepo(Connection& conn, const std::string& root);

// The same from the texts of the ruling files (name, e.g. "gifts.json", and JSON text), without
// fixtures: `carc rulings` answers from the rulings compiled in when there is no database.
StatusOr<BuildReport> BuildFromTexts(Connection& conn,
                                     const std::vector<std::pair<std::string, std::string>>& files);

struct SearchHit {
  std::string id, expansion, status, title;
  std::string snippet;               // the ruling's answer (a dispute: its adopted reading; a
                                     // Czech question: the Czech answer where there is one)
  double score = 0;                  // bm25, lower is better
  double rank = 0;                   // the order of the hits, lower first (see Search)
  std::vector<std::string> matched;  // the question's words this ruling holds, as searched for
                                     // (after correction and Czech dictionary forms)
  std::string source;                // page, section, footnote
  std::string question;              // a player's question of the ruling (Czech for Czech)
  bool out_of_scope = false;         // needs an expansion the question does not name
};

struct SearchResult {
  std::vector<SearchHit> hits;        // at most `limit`, best first
  int total = 0;                      // rulings above the relevance threshold (hits: the first)
  std::vector<std::string> searched;  // the words looked for, after correction / stemming
  std::vector<std::pair<std::string, std::string>> corrected;  // typed -> searched
  std::vector<std::string> ignored;                            // stop words left out
  bool czech = false;  // a Czech question (answers in Czech where they exist)
};

// Ranked full-text search for a player's question (search_words.h: stop words dropped, the
// game's synonyms added, Czech words in dictionary form with their English rule terms, typos
// corrected against the rulings' own words, porter stemming) over IDs, titles, the players'
// questions of each ruling (English and Czech), summaries and the rest of the entry (bm25
// column weights 2, 8, 6, 2, 1). Every ruling holding any word is a candidate. Its score adds,
// per word of the question, the word's idf times how well the ruling holds it (its bm25 for the
// word relative to the best ruling's; a synonym counts 0.7 of the word), plus a bonus for two
// neighbouring words of the question found together in its title or questions ("road deck"),
// so rulings answering more of the question, in their title or questions, come first; rulings
// of an expansion the question does not name count 0.6, rulings that need an expansion the
// project does not model (needs-expansion:tower) and the question does not name 0.5. Hits below
// a share of the best score are cut. FTS5 syntax characters in the query are harmless.
// `vocab`: the words of the rulings (ReadVocabulary) read once by a caller that searches the
// same unchanging database again and again (`carc serve`); nullptr reads them for this search.
StatusOr<SearchResult> SearchRulings(Connection& conn, const std::string& query, int limit,
                                     const IndexVocabulary* vocab = nullptr);
// The hits of SearchRulings.
StatusOr<std::vector<SearchHit>> Search(Connection& conn, const std::string& query, int limit,
                                        const IndexVocabulary* vocab = nullptr);
// The words of the indexed rulings and how often each occurs, for correcting typos: one pass
// over every ruling's text (the larger part of a search's work).
StatusOr<IndexVocabulary> ReadVocabulary(Connection& conn);

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

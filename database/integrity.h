#pragma once
// `carc db check`: everything that can be checked in a carc database, listed.
// - the file: PRAGMA integrity_check (b-trees, indexes against rows, constraints);
// - the search index: FTS5 'integrity-check' of rulings_fts (needs a read-write connection;
//   skipped, and said so, on a file this user cannot write);
// - each stored game: its record rebuilt from its rows hashes to the record_sha256 stored at
//   import, so damage to a record's bytes that no index or constraint sees is still found.
// The check before each write (db.h CheckBeforeWrite) runs the first two only: the third costs
// about a millisecond per game (database/README.md "Speed").

#include <cstdint>
#include <string>
#include <vector>

#include "database/db.h"

namespace carc::database {

struct IntegrityReport {
  std::vector<std::string> problems;  // empty: sound
  bool search_index_checked = false;
  int64_t games_checked = 0;
};

// At most `limit` problems from each part. Errors: the database could not be read at all.
StatusOr<IntegrityReport> CheckDatabase(Connection& conn, bool search_index, int limit = 100);

// The games whose rebuilt record does not hash to the stored record_sha256 (one problem each).
StatusOr<std::vector<std::string>> GameHashProblems(Connection& conn, int limit, int64_t* checked);

}  // namespace carc::database

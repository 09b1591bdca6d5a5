#pragma once
// Game records in the database: import (replay, verdict, store), list, fetch, export.
// An import batch is one transaction; each record is stored inside its own savepoint, so a
// record that fails never leaves part of a game behind, and a killed import leaves either the
// whole batch or none of it.

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "database/db.h"
#include "database/game_record.h"
#include "database/replay.h"

namespace carc::database {

struct ImportItem {
  std::string source;             // file name, for messages and the games.source column
  std::string origin = "record";  // record | jcz | generated
  GameRecord record;
  SourceMap from;  // a .jcz game: where its parts came from in the file (empty for a record)
};

// A game record or .jcz file is at most this size: a whole 72-tile game is under 20 KB, and the
// parsed document costs about 20 times its size in memory (a 36 MB file of repeated turns
// peaked at 830 MB), so this keeps an import of any file under 100 MB.
inline constexpr size_t kMaxGameFileBytes = size_t{4} << 20;

// Reads a game record (.json) or a JCloisterZone game (.jcz, or any JSON with "replay" and
// "setup"). Errors: kNoInput (66) for a missing file, kMalformed (65) for bad content or a
// file larger than kMaxGameFileBytes.
StatusOr<ImportItem> LoadGameFile(const std::string& path);

struct ImportResult {
  std::string source;
  model::Status error;  // a bad record (not stored): kMalformed, kUnknownRules...
  bool stored = false;
  bool duplicate = false;  // the same canonical record is already game `game_id`
  int64_t game_id = 0;
  std::optional<ReplayResult> replay;
};

struct ImportOptions {
  // Called after each record is stored, inside the open transaction (tests use it to kill an
  // import midway; the CLI leaves it empty).
  std::function<void(size_t index)> after_each;
};

// Replays every item, then stores the ones that replayed in one transaction. Per-record
// problems are in the results; a database failure (locked, read-only, disk full) rolls the
// whole batch back and is the returned Status.
StatusOr<std::vector<ImportResult>> ImportGames(Connection& conn,
                                                const std::vector<ImportItem>& items,
                                                const ImportOptions& opts = {});

struct StoredGame {
  int64_t game_id = 0;
  std::string origin, source, verdict, verdict_text, model_version, imported_at, record_sha256;
  std::optional<int64_t> verdict_turn, verdict_action;
  std::vector<std::string> cited;
  bool finished = false;
  nlohmann::json final_model;   // null when not replayed to the end
  nlohmann::json model_scores;  // per turn, null where not replayed
  GameRecord record;
};

StatusOr<std::optional<StoredGame>> GetGame(Connection& conn, int64_t game_id);
// Summaries, newest last; `verdict` filters when not empty.
StatusOr<nlohmann::json> ListGames(Connection& conn, const std::string& verdict, int limit);
nlohmann::json StoredGameJson(const StoredGame& g);  // the `games show` form

}  // namespace carc::database

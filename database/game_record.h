#pragma once
// Game records: a whole game as JSON (database/GAME_RECORD_FORMAT.md): rules, players, start
// tiles, the draw order, each turn's actions in position-file form (adjudicator/
// POSITION_FORMAT.md "Actions") with the scores claimed after it, and the claimed final scores.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/core/status.h"

namespace carc::database {

inline constexpr const char* kGameRecordFormat = "carc-game/1";

struct TurnRecord {
  std::vector<nlohmann::json> actions;     // verbatim position-file actions, at least one
  std::optional<std::vector<int>> scores;  // claimed scores after the turn, one per player
  friend bool operator==(const TurnRecord&, const TurnRecord&) = default;
};

struct GameRecord {
  nlohmann::json meta;  // free-form object; null when absent
  std::string edition = "C3";
  std::vector<std::string> expansions;
  nlohmann::json options;                          // rules.options object; null when absent
  std::vector<std::string> players;                // names, seat order
  nlohmann::json start = nlohmann::json::array();  // board entries {tile, x, y, rotation}
  std::vector<std::string> draw_order;             // every tile drawn, first first
  std::vector<TurnRecord> turns;
  std::optional<std::vector<int>> final_scores;
  friend bool operator==(const GameRecord&, const GameRecord&) = default;
};

// Where a record read from another format (a .jcz game) came from: messages about its start
// tiles, draws, actions and turns name the file's JSON pointers ("/replay/7"), and each figure
// keeps its identity in that format ("0.small.1"), which the replay checks is not deployed
// while it stands on the board. A vector left empty (or short) falls back to the record's own
// pointers ("/turns/0/actions/1").
struct SourceMap {
  std::vector<std::string> start;                 // per start entry
  std::vector<std::string> draws;                 // per draw_order entry
  std::vector<std::vector<std::string>> actions;  // per turn, per action
  std::vector<std::string> turn_ends;             // per turn: where it ends (a COMMIT)
  struct FigureId {
    std::string id;     // empty: the action names no figure
    std::string where;  // the id's JSON pointer
  };
  std::vector<std::vector<FigureId>> figure_ids;  // per turn, per action
};

// Checks the shape (unknown keys are rejected, as in position files); the rules themselves are
// checked by Replay. Errors: kMalformed naming `source` and the JSON pointer.
model::StatusOr<GameRecord> ParseGameRecord(const nlohmann::json& j, const std::string& source);

// The canonical JSON form (keys sorted, defaults written out): export writes it, and
// ParseGameRecord(DumpGameRecord(r)) == r.
nlohmann::json DumpGameRecord(const GameRecord& r);

// SHA-256 of the canonical form: the record's identity in the database.
std::string RecordHash(const GameRecord& r);

// The position file of the game's start (step draw, nothing drawn yet).
nlohmann::json StartPosition(const GameRecord& r);

}  // namespace carc::database

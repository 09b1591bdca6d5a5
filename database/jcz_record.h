#pragma once
// JCloisterZone saved games (.jcz, the subset of fixtures/peer-games/: the base game, with or
// without Phantom) -> game records. The one reader of .jcz files: `carc games import` stores
// its record, `carc games check-jcz` (adjudicator/jcz.h) replays it against the scores JCZ
// showed. Turns end at each COMMIT; the scores JCZ shows after each turn and at the end become
// the claimed scores.
//
// Strict (adjudicator/POSITION_FORMAT.md "Strictness"): a game that declares a tile set or an
// element the model does not have (Inns & Cathedrals, the River, the abbot, ...) is kUnknownRules
// naming it, never replayed as a base game; a figure of another player than the one whose turn
// it is, a rotation or feature outside the subset, a missing field: kMalformed naming the JSON
// pointer.

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "database/game_record.h"
#include "model/core/status.h"

namespace carc::database {

// JCloisterZone names -> position-file names (fixtures/peer-games, README of the .jcz subset).
const std::map<std::string, std::string>& JczTileIds();  // "BA/RCr" -> "D"
std::optional<int> JczRotation(const std::string& r);    // "R90" -> 90, other -> nullopt
// A JCZ feature pointer -> "road:EW", "field:NL.NR", "monastery" ("_S" = every side but S).
std::string JczFeatureName(const std::string& feature, std::string location);

// [x, y] of a .jcz "position", each a range-checked integer (model::JsonInt); nullopt for a
// short, long or non-integer array (a short one used to be read out of bounds).
std::optional<std::pair<int, int>> JczPosition(const nlohmann::json& position);
// A list of scores, each a range-checked integer; nullopt otherwise.
std::optional<std::vector<int>> JczScores(const nlohmann::json& scores);

// A .jcz game read: its record, and where its start tiles, draws, actions and turn ends came
// from in the file (JSON pointers "/replay/7"), with each deployed meeple's id, for the replay.
struct JczGame {
  GameRecord record;
  SourceMap from;
};

model::StatusOr<JczGame> ReadJcz(const nlohmann::json& jcz, const std::string& source);
model::StatusOr<GameRecord> JczToRecord(const nlohmann::json& jcz, const std::string& source);

}  // namespace carc::database

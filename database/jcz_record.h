#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>
// JCloisterZone saved games (.jcz, the subset of fixtures/peer-games/) -> game records, so that
// `carc games import` stores them like any record. Turns end at each COMMIT; the scores JCZ
// shows after each turn and at the end become the claimed scores.

#include <nlohmann/json.hpp>
#include <string>

#include "database/game_record.h"
#include "model/core/status.h"

namespace carc::database {

// JCloisterZone names -> position-file names (fixtures/peer-games, README of the .jcz subset).
const std::map<std::string, std::string>& JczTileIds();  // "BA/RCr" -> "D"
int JczRotation(const std::string& r);                   // "R90" -> 90, unknown -> -1
// A JCZ feature pointer -> "road:EW", "field:NL.NR", "monastery" ("_S" = every side but S).
std::string JczFeatureName(const std::string& feature, std::string location);

// [x, y] of a .jcz "position", each a range-checked integer (model::JsonInt); nullopt for a
// short, long or non-integer array (a short one used to be read out of bounds).
std::optional<std::pair<int, int>> JczPosition(const nlohmann::json& position);
// A list of scores, each a range-checked integer; nullopt otherwise.
std::optional<std::vector<int>> JczScores(const nlohmann::json& scores);

model::StatusOr<GameRecord> JczToRecord(const nlohmann::json& jcz, const std::string& source);

}  // namespace carc::database

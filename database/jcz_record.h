#pragma once

#include <map>
#include <string>
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

model::StatusOr<GameRecord> JczToRecord(const nlohmann::json& jcz, const std::string& source);

}  // namespace carc::database

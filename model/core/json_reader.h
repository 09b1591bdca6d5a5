#pragma once
// The one JSON reader of position-file sections, shared by the core and every module:
// one error helper naming the JSON pointer, one key check, one range-checked int reader, one
// feature-reference reader, and the small texts every module's messages use. Errors are
// ErrorCode::kMalformed "<pointer>: <what>"; the core's position reader prefixes the file name.

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/position.h"
#include "model/core/status.h"

namespace carc::model {

// "<where>: <what>" as a malformed-input Status (where = a JSON pointer, "/" when empty).
Status JsonError(const std::string& where, const std::string& what);
// The same naming the file first: "<source>:<where>: <what>" (every reader of a whole file).
Status JsonError(const std::string& source, const std::string& where, const std::string& what);

// Every key of object `j` is one of `keys` (and "type" when `of_type` is given: the keys of an
// action); else "<where>/<key>: unknown field" (or "not a field of <type>").
Status CheckKeys(const nlohmann::json& j, const std::string& where,
                 std::initializer_list<std::string_view> keys, bool of_type = false);

// An integer in [lo, hi] (model/core/input_file.h: 2^64 - 1 is refused, never read as -1).
StatusOr<int> ReadInt(const nlohmann::json& j, const std::string& where, int lo, int hi);

// A feature on the board: {"x": 1, "y": 0, "feature": "road:EW"} -> segment node. The feature
// name defaults to `default_feature` when given and absent; other keys of `j` are not looked at.
StatusOr<int> ReadFeatureRef(const nlohmann::json& j, const Position& pos, const std::string& where,
                             const char* default_feature = nullptr);

// A figure kind by name from j["kind"] ("meeple" when absent).
StatusOr<int> ReadFigureKind(const nlohmann::json& j, const Position& pos,
                             const std::string& where);

// Texts for messages: "3 cities", "1 city"; "(1, 0)"; "road:EW of the tile at (1, 0)".
std::string Plural(int n, std::string_view word);
// "A", "A and B", "A, B and C".
std::string ListAnd(const std::vector<std::string>& items);
std::string TileAt(const Position& pos, int node);
std::string FeatureAt(const Position& pos, int node);

}  // namespace carc::model

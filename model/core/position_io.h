#pragma once
// Position files (JSON) <-> Position. The only nlohmann user in the core: every error is a
// Status naming the file and the JSON pointer, e.g. "pos.json:/board/3/rotation: expected 0,
// 90, 180 or 270, got 45". The format is documented in adjudicator/POSITION_FORMAT.md.

#include <nlohmann/json.hpp>
#include <string>

#include "model/core/input_file.h"
#include "model/core/position.h"
#include "model/core/status.h"

namespace carc::model {

// Looks up expansions by id; supplied by the caller (model/expansions/registry.h) so that the
// core never names one.
using ExpansionLookup = const Expansion* (*)(std::string_view id);
using ExpansionIds = std::vector<std::string> (*)();

struct IoContext {
  std::string source = "<input>";  // file name used in messages
  ExpansionLookup lookup = nullptr;
  ExpansionIds known = nullptr;
};

// With `board`, the board is read from it where the document's /board holds a record's null
// (ParseJsonText with the same CompactBoard); the document alone otherwise.
StatusOr<Position> ParsePosition(const nlohmann::json& j, const IoContext& ctx,
                                 const CompactBoard* board = nullptr);
nlohmann::json DumpPosition(const Position& pos);

// Actions in position-file form: {"type": "place_tile", "x": 1, "y": 0, "rotation": 90}, ...
// `where` is the JSON pointer of the action, for messages.
StatusOr<Action> ParseAction(const nlohmann::json& j, const Position& pos, const std::string& where,
                             const IoContext& ctx);
// What of an action can be checked without the board it would be taken on: an object, a known
// "type" (the core's or an enabled module's), and only that type's fields. For the actions of a
// question that follow an illegal one: never taken, they are still read (a misspelt field or an
// unknown type is refused, not dropped unread).
Status CheckActionShape(const nlohmann::json& j, const Position& pos, const std::string& where,
                        const IoContext& ctx);
nlohmann::json DumpAction(const Position& pos, const Action& a);

// "road:EW", "city:NW", "field:NL.NR", "monastery": a feature of one tile in board orientation.
// Any non-empty subset of the segment's edges (or half-edges) names it; edges of two different
// segments are an error.
StatusOr<int> ParseFeature(const RotatedTile& rt, const std::string& name);
std::string FeatureName(const RotatedTile& rt, int segment);

// A feature anywhere on the board as a position file writes it: {"x": 1, "y": 0, "feature":
// "road:EW"}. Read by ReadFeatureRef (json_reader.h).
nlohmann::json FeatureRefJson(const Position& pos, int node);

nlohmann::json DumpScoreEvent(const Position& pos, const ScoreEvent& ev);

// Reads a whole file; missing or unreadable -> kNoInput, bad JSON -> kMalformed with line/column.
// With `board`, a position file's /board is read into it (ParseJsonText): the document is then
// for ParsePosition with the same `board` only.
StatusOr<nlohmann::json> ReadJsonFile(const std::string& path, CompactBoard* board = nullptr);

}  // namespace carc::model

#pragma once
// The one-line position notation (adjudicator/POSITION_FORMAT.md, "One-line notation"): a whole
// position file -- rules, players, board, figures, supply, turn, each expansion's state and the
// question -- as one line a person can type from the table and paste into a forum post:
//
//   C3; players Anna 12 / Ben 7; board D 0,0 / U 1,0; figures Anna 1,0 road:EW;
//   draw V E; turn Ben place_tile E; ask apply; actions place_tile 0,-1 180 / place_figure city
//
// The conversion is between JSON documents and knows no rule: a line gives exactly the JSON a
// person would have written (and JSON -> line -> JSON is the identity), so every check and
// every message of the position-file reader applies unchanged. Expansion state and anything
// without a syntax of its own travel as compact JSON.

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "model/core/position_io.h"
#include "model/core/status.h"

namespace carc::model {

// Limits of a line (adjudicator/POSITION_FORMAT.md "Limits"), each refused with kMalformed
// naming the column: the whole text in bytes, and the sections of a line, the items of a
// section, the words of an item and the scores of a claim. A player's name is bounded by
// kMaxNameChars (position_io.h).
inline constexpr size_t kMaxLineBytes = 1 << 20;
inline constexpr size_t kMaxListItems = 4096;

// Whether a text is the notation rather than JSON: after blank lines and comment lines ("#"
// followed by a space or the line's end) it starts with an edition: C and a digit (C1, C2, C3;
// any other, C4 or C3x, is refused as an edition the notation does not have).
bool LooksLikeLine(std::string_view text);

// Line -> position-file JSON. Errors (kMalformed) name the source, the column and the section:
// "dispute.line: column 31 (board, item 2): expected X,Y (e.g. 1,-2), got \"1;0\"".
StatusOr<nlohmann::json> LineToJson(std::string_view line, const std::string& source);

// Actions alone, in the syntax of the actions section: "place_tile 1,0 90 / place_figure road".
// A JSON array of actions. For `carc play`.
StatusOr<nlohmann::json> LineActionsToJson(std::string_view text, const std::string& source);

// A command argument that is itself a line (no file of that name exists), and the name
// messages give an input: "line" for such an argument, else the file's DisplayName.
bool IsLineArgument(const std::string& path);
std::string SourceName(const std::string& path);

// Where each part of the document a line stands for is written: JSON pointer -> 1-based column
// of its section or item ("/board/1" -> 31). Empty when the line does not tokenize.
std::map<std::string, int> LineColumns(std::string_view line);

// A message about the document a line stands for, "line:/board/1/rotation: ...", located in the
// line: "line: column 31 (/board/1/rotation): ...". Other messages are returned unchanged.
std::string LocateInLine(std::string_view line, const std::string& source,
                         const std::string& message);

// Position-file JSON -> line, lossless: every field the JSON has, nothing it lacks.
// kMalformed for a document the notation cannot state (a field of the wrong type).
StatusOr<std::string> JsonToLine(const nlohmann::json& doc);

// The document without what the model fills in by itself (rotation 0, postures, kind meeple,
// supplies and options and expansion state equal to their defaults, an empty figure list),
// checked by parsing both: the short form a person would type. meta and question are kept.
// A document that does not parse is returned unchanged.
nlohmann::json MinimalJson(const nlohmann::json& doc, const IoContext& ctx);

}  // namespace carc::model

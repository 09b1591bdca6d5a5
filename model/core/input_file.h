#pragma once
// Hostile-input guards shared by every reader: a bounded file read, a JSON parse
// with a nesting cap and duplicate-key rejection, and the one range-checked integer reader.
//
// Limits (documented in adjudicator/docs/limits.md and adjudicator/POSITION_FORMAT.md):
//   - an input file is a regular file or stdin ("-"), at most kMaxInputBytes (64 MiB); a FIFO,
//     device, socket or directory is refused (66), a larger input is malformed (65);
//   - JSON nests at most kMaxJsonDepth levels (65 beyond, naming the file and the pointer);
//   - an object names each key once (65 on a duplicate, naming the pointer);
//   - every integer of a position, record or answer lies in [-kMaxJsonInt, kMaxJsonInt] unless
//     the field states a narrower range; a float, 2^64 - 1 or 1e400 is never read as an integer.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/core/status.h"

namespace carc::model {

inline constexpr size_t kMaxInputBytes = size_t{64} << 20;
inline constexpr int kMaxJsonDepth = 64;
inline constexpr int64_t kMaxJsonInt = 1000000;

// A key as one token of a JSON pointer (RFC 6901: "~" as "~0", "/" as "~1").
std::string JsonPointerToken(const std::string& key);

// The file's bytes: "-" reads stdin. Missing, unreadable, a directory or a non-regular file ->
// kNoInput; more than max_bytes -> kMalformed. Messages name the file by DisplayName.
StatusOr<std::string> ReadInputFile(const std::string& path, size_t max_bytes = kMaxInputBytes);

// A position file's /board read without a JSON object per tile (an object is a map of three
// or four keys: a board of 10^6 tiles held most of a gigabyte in them). One record per element
// of the array, in order. An element in the plain form, an object of "tile" (a one-character
// string), "x" and "y" (integers within kMaxJsonInt) and an optional "rotation" (0, 90, 180 or
// 270), each key once, is only a record, and the document's array holds null in its place;
// any other element is in the document as read (`in_doc`), so that the position reader gives
// it the same checks and messages as ever. The duplicate-key, nesting and number checks of the
// parse apply to every element alike.
struct BoardRecord {
  int32_t x = 0, y = 0;
  char tile = 0;         // the tile's one-character id, not yet looked up
  uint8_t rotation = 0;  // quarter turns
  bool in_doc = false;   // the element is the document's, not this record
};
struct CompactBoard {
  bool read = false;  // the document's top-level "board" was an array, read into `tiles`
  std::vector<BoardRecord> tiles;
};

// Parses JSON text: syntax errors, numbers out of double range, nesting deeper than
// kMaxJsonDepth and duplicate keys -> kMalformed "<source>:<pointer>: ...". Never throws.
// With `board`, a top-level "board" array is read into it as described above (only for a
// reader that takes the board from there: ParsePosition with the same CompactBoard).
StatusOr<nlohmann::json> ParseJsonText(const std::string& text, const std::string& source,
                                       CompactBoard* board = nullptr);

// The one range-checked integer reader: the value if `j` is a JSON integer in [lo, hi]
// (unsigned integers above INT64_MAX included, and refused), otherwise nullopt.
std::optional<int> JsonInt(const nlohmann::json& j, int64_t lo = -kMaxJsonInt,
                           int64_t hi = kMaxJsonInt);
// "expected an integer from lo to hi, got <value or type>" for a JsonInt failure (the value is
// shortened when long).
std::string JsonIntError(const nlohmann::json& j, int64_t lo = -kMaxJsonInt,
                         int64_t hi = kMaxJsonInt);

// A file name safe to print and to put into JSON output: bytes that are not valid UTF-8, and
// control characters, are escaped (EscapeControls, model/core/text_escape.h).
std::string DisplayName(const std::string& path);

}  // namespace carc::model

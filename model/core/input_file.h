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

#include "model/core/status.h"

namespace carc::model {

inline constexpr size_t kMaxInputBytes = size_t{64} << 20;
inline constexpr int kMaxJsonDepth = 64;
inline constexpr int64_t kMaxJsonInt = 1000000;

// The file's bytes: "-" reads stdin. Missing, unreadable, a directory or a non-regular file ->
// kNoInput; more than max_bytes -> kMalformed. Messages name the file by DisplayName.
StatusOr<std::string> ReadInputFile(const std::string& path, size_t max_bytes = kMaxInputBytes);

// Parses JSON text: syntax errors, numbers out of double range, nesting deeper than
// kMaxJsonDepth and duplicate keys -> kMalformed "<source>:<pointer>: ...". Never throws.
StatusOr<nlohmann::json> ParseJsonText(const std::string& text, const std::string& source);

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

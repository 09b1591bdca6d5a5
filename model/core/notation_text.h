#pragma once
// Checks of text that becomes part of a position, shared by every reader: the one-line notation
// (notation.cc), position files (position_io.cc), game records and .jcz games (database/).

#include <cstddef>
#include <string>
#include <string_view>

namespace carc::model {

// Text that becomes part of a position (adjudicator/POSITION_FORMAT.md "Limits"): a player's
// name is at most kMaxNameChars characters of UTF-8 without control characters, so that no
// surface (the text verdict, a terminal, a database row) prints what the user did not see.
inline constexpr size_t kMaxNameChars = 64;

// The offset of the first byte of `s` that is not well-formed UTF-8 (overlong forms, UTF-16
// surrogates and code points beyond U+10FFFF included), or npos.
size_t InvalidUtf8At(std::string_view s);
// A character a terminal acts on rather than shows: C0 and C1 controls, DEL, the line and
// paragraph separators and the bidirectional overrides and isolates.
bool IsControlChar(char32_t c);
// Why `name` cannot be a player's name, or "" when it can: "empty", "blank (only spaces)",
// "invalid UTF-8 at byte 3",
// "control character U+001B at character 1", "longer than 64 characters (70)".
std::string NameProblem(std::string_view name);

}  // namespace carc::model

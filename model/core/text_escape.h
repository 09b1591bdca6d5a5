#pragma once
// Text from an input (a name, a file name, a query, an unknown key) made safe to print on a
// terminal and to put into JSON output.

#include <string>
#include <string_view>

namespace carc::model {

// `text` with every byte that is not part of well-formed UTF-8, and every control character,
// written as an escape: a byte as \xNN, a control code point as \u{NNNN} (C0 and DEL as \xNN).
// Control characters are C0, DEL, C1 (U+0080..U+009F: U+009B is a one-byte CSI), U+2028/2029,
// and the bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069), which reorder
// what follows them on a terminal. With `keep_lines`, LF, CR and tab pass (whole output texts, progress lines).
std::string EscapeControls(std::string_view text, bool keep_lines = false);

}  // namespace carc::model

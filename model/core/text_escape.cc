#include "model/core/text_escape.h"

#include <cstdint>
#include <cstdio>

namespace carc::model {

namespace {

// The length of the well-formed UTF-8 sequence at s[i] (Unicode Table 3-7), or 0.
size_t SequenceLength(const unsigned char* s, size_t i, size_t n) {
  const unsigned char c = s[i];
  const size_t len = c >= 0xC2 && c <= 0xDF   ? 2
                     : c >= 0xE0 && c <= 0xEF ? 3
                     : c >= 0xF0 && c <= 0xF4 ? 4
                                              : 0;
  if (len == 0 || i + len > n) return 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c == 0xE0) lo = 0xA0;
  if (c == 0xED) hi = 0x9F;
  if (c == 0xF0) lo = 0x90;
  if (c == 0xF4) hi = 0x8F;
  if (s[i + 1] < lo || s[i + 1] > hi) return 0;
  for (size_t k = 2; k < len; ++k)
    if (s[i + k] < 0x80 || s[i + k] > 0xBF) return 0;
  return len;
}

uint32_t Decode(const unsigned char* s, size_t len) {
  uint32_t cp = len == 2 ? (s[0] & 0x1F) : len == 3 ? (s[0] & 0x0F) : (s[0] & 0x07);
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (s[k] & 0x3F);
  return cp;
}

bool IsControl(uint32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

}  // namespace

std::string EscapeControls(std::string_view text, bool keep_lines) {
  std::string out;
  out.reserve(text.size());
  char buf[16];
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      if (IsControl(c) && !(keep_lines && (c == '\n' || c == '\t' || c == '\r'))) {
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    const size_t len = SequenceLength(s, i, n);
    if (len == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
      ++i;
      continue;
    }
    const uint32_t cp = Decode(s + i, len);
    if (IsControl(cp)) {
      std::snprintf(buf, sizeof buf, "\\u{%04X}", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(text.substr(i, len));
    }
    i += len;
  }
  return out;
}

}  // namespace carc::model

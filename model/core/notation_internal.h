#pragma once
// Word-level helpers shared by the reader (notation.cc) and the writer (notation_write.cc) of
// the one-line notation. Internal to the core.

#include <cctype>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

namespace carc::model::notation_internal {

// Digits after an optional "-" that start with a 0 and go on ("090", "-01"): not a number in
// the notation, as in JSON (a reader that took "090" for 90 would guess what was meant).
inline bool LeadingZero(const std::string& s) {
  const size_t k = !s.empty() && s[0] == '-' ? 1 : 0;
  if (s.size() < k + 2 || s[k] != '0') return false;
  for (size_t i = k; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

inline std::optional<int> ToInt(const std::string& s) {
  if (s.empty() || s.size() > 8 || LeadingZero(s)) return std::nullopt;
  size_t k = s[0] == '-' ? 1 : 0;
  if (k == s.size()) return std::nullopt;
  for (size_t i = k; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
  return std::stoi(s);
}

// " (numbers have no leading zero)" when a word is, or holds after "#" or its last ":" or
// around its commas, digits with a leading zero; "" otherwise. For the messages of a number that
// was not read.
inline std::string LeadingZeroHint(const std::string& word) {
  std::string s = word;
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')') s = s.substr(1, s.size() - 2);
  if (!s.empty() && s[0] == '#') s = s.substr(1);
  if (const size_t colon = s.rfind(':'); colon != std::string::npos) s = s.substr(colon + 1);
  for (size_t start = 0;;) {
    const size_t comma = s.find(',', start);
    if (LeadingZero(s.substr(start, comma == std::string::npos ? comma : comma - start)))
      return " (numbers have no leading zero)";
    if (comma == std::string::npos) return "";
    start = comma + 1;
  }
}

// "X,Y" or "(X,Y)".
inline std::optional<std::pair<int, int>> ToCoord(std::string s) {
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')') s = s.substr(1, s.size() - 2);
  size_t comma = s.find(',');
  if (comma == std::string::npos) return std::nullopt;
  auto x = ToInt(s.substr(0, comma)), y = ToInt(s.substr(comma + 1));
  if (!x || !y) return std::nullopt;
  return std::make_pair(*x, *y);
}

inline bool IsTileLetter(const std::string& s) {
  return s.size() == 1 && s[0] >= 'A' && s[0] <= 'Z';
}

inline std::string Quote(const std::string& t) { return "\"" + t + "\""; }

// A string that can be written without quotes: letters, digits and _ . : ' + - =, not a
// number, not a coordinate, not an owner reference.
inline bool Bare(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) &&
        std::string("_.:'+-=").find(c) == std::string::npos)
      return false;
  return !ToInt(s) && !ToCoord(s) && s != "-";
}

inline std::string Word(const std::string& s) { return Bare(s) ? s : nlohmann::json(s).dump(); }

}  // namespace carc::model::notation_internal

#include "model/core/notation.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "model/core/input_file.h"
#include "model/core/notation_internal.h"
#include "model/core/notation_text.h"
#include "model/core/tile.h"

namespace carc::model {

using nlohmann::json;
using namespace notation_internal;  // NOLINT: the notation's own helpers

namespace {

// ---------------------------------------------------------------- tokens

enum class Tok { kWord, kString, kJson, kSemi, kSlash };

struct Token {
  Tok type;
  std::string text;  // word or decoded string
  json value;        // kJson
  int column = 0;    // 1-based
};

struct Item {  // the tokens between two "/" of a section
  std::vector<Token> toks;
  int column = 0;
};

struct Section {
  std::string name;  // "rules" for the first one
  int column = 0;
  std::vector<Item> items;
};

Status Err(const std::string& source, int column, const std::string& where,
           const std::string& what) {
  return Status(ErrorCode::kMalformed, source + ": column " + std::to_string(column) +
                                           (where.empty() ? "" : " (" + where + ")") + ": " + what);
}

// Comment lines ("# ..." or a lone "#") become blanks, so that columns still count.
// A byte order mark at the start (as some editors save UTF-8) becomes blanks too: a JSON file
// with one is read, and a line with one was taken for malformed JSON.
std::string StripComments(std::string_view text) {
  std::string out(text);
  if (out.rfind("\xEF\xBB\xBF", 0) == 0) out.replace(0, 3, "   ");
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    size_t p = start;
    while (p < end && (out[p] == ' ' || out[p] == '\t' || out[p] == '\r')) ++p;
    if (p < end && out[p] == '#' &&
        (p + 1 == end || std::isspace(static_cast<unsigned char>(out[p + 1]))))
      for (size_t i = p; i < end; ++i) out[i] = ' ';
    start = end + 1;
  }
  return out;
}

// The line is UTF-8 text of at most kMaxLineBytes bytes, without control characters other
// than tab, line feed and carriage return: checked before anything is read from it, so that no
// message or output carries bytes the user did not see (and a 60 MB line costs one pass).
Status CheckText(std::string_view s, const std::string& source) {
  if (s.size() > kMaxLineBytes)
    return Err(source, static_cast<int>(kMaxLineBytes) + 1, "",
               "the line is longer than " + std::to_string(kMaxLineBytes) + " bytes (" +
                   std::to_string(s.size()) + ")");
  if (size_t bad = InvalidUtf8At(s); bad != std::string_view::npos)
    return Err(source, static_cast<int>(bad) + 1, "", "invalid UTF-8");
  // Character by character (the text is well-formed UTF-8 here): a continuation byte such as
  // the 0x99 of "ř" (C5 99) is part of its character, never a C1 control of its own.
  for (size_t i = 0; i < s.size();) {
    const size_t at = i;
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    char32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += len;
    if (c != '\t' && c != '\n' && c != '\r' && IsControlChar(cp)) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "U+%04X", static_cast<unsigned>(cp));
      return Err(source, static_cast<int>(at) + 1, "", std::string("control character ") + hex);
    }
  }
  return Status::Ok();
}

StatusOr<std::vector<Token>> Tokenize(const std::string& s, const std::string& source) {
  if (Status st = CheckText(s, source); !st.ok()) return st;
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int col = static_cast<int>(i) + 1;
    if (std::isspace(c)) {
      ++i;
    } else if (c == ';' || c == '/') {
      out.push_back({c == ';' ? Tok::kSemi : Tok::kSlash, std::string(1, c), {}, col});
      ++i;
    } else if (c == '"' || c == '{' || c == '[') {
      // A JSON string, object or array: find its end (brackets balanced outside strings).
      size_t j = i;
      int depth = 0;
      bool in_str = false;
      for (; j < s.size(); ++j) {
        char d = s[j];
        if (in_str) {
          if (d == '\\')
            ++j;
          else if (d == '"')
            in_str = false;
          if (!in_str && c == '"') break;
          continue;
        }
        if (d == '"')
          in_str = true;
        else if (d == '{' || d == '[')
          ++depth;
        else if (d == '}' || d == ']') {
          if (--depth == 0) break;
        }
      }
      if (j >= s.size())
        return Err(source, col, "", c == '"' ? "unterminated string" : "unterminated JSON value");
      std::string raw = s.substr(i, j - i + 1);
      // The same guarded parse as a JSON file (nesting cap, duplicate keys).
      auto v = ParseJsonText(raw, source + ": column " + std::to_string(col));
      if (!v.ok()) return v.status();
      if (c == '"') {
        const std::string& text = v->get_ref<const std::string&>();
        for (size_t k = 0, n = 0; k < text.size(); ++n) {
          const size_t at = k;
          char32_t cp = static_cast<unsigned char>(text[k]);
          const size_t len = cp < 0x80 ? 1 : cp >= 0xF0 ? 4 : cp >= 0xE0 ? 3 : 2;
          cp = len == 1 ? cp : cp & (0x7F >> len);
          for (size_t m = 1; m < len; ++m)
            cp = (cp << 6) | (static_cast<unsigned char>(text[k + m]) & 0x3F);
          k += len;
          if (IsControlChar(cp)) {
            char hex[16];
            std::snprintf(hex, sizeof hex, "U+%04X", static_cast<unsigned>(cp));
            return Err(source, col, "",
                       std::string("control character ") + hex + " in a string (character " +
                           std::to_string(n + 1) + ", byte " + std::to_string(at + 1) + ")");
          }
        }
        out.push_back({Tok::kString, v->get<std::string>(), {}, col});
      } else {
        out.push_back({Tok::kJson, raw, std::move(*v), col});
      }
      i = j + 1;
    } else {
      size_t j = i;
      while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j])) && s[j] != ';' &&
             s[j] != '/' && s[j] != '"' && s[j] != '{' && s[j] != '[')
        ++j;
      out.push_back({Tok::kWord, s.substr(i, j - i), {}, col});
      i = j;
    }
  }
  return out;
}

// ---------------------------------------------------------------- small readers

// ---------------------------------------------------------------- line -> JSON

struct LineReader {
  const std::string& source;
  std::vector<std::string> names;  // players, for owner references
  // Every value the line gives, by the place it goes in the document (a JSON pointer, or a
  // pointer and the value for a list that is a set), with the column that gave it: a value
  // given twice is refused wherever it is, never overwritten by the last one.
  std::map<std::string, int> given;

  Status Once(const std::string& place, const Token& t, const std::string& where,
              const std::string& what) {
    auto [it, fresh] = given.emplace(place, t.column);
    if (fresh) return Status::Ok();
    return Fail(t, where,
                what + " given twice (first at column " + std::to_string(it->second) + ")");
  }

  Status Fail(const Token& t, const std::string& where, const std::string& what) const {
    return Err(source, t.column, where, what);
  }
  static std::string Shown(const Token& t) { return t.type == Tok::kJson ? t.text : Quote(t.text); }
  // "#i" or a player's name.
  StatusOr<int> Player(const Token& t, const std::string& where) const {
    if (t.type == Tok::kWord && t.text.size() > 1 && t.text[0] == '#') {
      // A player may be named "#1" (quoted or not in players): #1 would then name two players.
      // Where names repeat, owners are written #index (as the writer does), so #1 is the index.
      const std::set<std::string> distinct(names.begin(), names.end());
      if (distinct.size() == names.size())
        for (const auto& n : names)
          if (n == t.text)
            return Fail(t, where,
                        t.text + " is both a player index and a player's name: quote the name (" +
                            Quote(t.text) + ") to mean the player so named");
      if (auto i = ToInt(t.text.substr(1)); i && *i >= 0) return *i;
      return Fail(
          t, where,
          "expected a player index after #, got " + Quote(t.text) + LeadingZeroHint(t.text));
    }
    if (t.type != Tok::kWord && t.type != Tok::kString)
      return Fail(t, where, "expected a player's name or #index");
    int found = -1;
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == t.text) {
        if (found >= 0)
          return Fail(t, where, "two players are named " + Quote(t.text) + ": use #index");
        found = static_cast<int>(i);
      }
    if (found < 0) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      return Fail(t, where, "no player named " + Quote(t.text) + " (players: " + known + ")");
    }
    return found;
  }
  StatusOr<std::pair<int, int>> Coord(const Token& t, const std::string& where) const {
    if (t.type == Tok::kWord)
      if (auto c = ToCoord(t.text)) return *c;
    return Fail(t, where, "expected X,Y (e.g. 1,-2), got " + Shown(t) + LeadingZeroHint(t.text));
  }
  StatusOr<int> Int(const Token& t, const std::string& where, const std::string& what) const {
    if (t.type == Tok::kWord)
      if (auto v = ToInt(t.text)) return *v;
    return Fail(t, where, "expected " + what + ", got " + Shown(t) + LeadingZeroHint(t.text));
  }
  StatusOr<std::string> Text(const Token& t, const std::string& where,
                             const std::string& what) const {
    if (t.type == Tok::kWord || t.type == Tok::kString) return t.text;
    return Fail(t, where, "expected " + what + ", got " + Shown(t));
  }
};

std::string ItemWhere(const Section& s, size_t i) {
  return s.name + ", item " + std::to_string(i + 1);
}

// A feature's name as the position format reads it: road, city, field or monastery in any
// letter case, alone or before a colon and its sides (POSITION_FORMAT.md, "The tile sheet").
bool IsFeatureWord(const std::string& w) {
  std::string kind = w.substr(0, w.find(':'));
  for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ParseFeatureKind(kind).has_value();
}

// One action: pass | draw T | place_tile [T] X,Y R | place_figure [KIND] FEATURE [X,Y] | {json}.
StatusOr<json> ParseLineAction(const LineReader& rd, const Item& it, const std::string& where) {
  const auto& t = it.toks;
  if (t[0].type == Tok::kJson) {
    if (t.size() > 1) return rd.Fail(t[1], where, "nothing may follow an action written as JSON");
    if (!t[0].value.is_object()) return rd.Fail(t[0], where, "an action is a JSON object");
    return t[0].value;
  }
  const std::string& type = t[0].text;
  auto extra = [&](size_t n) -> Status {
    return t.size() > n
               ? rd.Fail(t[n], where,
                         "unexpected " + LineReader::Shown(t[n]) + " after the " + type + " action")
               : Status::Ok();
  };
  if (type == "pass") {
    if (Status s = extra(1); !s.ok()) return s;
    return json{{"type", "pass"}};
  }
  if (type == "draw") {
    if (t.size() < 2 || !IsTileLetter(t[1].text))
      return rd.Fail(t.size() < 2 ? t[0] : t[1], where, "draw needs the tile drawn, e.g. draw U");
    if (Status s = extra(2); !s.ok()) return s;
    return json{{"type", "draw"}, {"tile", t[1].text}};
  }
  if (type == "place_tile") {
    json a = {{"type", "place_tile"}};
    size_t k = 1;
    if (k < t.size() && t[k].type == Tok::kWord && IsTileLetter(t[k].text)) a["tile"] = t[k++].text;
    if (k + 1 >= t.size())
      return rd.Fail(t.back(), where,
                     "place_tile needs X,Y and a rotation, e.g. place_tile 1,0 90");
    auto c = rd.Coord(t[k], where);
    if (!c.ok()) return c.status();
    auto r = rd.Int(t[k + 1], where, "a rotation (0, 90, 180, 270)");
    if (!r.ok()) return r.status();
    a["x"] = c->first;
    a["y"] = c->second;
    a["rotation"] = *r;
    if (Status s = extra(k + 2); !s.ok()) return s;
    return a;
  }
  if (type == "place_figure") {
    json a = {{"type", "place_figure"}};
    std::vector<std::string> words;
    size_t k = 1;
    for (; k < t.size() && !(t[k].type == Tok::kWord && ToCoord(t[k].text)); ++k) {
      // A word starting like a number is a square written wrong (0,-1,0, 0.-1, +0,-1), never a
      // kind or a feature: read as one, the action would be judged on a feature nobody named.
      if (t[k].type == Tok::kWord && !t[k].text.empty() &&
          std::string_view("0123456789+-.").find(t[k].text[0]) != std::string_view::npos)
        return rd.Coord(t[k], where).status();
      auto w = rd.Text(t[k], where, "a figure kind or a feature");
      if (!w.ok()) return w.status();
      words.push_back(*w);
    }
    if (words.empty() || words.size() > 2)
      return rd.Fail(t[0], where,
                     "place_figure takes [KIND] FEATURE [X,Y], e.g. place_figure meeple road:EW");
    // A feature first: the word after it is in no place the action has (a posture follows from
    // the feature), not a feature with the first word as the kind.
    if (words.size() == 2 && IsFeatureWord(words[0]))
      return rd.Fail(t[2], where,
                     "unexpected " + LineReader::Shown(t[2]) + " after the feature " + words[0] +
                         ": place_figure takes [KIND] FEATURE [X,Y] (a figure's posture follows "
                         "from its feature)");
    // A kind alone (place_figure meeple) names no feature: read as one, the kind would be
    // written as the feature and the figure's kind left to the default.
    if (!IsFeatureWord(words.back()))
      return rd.Fail(t[words.size()], where,
                     "expected a feature (road, city, field or monastery, e.g. city:S), got " +
                         LineReader::Shown(t[words.size()]) +
                         ": place_figure takes [KIND] FEATURE [X,Y]");
    if (words.size() == 2) a["kind"] = words[0];
    a["feature"] = words.back();
    if (k < t.size()) {
      auto c = rd.Coord(t[k], where);
      if (!c.ok()) return c.status();
      a["x"] = c->first;
      a["y"] = c->second;
      if (Status s = extra(k + 1); !s.ok()) return s;
    }
    return a;
  }
  return rd.Fail(t[0], where,
                 "unknown action " + LineReader::Shown(t[0]) +
                     " (pass, draw, place_tile, place_figure, or an action as a JSON object)");
}

}  // namespace

StatusOr<json> LineActionsToJson(std::string_view text, const std::string& source) {
  auto toks = Tokenize(std::string(text), source);
  if (!toks.ok()) return toks.status();
  Section s;
  s.name = "actions";
  s.items.emplace_back();
  for (const Token& t : *toks) {
    if (t.type == Tok::kSemi) return Err(source, t.column, "actions", "\";\" in an action");
    if (t.type == Tok::kSlash) {
      s.items.emplace_back();
      s.items.back().column = t.column;
    } else {
      s.items.back().toks.push_back(t);
    }
  }
  LineReader rd{source, {}};
  json arr = json::array();
  for (size_t i = 0; i < s.items.size(); ++i) {
    if (s.items[i].toks.empty())
      return Err(source, s.items[i].column ? s.items[i].column : 1, "actions", "empty action");
    auto a = ParseLineAction(rd, s.items[i], ItemWhere(s, i));
    if (!a.ok()) return a.status();
    arr.push_back(*a);
  }
  return arr;
}

bool LooksLikeLine(std::string_view text) {
  std::string s = StripComments(text);
  size_t p = s.find_first_not_of(" \t\r\n");
  if (p == std::string::npos || s.size() < p + 2) return false;
  // "C" or "c" and a digit: an edition, known or not (C4, c3 and C3x are unknown
  // editions, exit 69, not a malformed JSON file: no JSON text starts so).
  return (s[p] == 'C' || s[p] == 'c') && std::isdigit(static_cast<unsigned char>(s[p + 1]));
}

// The line's sections (";") and their items ("/"). Lists are bounded (kMaxListItems): sections,
// the items of one, the words of one item.
StatusOr<std::vector<Section>> SplitSections(const std::vector<Token>& toks,
                                             const std::string& source) {
  std::vector<Section> sections(1);
  sections[0].name = "rules";
  sections[0].items.emplace_back();
  for (const Token& t : toks) {
    if (t.type == Tok::kSemi) {
      if (sections.size() >= kMaxListItems)
        return Err(source, t.column, "",
                   "more than " + std::to_string(kMaxListItems) + " sections");
      sections.emplace_back();
      sections.back().column = t.column;
      sections.back().items.emplace_back();
    } else if (t.type == Tok::kSlash) {
      Section& s = sections.back();
      if (s.items.size() >= kMaxListItems)
        return Err(source, t.column, s.name,
                   "more than " + std::to_string(kMaxListItems) + " items in one section");
      sections.back().items.emplace_back();
      sections.back().items.back().column = t.column;
    } else {
      Section& s = sections.back();
      if (s.name.empty()) {
        if (t.type != Tok::kWord)
          return Err(source, t.column, "", "expected a section name, got " + LineReader::Shown(t));
        s.name = t.text;
        s.column = t.column;
        continue;
      }
      if (s.items.back().toks.empty()) s.items.back().column = t.column;
      if (s.items.back().toks.size() >= kMaxListItems)
        return Err(source, t.column, s.name,
                   "more than " + std::to_string(kMaxListItems) + " words in one item");
      s.items.back().toks.push_back(t);
    }
  }
  return sections;
}

// Rules: EDITION {EXPANSION} {KEY=VALUE}.
Status ReadRulesSection(const std::vector<Section>& sections, LineReader& rd, json& doc) {
  const std::string& source = rd.source;
  const Section& s = sections[0];
  if (s.items.size() != 1 || s.items[0].toks.empty())
    return Err(source, 1, "rules", "a line starts with the edition: C1, C2 or C3");
  const auto& t = s.items[0].toks;
  // Editions are exact, as in a position file: "c3" is no edition, and it is said so rather
  // than read as C3 (/rules/edition "c3" is the same unknown edition).
  if (t[0].type == Tok::kWord && t[0].text.size() >= 2 && t[0].text.size() <= 4 &&
      (t[0].text[0] == 'C' || t[0].text[0] == 'c') && t[0].text != "C1" && t[0].text != "C2" &&
      t[0].text != "C3" && t[0].text.find_first_not_of("0123456789", 1) == std::string::npos)
    return Status(ErrorCode::kUnknownRules,
                  source + ": column " + std::to_string(t[0].column) +
                      " (rules): unknown edition \"" + t[0].text + "\" (known: C1, C2, C3" +
                      (t[0].text == "c1" || t[0].text == "c2" || t[0].text == "c3"
                           ? ": editions are written with a capital C, as C" + t[0].text.substr(1)
                           : "") +
                      ")");
  if (t[0].type != Tok::kWord || (t[0].text != "C1" && t[0].text != "C2" && t[0].text != "C3"))
    return Err(source, t[0].column, "rules",
               "a line starts with the edition C1, C2 or C3, got " + LineReader::Shown(t[0]));
  json rules = {{"edition", t[0].text}, {"expansions", json::array()}};
  for (size_t i = 1; i < t.size(); ++i) {
    if (t[i].type != Tok::kWord)
      return Err(source, t[i].column, "rules", "expected an expansion id or option=value");
    if (auto eq = t[i].text.find('='); eq != std::string::npos) {
      const std::string key = t[i].text.substr(0, eq);
      if (Status st = rd.Once("/rules/options/" + key, t[i], "rules", "option " + key); !st.ok())
        return st;
      rules["options"][key] = t[i].text.substr(eq + 1);
    } else {
      if (Status st =
              rd.Once("/rules/expansions/" + t[i].text, t[i], "rules", "expansion " + t[i].text);
          !st.ok())
        return st;
      rules["expansions"].push_back(t[i].text);
    }
  }
  doc["rules"] = rules;
  return Status::Ok();
}

// players NAME [SCORE] {KIND:N} / ...: read first, since owners are named in figures and turn.
Status ReadPlayersSection(const Section& s, LineReader& rd, json& doc) {
  const std::string& source = rd.source;
  doc["players"] = json::array();
  for (size_t i = 0; i < s.items.size(); ++i) {
    const Item& it = s.items[i];
    std::string where = ItemWhere(s, i);
    if (it.toks.empty()) return Err(source, it.column ? it.column : s.column, where, "empty item");
    auto name = rd.Text(it.toks[0], where, "the player's name");
    if (!name.ok()) return name.status();
    json p = {{"name", *name}};
    for (size_t k = 1; k < it.toks.size(); ++k) {
      const Token& t = it.toks[k];
      if (t.type == Tok::kWord && ToInt(t.text) && k == 1) {
        p["score"] = *ToInt(t.text);
        continue;
      }
      size_t colon = t.type == Tok::kWord ? t.text.rfind(':') : std::string::npos;
      auto n = colon == std::string::npos ? std::nullopt : ToInt(t.text.substr(colon + 1));
      if (!n || colon == 0)
        return rd.Fail(t, where,
                       "expected the score, then figures in hand as kind:N (e.g. meeple:6), got " +
                           LineReader::Shown(t) + LeadingZeroHint(t.text));
      const std::string kind = t.text.substr(0, colon);
      if (Status st = rd.Once("/players/" + std::to_string(i) + "/supply/" + kind, t, where,
                              "figures in hand of kind " + kind);
          !st.ok())
        return st;
      p["supply"][kind] = *n;
    }
    rd.names.push_back(*name);
    doc["players"].push_back(p);
  }
  return Status::Ok();
}

// board: TILE X,Y [ROTATION]
StatusOr<json> ReadBoardItem(LineReader& rd, const std::vector<Token>& t,
                             const std::string& where) {
  if (t.size() < 2 || t.size() > 3 || t[0].type != Tok::kWord || !IsTileLetter(t[0].text))
    return rd.Fail(t[0], where, "a tile is TILE X,Y [ROTATION], e.g. U 1,0 90");
  auto c = rd.Coord(t[1], where);
  if (!c.ok()) return c.status();
  json b = {{"tile", t[0].text}, {"x", c->first}, {"y", c->second}};
  if (t.size() == 3) {
    auto r = rd.Int(t[2], where, "a rotation (0, 90, 180, 270)");
    if (!r.ok()) return r.status();
    b["rotation"] = *r;
  }
  return b;
}

// figures: OWNER [KIND] X,Y FEATURE [POSTURE]
StatusOr<json> ReadFigureItem(LineReader& rd, const std::vector<Token>& t,
                              const std::string& where) {
  auto owner = rd.Player(t[0], where);
  if (!owner.ok()) return owner.status();
  json f = {{"owner", *owner}};
  size_t k = 1;
  if (k < t.size() && !(t[k].type == Tok::kWord && ToCoord(t[k].text))) {
    auto kind = rd.Text(t[k++], where, "a figure kind");
    if (!kind.ok()) return kind.status();
    f["kind"] = *kind;
  }
  if (k + 1 >= t.size())
    return rd.Fail(t.back(), where,
                   "a figure is OWNER [KIND] X,Y FEATURE [lying|standing], e.g. Anna 1,0 road:EW");
  auto c = rd.Coord(t[k], where);
  if (!c.ok()) return c.status();
  auto feature = rd.Text(t[k + 1], where, "a feature name (e.g. road:EW)");
  if (!feature.ok()) return feature.status();
  f["x"] = c->first;
  f["y"] = c->second;
  f["feature"] = *feature;
  if (k + 2 < t.size()) {
    auto posture = rd.Text(t[k + 2], where, "lying or standing");
    if (!posture.ok()) return posture.status();
    f["posture"] = *posture;
  }
  if (k + 3 < t.size())
    return rd.Fail(t[k + 3], where, "unexpected " + LineReader::Shown(t[k + 3]));
  return f;
}

// board, figures and actions: one entry per item.
Status ReadListSection(const Section& s, const std::vector<const Item*>& items, LineReader& rd,
                       json& doc) {
  const std::string& n = s.name;
  json arr = json::array();
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string where = ItemWhere(s, i);
    auto e = n == "actions" ? ParseLineAction(rd, *items[i], where)
             : n == "board" ? ReadBoardItem(rd, items[i]->toks, where)
                            : ReadFigureItem(rd, items[i]->toks, where);
    if (!e.ok()) return e.status();
    arr.push_back(*e);
  }
  if (n == "actions")
    doc["question"]["actions"] = arr;
  else
    doc[n] = arr;
  return Status::Ok();
}

// draw {TILE}; remaining rest | remaining {TILE:N}
Status ReadSupplySection(const std::string& n, const std::vector<Token>& t, LineReader& rd,
                         json& doc) {
  if (n == "draw") {
    json order = json::array();
    for (const Token& tk : t) {
      if (tk.type != Tok::kWord || !IsTileLetter(tk.text))
        return rd.Fail(tk, n, "expected a tile letter, got " + LineReader::Shown(tk));
      order.push_back(tk.text);
    }
    doc["supply"]["draw_order"] = order;
    return Status::Ok();
  }
  if (t.size() == 1 && t[0].text == "rest" && t[0].type == Tok::kWord) {
    doc["supply"]["remaining"] = "rest";
    return Status::Ok();
  }
  json rem = json::object();
  for (const Token& tk : t) {
    auto cnt = tk.text.size() > 2 ? ToInt(tk.text.substr(2)) : std::nullopt;
    if (tk.type != Tok::kWord || !cnt || tk.text[1] != ':' || !IsTileLetter(tk.text.substr(0, 1)))
      return rd.Fail(tk, n,
                     "expected rest, or counts TILE:N (e.g. U:3), got " + LineReader::Shown(tk) +
                         LeadingZeroHint(tk.text));
    if (Status st = rd.Once("/supply/remaining/" + tk.text.substr(0, 1), tk, n,
                            "the count of tile " + tk.text.substr(0, 1));
        !st.ok())
      return st;
    rem[tk.text.substr(0, 1)] = *cnt;
  }
  doc["supply"]["remaining"] = rem;
  return Status::Ok();
}

// turn PLAYER [STEP] [TILE] [X,Y]
Status ReadTurnSection(const Section& s, const std::vector<Token>& t, LineReader& rd, json& doc) {
  const std::string& source = rd.source;
  const std::string& n = s.name;
  if (t.empty()) return Err(source, s.column, n, "turn needs the player whose turn it is");
  auto p = rd.Player(t[0], n);
  if (!p.ok()) return p.status();
  json turn = {{"player", *p}};
  for (size_t k = 1; k < t.size(); ++k) {
    if (t[k].type != Tok::kWord) return rd.Fail(t[k], n, "expected a step, a tile or X,Y");
    // Each is given once: "turn Ben place_tile E V" names two tiles, not the last one.
    if (auto c = ToCoord(t[k].text)) {
      if (Status st = rd.Once("/turn/placed", t[k], n, "the square of the tile placed (X,Y)");
          !st.ok())
        return st;
      turn["placed"] = {{"x", c->first}, {"y", c->second}};
    } else if (IsTileLetter(t[k].text)) {
      if (Status st = rd.Once("/turn/tile", t[k], n, "the tile drawn"); !st.ok()) return st;
      turn["tile"] = t[k].text;
    } else if (t[k].text.size() == 1 && t[k].text[0] >= 'a' && t[k].text[0] <= 'z') {
      // One lower-case letter is a tile written in the wrong case, not a step: say so, rather
      // than "the step given twice" or an unknown step.
      return rd.Fail(t[k], n,
                     Quote(t[k].text) + " is not a tile name: tiles are upper-case letters (" +
                         std::string(1, static_cast<char>(t[k].text[0] - 'a' + 'A')) + ")");
    } else {
      if (Status st = rd.Once("/turn/step", t[k], n, "the step"); !st.ok()) return st;
      turn["step"] = t[k].text;
    }
  }
  doc["turn"] = turn;
  return Status::Ok();
}

// claim [legal|illegal] [scores N,N,..]
Status ReadClaimSection(const std::string& n, const std::vector<Token>& t, LineReader& rd,
                        json& doc) {
  json claim = json::object();
  for (size_t k = 0; k < t.size(); ++k) {
    if (t[k].type != Tok::kWord)
      return rd.Fail(t[k], n, "expected claim [legal|illegal] [scores N,N,...]");
    if (t[k].text == "legal" || t[k].text == "illegal") {
      if (Status st = rd.Once("/question/claim/legal", t[k], n, "legal or illegal"); !st.ok())
        return st;
      claim["legal"] = t[k].text == "legal";
    } else if (t[k].text == "scores" && k + 1 < t.size()) {
      if (Status st = rd.Once("/question/claim/scores", t[k], n, "scores"); !st.ok()) return st;
      if (t[k + 1].type != Tok::kWord)
        return rd.Fail(t[k + 1], n, "expected scores as N,N,... (one per player)");
      json sc = json::array();
      std::string list = t[++k].text;
      size_t start = 0;
      while (true) {
        if (sc.size() >= kMaxListItems)
          return rd.Fail(t[k], n, "more than " + std::to_string(kMaxListItems) + " scores");
        size_t comma = list.find(',', start);
        auto v = ToInt(list.substr(start, comma == std::string::npos ? comma : comma - start));
        if (!v)
          return rd.Fail(t[k], n,
                         "expected scores as N,N,... (one per player)" + LeadingZeroHint(list));
        sc.push_back(*v);
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      claim["scores"] = sc;
    } else {
      return rd.Fail(t[k], n, "expected claim [legal|illegal] [scores N,N,...]");
    }
  }
  doc["question"]["claim"] = claim;
  return Status::Ok();
}

// The sections of one item: state, partial, meta, question, ask (and the ones above).
Status ReadOneItemSection(const Section& s, const std::vector<Token>& t, LineReader& rd,
                          json& doc) {
  const std::string& source = rd.source;
  const std::string& n = s.name;
  if (n == "draw" || n == "remaining") return ReadSupplySection(n, t, rd, doc);
  if (n == "turn") return ReadTurnSection(s, t, rd, doc);
  if (n == "claim") return ReadClaimSection(n, t, rd, doc);
  if (n == "state") {  // state ID {json}
    if (t.size() != 2 || t[0].type != Tok::kWord || t[1].type != Tok::kJson)
      return Err(source, s.column, n, "expected state ID {...}: an expansion's state as JSON");
    if (Status st = rd.Once("/expansions/" + t[0].text, t[0], n, "state " + t[0].text); !st.ok())
      return st;
    doc["expansions"][t[0].text] = t[1].value;
  } else if (n == "partial") {  // partial [true|false]: board_partial
    if (t.size() > 1 || (t.size() == 1 && (t[0].type != Tok::kWord ||
                                           (t[0].text != "true" && t[0].text != "false"))))
      return Err(source, s.column, n, "expected partial, or partial true|false");
    doc["board_partial"] = t.empty() || t[0].text == "true";
  } else if (n == "empty") {  // empty X,Y ...: board_empty
    if (t.empty()) return Err(source, s.column, n, "expected empty X,Y ... (squares with no tile)");
    json squares = json::array();
    for (const Token& tk : t) {
      auto c = rd.Coord(tk, n);
      if (!c.ok()) return c.status();
      const std::string at = std::to_string(c->first) + "," + std::to_string(c->second);
      if (Status st = rd.Once("/board_empty=" + at, tk, n, "the square " + at); !st.ok()) return st;
      squares.push_back({{"x", c->first}, {"y", c->second}});
    }
    doc["board_empty"] = squares;
  } else if (n == "meta" || n == "question") {
    if (t.size() != 1 || t[0].type != Tok::kJson || !t[0].value.is_object())
      return Err(source, s.column, n, "expected " + n + " {...} (a JSON object)");
    if (n == "question" && doc.contains("question"))
      return Err(source, s.column, n,
                 "question {...} cannot be combined with ask, actions or claim");
    doc[n] = t[0].value;
  } else if (n == "ask") {  // ask WORD [depth N]
    if (t.empty() || t.size() == 2 || t.size() > 3 || t[0].type != Tok::kWord ||
        (t.size() == 3 && t[1].text != "depth"))
      return Err(source, s.column, n, "expected ask apply|legal|final_score|validate [depth N]");
    doc["question"]["ask"] = t[0].text;
    if (t.size() == 3) {
      auto d = rd.Int(t[2], n, "a depth");
      if (!d.ok()) return d.status();
      doc["question"]["depth"] = *d;
    }
  } else {
    return Err(source, s.column, n,
               "unknown section " + Quote(n) +
                   " (players, board, partial, empty, figures, draw, remaining, turn, state, "
                   "meta, "
                   "ask, actions, claim, question)");
  }
  return Status::Ok();
}

StatusOr<json> LineToJson(std::string_view line, const std::string& source) {
  auto toks = Tokenize(StripComments(line), source);
  if (!toks.ok()) return toks.status();
  auto split = SplitSections(*toks, source);
  if (!split.ok()) return split.status();
  const std::vector<Section>& sections = *split;
  LineReader rd{source, {}, {}};
  json doc = json::object();
  if (Status st = ReadRulesSection(sections, rd, doc); !st.ok()) return st;
  // Players first: owners are named in figures and turn.
  std::set<std::string> seen;
  for (size_t si = 1; si < sections.size(); ++si) {
    const Section& s = sections[si];
    if (s.name.empty())
      return Err(source, s.column, "", "empty section (two \";\" in a row, or one at the end)");
    // An unknown section is named as such before its items are looked at ("Board D 0,0 / U 1,0"
    // is an unknown section, not a section with items it may not have).
    static const std::set<std::string> kSections = {
        "players", "board", "partial", "empty", "figures", "draw",  "remaining",
        "turn",    "state", "meta",    "ask",   "actions", "claim", "question"};
    if (!kSections.count(s.name)) {
      static const std::vector<Token> kNone;
      return ReadOneItemSection(s, kNone, rd, doc);  // its "unknown section" message
    }
    if (seen.count(s.name) && s.name != "state")
      return Err(source, s.column, s.name, "section " + s.name + " given twice");
    seen.insert(s.name);
    if (s.name == "players")
      if (Status st = ReadPlayersSection(s, rd, doc); !st.ok()) return st;
  }
  for (size_t si = 1; si < sections.size(); ++si) {
    const Section& s = sections[si];
    const std::string& n = s.name;
    std::vector<const Item*> items;  // non-empty items
    for (const Item& it : s.items)
      if (!it.toks.empty()) items.push_back(&it);
    // A section of one list may be empty ("figures", "draw"); an empty item between "/" is not.
    if (items.size() != s.items.size() && !(s.items.size() == 1 && items.empty()))
      return Err(source, s.column, n, "empty item (two \"/\" in a row, or one at an end)");
    if (n == "players") continue;
    if (n == "board" || n == "figures" || n == "actions") {
      if (Status st = ReadListSection(s, items, rd, doc); !st.ok()) return st;
      continue;
    }
    // The other sections are one item each.
    if (items.size() > 1)
      return Err(source, items[1]->column, n, "this section has no \"/\" items");
    static const std::vector<Token> kNone;
    if (Status st = ReadOneItemSection(s, items.empty() ? kNone : items[0]->toks, rd, doc);
        !st.ok())
      return st;
  }
  if (seen.count("question") && (seen.count("ask") || seen.count("actions") || seen.count("claim")))
    for (const Section& s : sections)
      if (s.name == "question")
        return Err(source, s.column, "question",
                   "question {...} cannot be combined with ask, actions or claim");
  return doc;
}

std::map<std::string, int> LineColumns(std::string_view line) {
  std::map<std::string, int> out;
  auto toks = Tokenize(StripComments(line), "line");
  if (!toks.ok()) return out;
  static const std::map<std::string, std::string> kPointer = {
      {"rules", "/rules"},
      {"players", "/players"},
      {"board", "/board"},
      {"partial", "/board_partial"},
      {"empty", "/board_empty"},
      {"figures", "/figures"},
      {"draw", "/supply/draw_order"},
      {"remaining", "/supply/remaining"},
      {"turn", "/turn"},
      {"meta", "/meta"},
      {"question", "/question"},
      {"ask", "/question/ask"},
      {"actions", "/question/actions"},
      {"claim", "/question/claim"},
  };
  std::string name = "rules", pointer = "/rules";
  int item = 0;
  bool named = true, in_item = false;
  out[pointer] = 1;
  for (const Token& t : *toks) {
    if (t.type == Tok::kSemi) {
      named = false;
      item = 0;
      in_item = false;
    } else if (t.type == Tok::kSlash) {
      item += in_item;
      in_item = false;
    } else if (!named) {
      named = true;
      name = t.text;
      auto it = kPointer.find(name);
      pointer = it != kPointer.end() ? it->second : name == "state" ? "/expansions" : "";
      if (!pointer.empty() && !out.count(pointer)) out[pointer] = t.column;
    } else {
      if (name == "state" && !in_item && t.type == Tok::kWord)
        out.emplace("/expansions/" + t.text, t.column);
      if (!in_item &&
          (name == "players" || name == "board" || name == "figures" || name == "actions"))
        out.emplace(pointer + "/" + std::to_string(item), t.column);
      if (name == "empty") out.emplace(pointer + "/" + std::to_string(item++), t.column);
      in_item = name != "empty";
    }
  }
  return out;
}

std::string LocateInLine(std::string_view line, const std::string& source,
                         const std::string& message) {
  const std::string head = source + ":/";
  if (message.rfind(head, 0) != 0) return message;
  const size_t end = message.find(": ", head.size());
  const std::string pointer = message.substr(source.size() + 1, end - source.size() - 1);
  int column = 0;
  size_t best = 0;
  for (const auto& [p, col] : LineColumns(line))
    if (p.size() > best && pointer.rfind(p, 0) == 0 &&
        (pointer.size() == p.size() || pointer[p.size()] == '/')) {
      best = p.size();
      column = col;
    }
  if (column == 0) return message;
  return source + ": column " + std::to_string(column) + " (" + pointer + ")" +
         (end == std::string::npos ? "" : message.substr(end));
}

bool IsLineArgument(const std::string& path) {
  std::error_code ec;
  return path != "-" && LooksLikeLine(path) && !std::filesystem::exists(path, ec);
}

std::string SourceName(const std::string& path) {
  return IsLineArgument(path) ? "line" : DisplayName(path);
}

}  // namespace carc::model

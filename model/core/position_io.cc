#include "model/core/position_io.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/core/check.h"
#include "model/core/input_file.h"
#include "model/core/json_reader.h"
#include "model/core/notation.h"
#include "model/core/notation_text.h"
#include "model/core/rules.h"
#include "model/core/scoring.h"

namespace carc::model {

using nlohmann::json;

namespace {

std::string TypeName(const json& j) { return j.type_name(); }

// A JSON pointer, written out only when a message needs it (the soak parses a position
// file at each position it checks, and writing every field's pointer was a sixth of a parse): a
// whole pointer, or a parent's with "/key" or "/index" appended. Only passed down, never kept.
class Where {
 public:
  Where(const std::string& s) : whole_(&s) {}  // NOLINT(runtime/explicit): a pointer as written
  Where(const char* s) : literal_(s) {}        // NOLINT(runtime/explicit)
  Where(const char* base, size_t index) : literal_(base), index_(index), indexed_(true) {}
  Where(const Where& parent, const char* key) : parent_(&parent), key_(key) {}
  std::string str() const {
    std::string s = whole_ ? *whole_ : parent_ ? parent_->str() : std::string(literal_);
    if (key_) s += std::string("/") + key_;
    if (indexed_) s += "/" + std::to_string(index_);
    return s;
  }

 private:
  const std::string* whole_ = nullptr;
  const char* literal_ = nullptr;
  const Where* parent_ = nullptr;
  const char* key_ = nullptr;
  size_t index_ = 0;
  bool indexed_ = false;
};

// Typed field access that reports the JSON pointer on failure.
struct Reader {
  const IoContext& ctx;
  Status error;
  bool Fail(const Where& where, const std::string& what) {
    if (error.ok()) error = JsonError(ctx.source, where.str(), what);
    return false;
  }
  bool Object(const json& j, const Where& where) {
    return j.is_object() || Fail(where, "expected an object, got " + TypeName(j));
  }
  bool Array(const json& j, const Where& where) {
    return j.is_array() || Fail(where, "expected an array, got " + TypeName(j));
  }
  bool Int(const json& j, const Where& where, int& out) {
    // The one range-checked reader (input_file.h): 2^64 - 1 is refused, never read as -1.
    auto v = JsonInt(j);
    if (!v) return Fail(where, JsonIntError(j));
    out = *v;
    return true;
  }
  bool String(const json& j, const Where& where, std::string& out) {
    if (!j.is_string()) return Fail(where, "expected a string, got " + TypeName(j));
    out = j.get<std::string>();
    return true;
  }
  bool Tile(const json& j, const Where& where, TileType& out) {
    if (!j.is_string()) return Fail(where, "expected a string, got " + TypeName(j));
    const std::string& s = j.get_ref<const std::string&>();  // read in place, not copied
    auto t = TileCatalog::Base().Find(s);
    if (!t) return Fail(where, "unknown tile \"" + s + "\" (base tiles are A to X)");
    out = *t;
    return true;
  }
  bool Rotation(const json& j, const Where& where, model::Rotation& out) {
    int deg = 0;
    if (!Int(j, where, deg)) return false;
    if (deg != 0 && deg != 90 && deg != 180 && deg != 270)
      return Fail(where, "expected 0, 90, 180 or 270, got " + std::to_string(deg));
    out = deg / 90;
    return true;
  }
  // Checks that an object has only the given keys.
  bool Keys(const json& j, const Where& where, std::initializer_list<std::string_view> keys) {
    for (const auto& [key, value] : j.get_ref<const json::object_t&>())
      if (std::find(keys.begin(), keys.end(), key) == keys.end())
        return Fail(where.str() + "/" + key, "unknown field");
    return true;
  }
  // The values of an object's fields in one pass over its members (Keys, then
  // contains and operator[] field by field, were a third of a parse of the board): values[k]
  // is keys[k]'s value, or null when the object has no such field. An unknown field fails as
  // Keys does (the first one in the object's order).
  template <size_t N>
  bool Fields(const json& j, const Where& where, const std::string_view (&keys)[N],
              const json* (&values)[N]) {
    for (const json*& v : values) v = nullptr;
    for (const auto& [key, value] : j.get_ref<const json::object_t&>()) {
      size_t k = 0;
      while (k < N && key != keys[k]) ++k;
      if (k == N) return Fail(where.str() + "/" + key, "unknown field");
      values[k] = &value;
    }
    return true;
  }
};

std::string Ptr(const std::string& base, const std::string& key) { return base + "/" + key; }
std::string Ptr(const std::string& base, size_t i) { return base + "/" + std::to_string(i); }
// The same for a lazily written base (Where).
std::string PtrOf(const Where& base, const char* key) { return base.str() + "/" + key; }

}  // namespace

size_t InvalidUtf8At(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 0;
    if (len == 0 || c > 0xF4 || c == 0xC0 || c == 0xC1 || i + len > s.size()) return i;
    char32_t cp = c & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) {
      const unsigned char d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += len;
  }
  return std::string_view::npos;
}

bool IsControlChar(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
         (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

// A space a name may hold but not consist of: ASCII and Unicode spaces (no-break, em, ideographic,
// zero-width).
static bool IsBlankChar(char32_t c) {
  return c == ' ' || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200B) || c == 0x202F ||
         c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

// Decodes well-formed UTF-8 (checked by InvalidUtf8At first) one character at a time.
static char32_t NextChar(std::string_view s, size_t& i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
  char32_t cp = len == 1 ? c : c & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += len;
  return cp;
}

std::string NameProblem(std::string_view name) {
  // A name no one can see or say: the verdict would speak of a player the user cannot tell
  // apart. Spaces inside and around a name are kept as written, never trimmed.
  if (name.empty()) return "empty";
  if (size_t bad = InvalidUtf8At(name); bad != std::string_view::npos)
    return "invalid UTF-8 at byte " + std::to_string(bad + 1);
  size_t chars = 0;
  bool seen = false;  // a character that is not a space
  for (size_t i = 0; i < name.size();) {
    const char32_t c = NextChar(name, i);
    ++chars;
    seen |= !IsBlankChar(c);
    if (IsControlChar(c)) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "U+%04X", static_cast<unsigned>(c));
      return std::string("control character ") + hex + " at character " + std::to_string(chars);
    }
  }
  if (!seen) return "blank (only spaces)";
  if (chars > kMaxNameChars)
    return "longer than " + std::to_string(kMaxNameChars) + " characters (" +
           std::to_string(chars) + ")";
  return "";
}

// Every feature name of the tile at this rotation, for messages.
static std::string NamesOnTile(const RotatedTile& rt) {
  std::string out;
  for (size_t i = 0; i < rt.segments.size(); ++i)
    out += (i ? ", " : "") + FeatureName(rt, static_cast<int>(i));
  return out;
}

// Forgiving where unambiguous, strict where not: names are case-insensitive, a bare
// kind names the tile's only feature of that kind, and "field:N" names the field that holds
// both halves of the north edge. A wrong or ambiguous name lists the names valid on the tile.
StatusOr<int> ParseFeature(const RotatedTile& rt, const std::string& name) {
  std::string kind_s = name, edges_s;
  const size_t colon = name.find(':');
  if (colon != std::string::npos) {
    kind_s = name.substr(0, colon);
    edges_s = name.substr(colon + 1);
    // "road:" is not the bare "road": a colon promises edges, and a name cut short is refused
    // rather than read as the tile's only road.
    if (edges_s.empty())
      return Status(ErrorCode::kMalformed, "\"" + name +
                                               "\": nothing after the colon (names on "
                                               "this tile: " +
                                               NamesOnTile(rt) + ")");
  }
  for (char& c : kind_s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : edges_s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto bad = [&](const std::string& what) {
    return Status(ErrorCode::kMalformed, what + " (names on this tile: " + NamesOnTile(rt) + ")");
  };
  auto kind = ParseFeatureKind(kind_s);
  if (!kind) return bad("unknown feature kind \"" + kind_s + "\" (road, city, field or monastery)");
  int found = -1, count = 0;
  for (size_t i = 0; i < rt.segments.size(); ++i)
    if (rt.segments[i].kind == *kind) found = static_cast<int>(i), ++count;
  if (*kind == FeatureKind::kMonastery && !edges_s.empty())
    return bad("a monastery is named \"monastery\"");
  if (edges_s.empty()) {
    if (count == 1) return found;
    return bad(count == 0 ? "the tile has no " + kind_s
                          : "\"" + name + "\" is ambiguous: the tile has " + std::to_string(count) +
                                " of them");
  }
  found = -1;
  bool field = *kind == FeatureKind::kField;
  auto mask = field ? ParseHalves(edges_s) : ParseSides(edges_s);
  if (field && !mask) {
    // "field:N": both halves of each side named.
    if (auto sides = ParseSides(edges_s)) {
      mask = 0;
      for (int sd = 0; sd < 4; ++sd)
        if (*sides & kSideBit[sd]) *mask |= static_cast<uint8_t>(3 << (2 * sd));
    }
  }
  if (!mask)
    return bad("cannot read \"" + edges_s + "\" as " +
               (field ? "half-edges (NL NR EL ER SL SR WL WR joined by dots) or sides (NESW)"
                      : "sides (letters of NESW)"));
  for (size_t i = 0; i < rt.segments.size(); ++i) {
    const Segment& s = rt.segments[i];
    if (s.kind != *kind) continue;
    uint8_t have = field ? s.halves : s.sides;
    if ((have & *mask) == 0) continue;
    if ((have & *mask) != *mask || found >= 0)
      return bad("\"" + name + "\" names edges of more than one " + kind_s + " on this tile");
    found = static_cast<int>(i);
  }
  if (found < 0) return bad("the tile has no " + kind_s + " at " + edges_s);
  return found;
}

std::string FeatureName(const RotatedTile& rt, int segment) {
  const Segment& s = rt.segments[segment];
  std::string k(FeatureKindName(s.kind));
  switch (s.kind) {
    case FeatureKind::kField:
      return k + ":" + HalvesName(s.halves);
    case FeatureKind::kMonastery:
      return k;
    default:
      return k + ":" + SidesName(s.sides);
  }
}

StatusOr<nlohmann::json> ReadJsonFile(const std::string& path, CompactBoard* board) {
  // Bounded read (regular file or "-", at most 64 MiB), nesting cap, duplicate keys refused
  // (model/core/input_file.h).
  // The one-line notation (notation.h): the argument itself when no such file exists, or the
  // file's text.
  std::error_code ec;
  if (LooksLikeLine(path) && !std::filesystem::exists(path, ec)) return LineToJson(path, "line");
  auto text = ReadInputFile(path);
  if (!text.ok()) return text.status();
  if (LooksLikeLine(*text)) return LineToJson(*text, DisplayName(path));
  // No JSON text starts with '#': a file that does is a line whose comment lacks its space.
  if (const size_t p = text->find_first_not_of(" \t\r\n");
      p != std::string::npos && (*text)[p] == '#')
    return Status(ErrorCode::kMalformed,
                  DisplayName(path) +
                      ": a line starting with '#' is a comment only as \"# \" (a hash, then a "
                      "space), and no JSON text starts with '#'");
  return ParseJsonText(*text, DisplayName(path), board);
}

namespace {

// The rules' edition and options (/rules/edition, /rules/options).
Status ReadOptions(Reader& rd, const json& jr, RuleOptions& opts) {
  const std::string& source = rd.ctx.source;
  std::string edition = "C3";
  if (jr.contains("edition") && !rd.String(jr["edition"], "/rules/edition", edition))
    return rd.error;
  auto ed = ParseEdition(edition);
  if (!ed)
    return Status(ErrorCode::kUnknownRules, source + ":/rules/edition: unknown edition \"" +
                                                edition + "\" (known: C1, C2, C3)");
  opts.edition = *ed;
  if (opts.edition == Edition::kC1) opts.city_scoring = CityScoring::kC1TwoTileCity;
  bool farm_given = false;
  if (jr.contains("options")) {
    const json& jo = jr["options"];
    if (!rd.Object(jo, "/rules/options") ||
        !rd.Keys(jo, "/rules/options", {"city_scoring", "farm_scoring"}))
      return rd.error;
    std::string s;
    if (jo.contains("city_scoring")) {
      if (!rd.String(jo["city_scoring"], "/rules/options/city_scoring", s)) return rd.error;
      auto v = ParseCityScoring(s);
      if (!v)
        return Status(ErrorCode::kUnknownRules,
                      source + ":/rules/options/city_scoring: unknown value \"" + s +
                          "\" (known: standard, c1-two-tile-city)");
      opts.city_scoring = *v;
    }
    if (jo.contains("farm_scoring")) {
      if (!rd.String(jo["farm_scoring"], "/rules/options/farm_scoring", s)) return rd.error;
      auto v = ParseFarmScoring(s);
      if (!v)
        return Status(ErrorCode::kUnknownRules,
                      source + ":/rules/options/farm_scoring: unknown value \"" + s +
                          "\" (known: per-farm, c1-four-per-city, c1-three-per-city-once)");
      opts.farm_scoring = *v;
      farm_given = true;
    }
  }
  // BASE-END-FARM: C1 printings used three farm rules; the file must say which (strictness).
  if (opts.edition == Edition::kC1 && !farm_given)
    return JsonError(source, "/rules/options/farm_scoring",
                     "edition C1 needs an explicit farm_scoring (per-farm, c1-four-per-city or "
                     "c1-three-per-city-once): C1 printings differ");
  return Status::Ok();
}

// /rules/expansions, in registry order whatever order the file lists them in.
Status ReadExpansionIds(Reader& rd, const json& je, std::vector<const Expansion*>& exps) {
  const IoContext& ctx = rd.ctx;
  if (!rd.Array(je, "/rules/expansions")) return rd.error;
  for (size_t i = 0; i < je.size(); ++i) {
    std::string id;
    if (!rd.String(je[i], Ptr("/rules/expansions", i), id)) return rd.error;
    // A repeated id is refused, as a duplicate key is: the file says something twice.
    for (size_t k = 0; k < i; ++k)
      if (je[k] == je[i])
        return JsonError(ctx.source, Ptr("/rules/expansions", i),
                         "expansion \"" + id + "\" given twice (also /rules/expansions/" +
                             std::to_string(k) + ")");
    const Expansion* e = ctx.lookup ? ctx.lookup(id) : nullptr;
    if (!e) {
      std::string known;
      if (ctx.known)
        for (const std::string& k : ctx.known()) known += (known.empty() ? "" : ", ") + k;
      return Status(ErrorCode::kUnknownRules, ctx.source + ":" + Ptr("/rules/expansions", i) +
                                                  ": unknown expansion \"" + id +
                                                  "\" (known: " + known + ")");
    }
    exps.push_back(e);
  }
  if (ctx.known) {
    std::vector<const Expansion*> ordered;
    for (const std::string& k : ctx.known())
      for (const Expansion* e : exps)
        if (e->Id() == k && std::find(ordered.begin(), ordered.end(), e) == ordered.end())
          ordered.push_back(e);
    exps = ordered;
  }
  return Status::Ok();
}

// /rules: the configuration the rest of the file is read against.
Status ReadRules(Reader& rd, const json& j, Position& pos) {
  if (!j.contains("rules"))
    return JsonError(rd.ctx.source, "/rules", "missing (edition, expansions, options)");
  const json& jr = j["rules"];
  if (!rd.Object(jr, "/rules") || !rd.Keys(jr, "/rules", {"edition", "expansions", "options"}))
    return rd.error;
  RuleOptions opts;
  if (Status s = ReadOptions(rd, jr, opts); !s.ok()) return s;
  std::vector<const Expansion*> exps;
  if (jr.contains("expansions"))
    if (Status s = ReadExpansionIds(rd, jr["expansions"], exps); !s.ok()) return s;
  pos.config = MakeConfig(opts, exps);
  return Status::Ok();
}

// /board/i in the document: the element as read (any form but a plain record's).
Status ReadBoardTile(Reader& rd, const json& jt, size_t i, Position& pos) {
  const Where w("/board", i);
  TileType t;
  int x, y;
  Rotation r = 0;
  static constexpr std::string_view kTileKeys[] = {"tile", "x", "y", "rotation"};
  const json* f[4];  // tile, x, y, rotation
  if (!rd.Object(jt, w) || !rd.Fields(jt, w, kTileKeys, f)) return rd.error;
  for (int k = 0; k < 3; ++k)
    if (!f[k]) return JsonError(rd.ctx.source, PtrOf(w, kTileKeys[k].data()), "missing");
  if (!rd.Tile(*f[0], Where(w, "tile"), t) || !rd.Int(*f[1], Where(w, "x"), x) ||
      !rd.Int(*f[2], Where(w, "y"), y))
    return rd.error;
  if (f[3] && !rd.Rotation(*f[3], Where(w, "rotation"), r)) return rd.error;
  if (auto other = pos.board.At({x, y}))
    return JsonError(rd.ctx.source, w.str(),
                     "two tiles on one square (" + std::to_string(x) + ", " + std::to_string(y) +
                         "): /board/" + std::to_string(*other) + " is already there");
  pos.board.Place(t, {x, y}, r);
  return Status::Ok();
}

// /board: each tile placed as read (a square named twice is refused). Plain elements come as
// records (`board`, input_file.h), whose values were checked as they were read: the same
// checks as ReadBoardTile, in the same order, with the same messages.
Status ReadBoard(Reader& rd, const json& j, const CompactBoard* board, Position& pos) {
  if (!j.contains("board"))
    return JsonError(rd.ctx.source, "/board", "missing (at least the start tile)");
  const json& jb = j["board"];
  if (!rd.Array(jb, "/board")) return rd.error;
  pos.board.ReserveTiles(static_cast<int>(jb.size()));
  if (!board) {
    for (size_t i = 0; i < jb.size(); ++i)
      if (Status s = ReadBoardTile(rd, jb[i], i, pos); !s.ok()) return s;
    return Status::Ok();
  }
  CARC_CHECK(board->tiles.size() == jb.size());
  // The squares the records cover, so the grid is made once at its size (growing it as the
  // tiles arrive copied it each time).
  Coord lo{0, 0}, hi{0, 0};
  bool any = false;
  for (const BoardRecord& b : board->tiles) {
    if (b.in_doc) continue;
    lo = any ? Coord{std::min(lo.x, b.x), std::min(lo.y, b.y)} : Coord{b.x, b.y};
    hi = any ? Coord{std::max(hi.x, b.x), std::max(hi.y, b.y)} : Coord{b.x, b.y};
    any = true;
  }
  if (any) pos.board.ReserveBox({lo.x - 1, lo.y - 1}, {hi.x + 1, hi.y + 1});
  for (size_t i = 0; i < jb.size(); ++i) {
    const BoardRecord& b = board->tiles[i];
    if (b.in_doc) {
      if (Status s = ReadBoardTile(rd, jb[i], i, pos); !s.ok()) return s;
      continue;
    }
    const Where w("/board", i);
    const auto t = TileCatalog::Base().Find(std::string_view(&b.tile, 1));
    if (!t) {
      TileType unknown;
      rd.Tile(json(std::string(1, b.tile)), Where(w, "tile"), unknown);  // its message
      return rd.error;
    }
    if (auto other = pos.board.At({b.x, b.y}))
      return JsonError(rd.ctx.source, w.str(),
                       "two tiles on one square (" + std::to_string(b.x) + ", " +
                           std::to_string(b.y) + "): /board/" + std::to_string(*other) +
                           " is already there");
    pos.board.Place(*t, {b.x, b.y}, b.rotation);
  }
  return Status::Ok();
}

// /players; a supply the file leaves out (-1 until then) is filled in once the figures are read.
Status ReadPlayers(Reader& rd, const json& j, Position& pos) {
  const GameConfig& cfg = pos.cfg();
  if (!j.contains("players")) return JsonError(rd.ctx.source, "/players", "missing");
  const json& jp = j["players"];
  if (!rd.Array(jp, "/players")) return rd.error;
  if (jp.empty() || jp.size() > 6)
    return JsonError(rd.ctx.source, "/players", "expected 1 to 6 players");
  for (size_t i = 0; i < jp.size(); ++i) {
    const Where w("/players", i);
    const json& jpl = jp[i];
    static constexpr std::string_view kPlayerKeys[] = {"name", "score", "supply"};
    const json* v[3];  // name, score, supply
    if (!rd.Object(jpl, w) || !rd.Fields(jpl, w, kPlayerKeys, v)) return rd.error;
    Player p;
    p.name = "P" + std::to_string(i);
    if (v[0] && !rd.String(*v[0], Where(w, "name"), p.name)) return rd.error;
    if (std::string why = NameProblem(p.name); !why.empty())
      return JsonError(rd.ctx.source, PtrOf(w, "name"), "a player's name: " + why);
    if (v[1] && !rd.Int(*v[1], Where(w, "score"), p.score)) return rd.error;
    p.supply.assign(cfg.figure_kinds.size(), -1);
    if (v[2]) {
      const json& js = *v[2];
      const Where ws(w, "supply");
      if (!rd.Object(js, ws)) return rd.error;
      for (const auto& [key, value] : js.get_ref<const json::object_t&>()) {
        int k = cfg.FigureKind(key);
        if (k < 0)
          return JsonError(rd.ctx.source, PtrOf(ws, key.c_str()),
                           "unknown figure kind for these rules");
        if (!rd.Int(value, Where(ws, key.c_str()), p.supply[k])) return rd.error;
      }
    }
    pos.players.push_back(std::move(p));
  }
  return Status::Ok();
}

// One figure's posture: a farmer always lies; a figure on a road, city or monastery may lie
// where an expansion lays it down, which Validate checks once the expansion sections are read.
Status ReadPosture(Reader& rd, const json& jv, const Where& w, Figure& f) {
  std::string posture;
  if (!rd.String(jv, Where(w, "posture"), posture)) return rd.error;
  if (posture != "standing" && posture != "lying")
    return JsonError(rd.ctx.source, PtrOf(w, "posture"), "expected \"standing\" or \"lying\"");
  if (f.lying && posture != "lying")
    return JsonError(rd.ctx.source, PtrOf(w, "posture"), "a figure on a field lies (farmer)");
  f.lying = posture == "lying";
  return Status::Ok();
}

// /figures/i, on the board already read.
Status ReadFigure(Reader& rd, const json& fj, const Where& w, const Position& pos, Figure& f,
                  bool& posture_given) {
  const GameConfig& cfg = pos.cfg();
  const std::string& source = rd.ctx.source;
  static constexpr std::string_view kFigureKeys[] = {"owner",   "x",    "y",
                                                     "feature", "kind", "posture"};
  const json* v[6];  // owner, x, y, feature, kind, posture
  if (!rd.Object(fj, w) || !rd.Fields(fj, w, kFigureKeys, v)) return rd.error;
  for (int k = 0; k < 4; ++k)
    if (!v[k]) return JsonError(source, PtrOf(w, kFigureKeys[k].data()), "missing");
  int x, y;
  std::string kind = "meeple", feature;
  if (!rd.Int(*v[0], Where(w, "owner"), f.owner) || !rd.Int(*v[1], Where(w, "x"), x) ||
      !rd.Int(*v[2], Where(w, "y"), y) || !rd.String(*v[3], Where(w, "feature"), feature))
    return rd.error;
  if (f.owner < 0 || f.owner >= static_cast<int>(pos.players.size()))
    return JsonError(source, PtrOf(w, "owner"), "no player " + std::to_string(f.owner));
  if (v[4] && !rd.String(*v[4], Where(w, "kind"), kind)) return rd.error;
  f.kind = cfg.FigureKind(kind);
  if (f.kind < 0)
    return JsonError(source, PtrOf(w, "kind"),
                     "unknown figure kind \"" + kind + "\" for these rules");
  auto t = pos.board.At({x, y});
  if (!t)
    return JsonError(source, w.str(),
                     "no tile at (" + std::to_string(x) + ", " + std::to_string(y) + ")");
  auto seg = ParseFeature(pos.board.rotated(*t), feature);
  if (!seg.ok())
    return JsonError(
        source, PtrOf(w, "feature"),
        seg.status().message() + " (tile " + cfg.catalog->Name(pos.board.tile(*t).type) + ")");
  f.node = Board::Node(*t, *seg);
  f.lying = pos.board.segment(f.node).kind == FeatureKind::kField;
  posture_given = v[5] != nullptr;
  return v[5] ? ReadPosture(rd, *v[5], w, f) : Status::Ok();
}

// /figures; then each supply the file leaves out: the kind's count less those on the board.
Status ReadFigures(Reader& rd, const json& j, Position& pos, std::vector<bool>& posture_given) {
  if (j.contains("figures")) {
    const json& jf = j["figures"];
    if (!rd.Array(jf, "/figures")) return rd.error;
    for (size_t i = 0; i < jf.size(); ++i) {
      Figure f;
      bool given = false;
      if (Status s = ReadFigure(rd, jf[i], Where("/figures", i), pos, f, given); !s.ok()) return s;
      posture_given.push_back(given);
      pos.figures.push_back(f);
    }
  }
  const GameConfig& cfg = pos.cfg();
  const json& jp = j["players"];
  for (size_t p = 0; p < pos.players.size(); ++p)
    for (size_t k = 0; k < cfg.figure_kinds.size(); ++k)
      if (pos.players[p].supply[k] < 0 &&
          !(jp[p].contains("supply") && jp[p]["supply"].contains(cfg.figure_kinds[k].name)))
        pos.players[p].supply[k] =
            cfg.figure_kinds[k].per_player -
            pos.FiguresOnBoard(static_cast<PlayerId>(p), static_cast<int>(k));
  return Status::Ok();
}

// A step is named as it is stated (Step::StatedAs): the first step stated so, or -1.
int StepStated(const GameConfig& cfg, std::string_view name) {
  for (size_t i = 0; i < cfg.pipeline.size(); ++i)
    if (cfg.pipeline[i]->StatedAs() == name) return static_cast<int>(i);
  return -1;
}

// /turn/step as a pipeline index; the steps a file may name are listed when it is unknown.
Status ReadStepName(Reader& rd, const std::string& step, const GameConfig& cfg, int& idx) {
  idx = StepStated(cfg, step);
  if (idx >= 0 && step != kScoreCompleted && step != kEndTurn) return Status::Ok();
  std::string known;
  for (size_t i = 0; i < cfg.pipeline.size(); ++i) {
    const std::string_view name = cfg.pipeline[i]->StatedAs();
    if (name != kScoreCompleted && name != kEndTurn && StepStated(cfg, name) == static_cast<int>(i))
      known += (known.empty() ? "" : ", ") + std::string(name);
  }
  return JsonError(
      rd.ctx.source, "/turn/step",
      "unknown step \"" + step + "\" (known: " + known + ", final_scoring, game_over)");
}

// /turn/placed: the tile placed this turn, at a step after place_tile.
Status ReadPlaced(Reader& rd, const json& jt, int place_idx, Position& pos) {
  const std::string& source = rd.ctx.source;
  if (!jt.contains("placed"))
    return JsonError(source, "/turn/placed",
                     "missing: {\"x\", \"y\"} of the tile placed this turn");
  const json& jpl = jt["placed"];
  int x, y;
  if (!rd.Object(jpl, "/turn/placed") || !rd.Keys(jpl, "/turn/placed", {"x", "y"})) return rd.error;
  if (!jpl.contains("x") || !jpl.contains("y"))
    return JsonError(source, "/turn/placed", "expected {\"x\": .., \"y\": ..}");
  if (!rd.Int(jpl["x"], "/turn/placed/x", x) || !rd.Int(jpl["y"], "/turn/placed/y", y))
    return rd.error;
  auto t = pos.board.At({x, y});
  if (!t)
    return JsonError(source, "/turn/placed",
                     "no tile at (" + std::to_string(x) + ", " + std::to_string(y) + ")");
  pos.turn.placed = *t;
  for (int s = place_idx + 1; s < pos.turn.step; ++s) pos.turn.decided |= 1u << s;
  for (size_t f = 0; f < pos.figures.size(); ++f)
    if (Board::TileOf(pos.figures[f].node) == *t)
      pos.turn.figures_this_turn.push_back(static_cast<int>(f));
  return Status::Ok();
}

// /turn: whose turn, the step, the tile drawn (at place_tile) or placed (after it).
Status ReadTurn(Reader& rd, const json& j, Position& pos, bool& final_scoring) {
  const GameConfig& cfg = pos.cfg();
  const std::string& source = rd.ctx.source;
  pos.turn.step = cfg.StepIndex(kDrawTile);
  if (!j.contains("turn")) return Status::Ok();
  const json& jt = j["turn"];
  if (!rd.Object(jt, "/turn") || !rd.Keys(jt, "/turn", {"player", "step", "tile", "placed"}))
    return rd.error;
  if (jt.contains("player") && !rd.Int(jt["player"], "/turn/player", pos.turn.player))
    return rd.error;
  if (pos.turn.player < 0 || pos.turn.player >= static_cast<int>(pos.players.size()))
    return JsonError(source, "/turn/player", "no player " + std::to_string(pos.turn.player));
  std::string step = "draw";
  if (jt.contains("step") && !rd.String(jt["step"], "/turn/step", step)) return rd.error;
  // The game has ended: no tile is in hand and none is being placed.
  if (step == "game_over" || step == "final_scoring")
    for (const char* key : {"tile", "placed"})
      if (jt.contains(key))
        return JsonError(
            source, std::string("/turn/") + key,
            "a position at step " + step + " has no tile drawn or placed: the game has ended");
  if (step == "game_over") {
    pos.turn.game_over = true;  // final scoring done: the scores are final
    return Status::Ok();
  }
  if (step == "final_scoring") {
    // The game has ended (no tile left) and final scoring is still to do; the draw step
    // finds no tile and runs it.
    final_scoring = true;
    return Status::Ok();
  }
  if (Status s = ReadStepName(rd, step, cfg, pos.turn.step); !s.ok()) return s;
  const int idx = pos.turn.step, place_idx = StepStated(cfg, kPlaceTile);
  if (idx == place_idx) {
    if (!jt.contains("tile"))
      return JsonError(source, "/turn/tile", "missing: the tile drawn, to be placed");
    TileType t;
    if (!rd.Tile(jt["tile"], "/turn/tile", t)) return rd.error;
    pos.turn.drawn = t;
  } else if (jt.contains("tile")) {
    return JsonError(source, "/turn/tile", "only a position at step place_tile holds a drawn tile");
  }
  if (idx > place_idx) return ReadPlaced(rd, jt, place_idx, pos);
  if (jt.contains("placed"))
    return JsonError(source, "/turn/placed",
                     "only a position after tile placement has a placed tile");
  return Status::Ok();
}

// /supply/remaining: "rest" (the set less the board and the drawn tile; `rest` is set so that
// tiles held in expansion state are subtracted later) or counts by tile name.
Status ReadRemaining(Reader& rd, const json& jm, Position& pos, bool& rest) {
  const TileCatalog& cat = *pos.cfg().catalog;
  const std::string& source = rd.ctx.source;
  if (jm.is_string() && jm.get<std::string>() == "rest") {
    // BASE-SETUP: "rest" subtracts the board from the set; a partial board does not state
    // the whole board, so the counts depend on tiles the file leaves out.
    if (pos.board_partial)
      return JsonError(source, "/supply/remaining",
                       "\"rest\" needs the whole board, but board_partial states only part of "
                       "it: give the counts of the tiles left (e.g. {\"U\": 3})");
    for (TileType t = 0; t < cat.size(); ++t) pos.supply.counts[t] = cat.def(t).count;
    for (int i = 0; i < pos.board.size(); ++i) pos.supply.counts[pos.board.tile(i).type]--;
    if (pos.turn.drawn) pos.supply.counts[*pos.turn.drawn]--;
    rest = true;
    return Status::Ok();
  }
  if (!rd.Object(jm, "/supply/remaining")) return rd.error;
  const Where rem("/supply/remaining");
  for (const auto& [key, value] : jm.get_ref<const json::object_t&>()) {
    const Where w(rem, key.c_str());
    auto t = cat.Find(key);
    if (!t) return JsonError(source, w.str(), "unknown tile \"" + key + "\"");
    if (!rd.Int(value, w, pos.supply.counts[*t])) return rd.error;
    if (pos.supply.counts[*t] < 0) return JsonError(source, w.str(), "a count cannot be negative");
  }
  return Status::Ok();
}

// /board_empty (board_partial only): squares known to hold no tile, so that a placement or a
// feature next to them is judged (BASE-PLACE-ADJ, BASE-PLACE-EDGE). Strict: a square listed
// twice or holding a stated tile is refused, naming both places.
Status ReadEmpty(Reader& rd, const json& j, Position& pos) {
  if (!j.contains("board_empty")) return Status::Ok();
  const json& je = j["board_empty"];
  if (!rd.Array(je, "/board_empty")) return rd.error;
  if (je.empty())
    return JsonError(rd.ctx.source, "/board_empty",
                     "expected at least one square {\"x\": X, \"y\": Y} (or leave it out)");
  if (!pos.board_partial)
    return JsonError(rd.ctx.source, "/board_empty",
                     "empty squares are stated on a partial board only (board_partial: true); "
                     "on a whole board every square without a tile is empty");
  for (size_t i = 0; i < je.size(); ++i) {
    const Where w("/board_empty", i);
    static constexpr std::string_view kKeys[] = {"x", "y"};
    const json* f[2];
    int x, y;
    if (!rd.Object(je[i], w) || !rd.Fields(je[i], w, kKeys, f)) return rd.error;
    for (int k = 0; k < 2; ++k)
      if (!f[k]) return JsonError(rd.ctx.source, PtrOf(w, kKeys[k].data()), "missing");
    if (!rd.Int(*f[0], Where(w, "x"), x) || !rd.Int(*f[1], Where(w, "y"), y)) return rd.error;
    const Coord c{x, y};
    if (auto t = pos.board.At(c))
      return JsonError(rd.ctx.source, w.str(),
                       "the square " + CoordText(c) + " holds a tile (/board/" +
                           std::to_string(*t) + "), so it is not empty");
    const auto& seen = pos.board_empty;
    if (auto it = std::find(seen.begin(), seen.end(), c); it != seen.end())
      return JsonError(rd.ctx.source, w.str(),
                       "the square " + CoordText(c) + " is listed twice (first at /board_empty/" +
                           std::to_string(it - seen.begin()) + ")");
    pos.board_empty.push_back(c);
  }
  return Status::Ok();
}

// /board_partial and /supply (board_partial first: the supply's "rest" needs it).
Status ReadSupply(Reader& rd, const json& j, Position& pos, bool& rest) {
  const std::string& source = rd.ctx.source;
  if (j.contains("board_partial")) {
    if (!j["board_partial"].is_boolean())
      return JsonError(source, "/board_partial", "expected true or false");
    pos.board_partial = j["board_partial"].get<bool>();
  }
  pos.supply.counts.assign(pos.cfg().catalog->size(), 0);
  if (!j.contains("supply")) return Status::Ok();
  const json& js = j["supply"];
  if (!rd.Object(js, "/supply") || !rd.Keys(js, "/supply", {"draw_order", "remaining"}))
    return rd.error;
  if (js.contains("draw_order") && js.contains("remaining"))
    return JsonError(source, "/supply", "give either draw_order or remaining, not both");
  if (js.contains("remaining")) return ReadRemaining(rd, js["remaining"], pos, rest);
  if (!js.contains("draw_order")) return Status::Ok();
  const json& jd = js["draw_order"];
  if (!rd.Array(jd, "/supply/draw_order")) return rd.error;
  pos.supply.ordered = true;
  for (size_t i = 0; i < jd.size(); ++i) {
    TileType t;
    if (!rd.Tile(jd[i], Where("/supply/draw_order", i), t)) return rd.error;
    pos.supply.order.push_back(t);
    pos.supply.counts[t]++;
  }
  return Status::Ok();
}

// /expansions/<id>: the core reads "variants" against the module's declared table, then the
// module reads the rest of its section.
Status ReadSection(const IoContext& ctx, const ModuleDecl& m, const json& section,
                   const std::string& w, Position& pos) {
  try {
    // A module without state of its own reads nothing but "variants".
    if (!m.state.parse) {
      if (!section.is_object())
        return JsonError(ctx.source, w,
                         std::string(m.module->Id()) +
                             " has no state of its own: expected {} (or no section), got " +
                             section.type_name());
      for (auto it = section.begin(); it != section.end(); ++it)
        if (it.key() != "variants")
          return JsonError(
              ctx.source, Ptr(w, it.key().substr(0, 100)),
              "unknown field: " + std::string(m.module->Id()) + " has no state of its own");
    }
    const bool variants = section.is_object() && section.contains("variants");
    if (variants)
      if (Status s = ReadVariants(m, section["variants"], w + "/variants", pos); !s.ok())
        return Status(s.code(), ctx.source + ":" + s.message());
    json rest;
    if (variants) {
      rest = section;
      rest.erase("variants");
    }
    Status s = m.state.parse ? m.state.parse(variants ? rest : section, w, pos) : Status::Ok();
    if (!s.ok()) return Status(s.code(), ctx.source + ":" + s.message());
  } catch (const json::exception& ex) {
    return JsonError(ctx.source, w, ex.what());
  }
  return Status::Ok();
}

// /expansions: every module's state slice (made empty, then read from its section if any).
Status ReadSections(Reader& rd, const json& j, Position& pos) {
  const GameConfig& cfg = pos.cfg();
  for (const ModuleDecl& m : cfg.modules)
    pos.slices.push_back(m.state.make ? m.state.make() : nullptr);
  if (!j.contains("expansions")) return Status::Ok();
  const json& je = j["expansions"];
  if (!rd.Object(je, "/expansions")) return rd.error;
  for (auto it = je.begin(); it != je.end(); ++it) {
    const Expansion* e = cfg.FindExpansion(it.key());
    const std::string w = Ptr("/expansions", it.key());
    if (!e)
      return JsonError(rd.ctx.source, w, "state for an expansion not enabled in /rules/expansions");
    if (Status s = ReadSection(rd.ctx, *cfg.Module(e), it.value(), w, pos); !s.ok()) return s;
  }
  return Status::Ok();
}

// What needs every section read: postures an expansion lays down, the supply's "rest" less the
// tiles held in expansion state, and final scoring's empty supply.
Status Finish(Reader& rd, const std::vector<bool>& posture_given, bool rest, bool final_scoring,
              Position& pos) {
  const GameConfig& cfg = pos.cfg();
  const TileCatalog& cat = *cfg.catalog;
  // BASE-MEEPLE-TILE: a figure whose posture the file leaves out lies on a road, city or
  // monastery an expansion's state lays down (a stated posture is kept; Validate checks it).
  for (size_t f = 0; f < pos.figures.size(); ++f)
    if (!posture_given[f] && !pos.figures[f].lying)
      for (const auto& h : cfg.hooks.excuse)
        if (h.fn(pos, static_cast<int>(f), Excuse::kLaidDown)) pos.figures[f].lying = true;
  // BASE-SETUP: "rest" is the set minus the board, the drawn tile and tiles held in an
  // expansion's state (e.g. a tile held in hand at an expansion's own step).
  if (rest) {
    std::vector<TileType> held;
    for (const auto& h : cfg.hooks.held_tiles) h.fn(pos, held);
    for (TileType t : held) pos.supply.counts[t]--;
    for (TileType t = 0; t < cat.size(); ++t)
      if (pos.supply.counts[t] < 0)
        return JsonError(
            rd.ctx.source, "/supply/remaining",
            "\"rest\": more tiles " + cat.Name(t) + " on the board and in hand than the set has");
  }
  // BASE-END: the game ends only when no tile is left, at final scoring and after it.
  if ((final_scoring || pos.turn.game_over) && pos.supply.total() > 0)
    return JsonError(rd.ctx.source, "/turn/step",
                     std::string(final_scoring ? "final_scoring" : "game_over") +
                         ": the game ends only when no tile is left, but the supply holds " +
                         std::to_string(pos.supply.total()));
  return Status::Ok();
}

}  // namespace

// The sections in the order each needs the ones before: the rules make the configuration the
// rest is read against; figures stand on the board; the turn names players and figures.
StatusOr<Position> ParsePosition(const json& j, const IoContext& ctx, const CompactBoard* board) {
  Reader rd{ctx, Status::Ok()};
  if (!rd.Object(j, "")) return rd.error;
  if (!rd.Keys(j, "",
               {"meta", "rules", "players", "board", "figures", "supply", "turn", "question",
                "expansions", "board_partial", "board_empty"}))
    return rd.error;
  // meta is free-form and not read by the model, but it is an object of fields: anything else
  // is a file that is not what it claims.
  if (const auto m = j.find("meta"); m != j.end() && !rd.Object(*m, "/meta")) return rd.error;
  Position pos;
  std::vector<bool> posture_given;  // per figure: the file states its posture
  bool final_scoring = false, rest = false;
  if (Status s = ReadRules(rd, j, pos); !s.ok()) return s;
  if (Status s = ReadBoard(rd, j, board && board->read ? board : nullptr, pos); !s.ok()) return s;
  if (Status s = ReadPlayers(rd, j, pos); !s.ok()) return s;
  if (Status s = ReadFigures(rd, j, pos, posture_given); !s.ok()) return s;
  if (Status s = ReadTurn(rd, j, pos, final_scoring); !s.ok()) return s;
  if (Status s = ReadSupply(rd, j, pos, rest); !s.ok()) return s;
  if (Status s = ReadEmpty(rd, j, pos); !s.ok()) return s;
  if (Status s = ReadSections(rd, j, pos); !s.ok()) return s;
  if (Status s = Finish(rd, posture_given, rest, final_scoring, pos); !s.ok()) return s;
  return pos;
}

json DumpPosition(const Position& pos) {
  const GameConfig& cfg = pos.cfg();
  const TileCatalog& cat = *cfg.catalog;
  json j;
  json rules = {{"edition", EditionName(cfg.options.edition)}, {"expansions", json::array()}};
  for (const Expansion* e : cfg.expansions) rules["expansions"].push_back(e->Id());
  rules["options"] = {{"city_scoring", CityScoringName(cfg.options.city_scoring)},
                      {"farm_scoring", FarmScoringName(cfg.options.farm_scoring)}};
  j["rules"] = std::move(rules);
  if (pos.board_partial) j["board_partial"] = true;
  json empty = json::array();  // a square a tile was placed on since is no longer empty
  for (Coord c : pos.board_empty)
    if (pos.KnownEmpty(c)) empty.push_back({{"x", c.x}, {"y", c.y}});
  if (!empty.empty()) j["board_empty"] = std::move(empty);
  // Players, board and figures object by object, key by key: an initializer list is copied
  // element by element (the soak's round trip dumps every position it checks twice).
  json players = json::array();
  for (const Player& p : pos.players) {
    json s = json::object();
    for (size_t k = 0; k < cfg.figure_kinds.size(); ++k) s[cfg.figure_kinds[k].name] = p.supply[k];
    json o = json::object();
    o["name"] = p.name;
    o["score"] = p.score;
    o["supply"] = std::move(s);
    players.push_back(std::move(o));
  }
  j["players"] = std::move(players);
  // The keys in their order (an object is a sorted map): each goes in at the end, unsearched.
  json board = json::array();
  board.get_ref<json::array_t&>().reserve(pos.board.size());
  for (int i = 0; i < pos.board.size(); ++i) {
    const PlacedTile& t = pos.board.tile(i);
    json o = json::object();
    json::object_t& m = o.get_ref<json::object_t&>();
    m.emplace_hint(m.end(), "rotation", 90 * t.rotation);
    m.emplace_hint(m.end(), "tile", cat.Name(t.type));
    m.emplace_hint(m.end(), "x", t.pos.x);
    m.emplace_hint(m.end(), "y", t.pos.y);
    board.push_back(std::move(o));
  }
  j["board"] = std::move(board);
  json figures = json::array();
  for (const Figure& f : pos.figures) {
    int t = Board::TileOf(f.node);
    Coord c = pos.board.tile(t).pos;
    json o = json::object();
    json::object_t& m = o.get_ref<json::object_t&>();
    m.emplace_hint(m.end(), "feature", FeatureName(pos.board.rotated(t), Board::SegmentOf(f.node)));
    m.emplace_hint(m.end(), "kind", cfg.figure_kinds[f.kind].name);
    m.emplace_hint(m.end(), "owner", f.owner);
    m.emplace_hint(m.end(), "posture", f.lying ? "lying" : "standing");
    m.emplace_hint(m.end(), "x", c.x);
    m.emplace_hint(m.end(), "y", c.y);
    figures.push_back(std::move(o));
  }
  j["figures"] = std::move(figures);
  if (pos.supply.ordered) {
    json order = json::array();
    order.get_ref<json::array_t&>().reserve(pos.supply.order.size());
    for (TileType t : pos.supply.order) order.push_back(cat.Name(t));
    json supply = json::object();
    supply["draw_order"] = std::move(order);
    j["supply"] = std::move(supply);
  } else {
    json rem = json::object();
    for (TileType t = 0; t < cat.size(); ++t)
      if (pos.supply.counts[t] > 0) rem[cat.Name(t)] = pos.supply.counts[t];
    json supply = json::object();
    supply["remaining"] = std::move(rem);
    j["supply"] = std::move(supply);
  }
  json turn = {{"player", pos.turn.player}};
  if (pos.turn.game_over) {
    turn["step"] = "game_over";
  } else {
    turn["step"] = pos.pipeline_step().StatedAs();
    if (pos.turn.drawn) turn["tile"] = cat.Name(*pos.turn.drawn);
    if (pos.turn.placed >= 0 && pos.turn.step > cfg.StepIndex(kPlaceTile)) {
      Coord c = pos.board.tile(pos.turn.placed).pos;
      turn["placed"] = {{"x", c.x}, {"y", c.y}};
    }
  }
  j["turn"] = std::move(turn);
  json ex = json::object();
  for (const ModuleDecl& m : cfg.modules) {
    json s = json::object();
    if (m.state.dump) m.state.dump(pos, s);
    DumpVariants(m, pos, s);
    if (!s.empty()) ex[std::string(m.module->Id())] = std::move(s);
  }
  if (!ex.empty()) j["expansions"] = std::move(ex);
  return j;
}

namespace {

// Each core action takes only its own keys: a rotation on a figure, or a feature on a tile,
// would be dropped unread. True for an expansion's action, which checks its own.
bool CoreActionKeys(Reader& rd, const json& j, const std::string& where, const std::string& type) {
  if (type == "pass") return rd.Keys(j, where, {"type"});
  if (type == "draw") return rd.Keys(j, where, {"type", "tile"});
  if (type == "place_tile") return rd.Keys(j, where, {"type", "tile", "x", "y", "rotation"});
  if (type == "place_figure") return rd.Keys(j, where, {"type", "x", "y", "kind", "feature"});
  return true;
}

}  // namespace

StatusOr<Action> ParseAction(const json& j, const Position& pos, const std::string& where,
                             const IoContext& ctx) {
  Reader rd{ctx, Status::Ok()};
  if (!rd.Object(j, where)) return rd.error;
  if (!j.contains("type"))
    return JsonError(ctx.source, Ptr(where, "type"),
                     "missing (draw, place_tile, place_figure, pass)");
  std::string type;
  if (!rd.String(j["type"], Ptr(where, "type"), type)) return rd.error;
  if (!CoreActionKeys(rd, j, where, type)) return rd.error;
  Action a;
  if (type == "pass") {
    a.type = ActionType::kPass;
    return a;
  }
  if (type == "draw") {
    a.type = ActionType::kDraw;
    if (!j.contains("tile"))
      return JsonError(ctx.source, Ptr(where, "tile"), "missing: the tile drawn");
    if (!rd.Tile(j["tile"], Ptr(where, "tile"), a.tile)) return rd.error;
    return a;
  }
  if (type == "place_tile") {
    a.type = ActionType::kPlaceTile;
    for (const char* k : {"x", "y", "rotation"})
      if (!j.contains(k)) return JsonError(ctx.source, Ptr(where, k), "missing");
    if (!rd.Int(j["x"], Ptr(where, "x"), a.pos.x) || !rd.Int(j["y"], Ptr(where, "y"), a.pos.y) ||
        !rd.Rotation(j["rotation"], Ptr(where, "rotation"), a.rotation))
      return rd.error;
    if (j.contains("tile") && !rd.Tile(j["tile"], Ptr(where, "tile"), a.tile)) return rd.error;
    return a;
  }
  if (type == "place_figure") {
    a.type = ActionType::kPlaceFigure;
    std::string kind = "meeple", feature;
    if (j.contains("kind") && !rd.String(j["kind"], Ptr(where, "kind"), kind)) return rd.error;
    a.figure_kind = pos.cfg().FigureKind(kind);
    if (a.figure_kind < 0)
      return JsonError(ctx.source, Ptr(where, "kind"),
                       "unknown figure kind \"" + kind + "\" for these rules");
    if (!j.contains("feature"))
      return JsonError(ctx.source, Ptr(where, "feature"), "missing (e.g. \"road:EW\")");
    if (!rd.String(j["feature"], Ptr(where, "feature"), feature)) return rd.error;
    int tile = pos.turn.placed;
    if (j.contains("x") || j.contains("y")) {
      if (!j.contains("x") || !j.contains("y"))
        return JsonError(ctx.source, where, "give both x and y, or neither");
      if (!rd.Int(j["x"], Ptr(where, "x"), a.pos.x) || !rd.Int(j["y"], Ptr(where, "y"), a.pos.y))
        return rd.error;
      a.has_pos = true;
      auto t = pos.board.At(a.pos);
      if (!t)
        return JsonError(
            ctx.source, where,
            "no tile at (" + std::to_string(a.pos.x) + ", " + std::to_string(a.pos.y) + ")");
      tile = *t;
    }
    if (tile < 0)
      return JsonError(ctx.source, where,
                       "no tile has been placed this turn; name the tile with x and y");
    if (!a.has_pos) {
      a.pos = pos.board.tile(tile).pos;
      a.has_pos = true;
    }
    auto seg = ParseFeature(pos.board.rotated(tile), feature);
    if (!seg.ok()) return JsonError(ctx.source, Ptr(where, "feature"), seg.status().message());
    a.segment = *seg;
    return a;
  }
  try {  // the enabled modules' declared actions (module_loader.h)
    if (auto r = ParseModuleAction(j, pos, where)) {
      if (!r->ok()) return Status(r->status().code(), ctx.source + ":" + r->status().message());
      return **r;
    }
  } catch (const json::exception& ex) {
    return JsonError(ctx.source, where, ex.what());
  }
  return JsonError(ctx.source, Ptr(where, "type"),
                   "unknown action type \"" + type +
                       "\" (draw, place_tile, place_figure, pass, or an "
                       "enabled expansion's action)");
}

Status CheckActionShape(const json& j, const Position& pos, const std::string& where,
                        const IoContext& ctx) {
  Reader rd{ctx, Status::Ok()};
  if (!rd.Object(j, where)) return rd.error;
  if (!j.contains("type"))
    return JsonError(ctx.source, Ptr(where, "type"),
                     "missing (draw, place_tile, place_figure, pass)");
  std::string type;
  if (!rd.String(j["type"], Ptr(where, "type"), type)) return rd.error;
  if (type == "pass" || type == "draw" || type == "place_tile" || type == "place_figure") {
    if (!CoreActionKeys(rd, j, where, type)) return rd.error;
    // The values that do not depend on the board: a tile's name, coordinates, a rotation, a
    // figure kind of these rules.
    Action a;
    std::string kind;
    if (j.contains("tile") && !rd.Tile(j["tile"], Ptr(where, "tile"), a.tile)) return rd.error;
    if ((j.contains("x") && !rd.Int(j["x"], Ptr(where, "x"), a.pos.x)) ||
        (j.contains("y") && !rd.Int(j["y"], Ptr(where, "y"), a.pos.y)) ||
        (j.contains("rotation") &&
         !rd.Rotation(j["rotation"], Ptr(where, "rotation"), a.rotation)) ||
        (j.contains("feature") && !rd.String(j["feature"], Ptr(where, "feature"), kind)))
      return rd.error;
    if (j.contains("kind")) {
      if (!rd.String(j["kind"], Ptr(where, "kind"), kind)) return rd.error;
      if (pos.cfg().FigureKind(kind) < 0)
        return JsonError(ctx.source, Ptr(where, "kind"),
                         "unknown figure kind \"" + kind + "\" for these rules");
    }
    return Status::Ok();
  }
  if (auto s = CheckModuleActionFields(j, pos, where)) {
    if (!s->ok()) return Status(s->code(), ctx.source + ":" + s->message());
    return Status::Ok();
  }
  return JsonError(ctx.source, Ptr(where, "type"),
                   "unknown action type \"" + type +
                       "\" (draw, place_tile, place_figure, pass, or an "
                       "enabled expansion's action)");
}

json FeatureRefJson(const Position& pos, int node) {
  int t = Board::TileOf(node);
  Coord c = pos.board.tile(t).pos;
  // Key by key: an initializer list is copied element by element (this object is
  // written for every candidate a card names in the brute force).
  json j = json::object();
  j["x"] = c.x;
  j["y"] = c.y;
  j["feature"] = FeatureName(pos.board.rotated(t), Board::SegmentOf(node));
  return j;
}

json DumpAction(const Position& pos, const Action& a) {
  const TileCatalog& cat = *pos.cfg().catalog;
  switch (a.type) {
    case ActionType::kPass:
      return {{"type", "pass"}};
    case ActionType::kDraw:
      return {{"type", "draw"}, {"tile", cat.Name(a.tile)}};
    case ActionType::kPlaceTile: {
      json j = {
          {"type", "place_tile"}, {"x", a.pos.x}, {"y", a.pos.y}, {"rotation", 90 * a.rotation}};
      if (a.tile >= 0) j["tile"] = cat.Name(a.tile);
      return j;
    }
    case ActionType::kExpansion: {
      json j = json::object();
      DumpModuleAction(pos, a, j);
      return j;
    }
    case ActionType::kPlaceFigure: {
      json j = {{"type", "place_figure"}, {"kind", pos.cfg().figure_kinds[a.figure_kind].name}};
      if (auto t = pos.board.At(a.pos); t && a.has_pos) {
        j["x"] = a.pos.x;
        j["y"] = a.pos.y;
        j["feature"] = FeatureName(pos.board.rotated(*t), a.segment);
      }
      return j;
    }
  }
  return {};
}

json DumpScoreEvent(const Position& pos, const ScoreEvent& ev) {
  json j = {{"cause", std::string(CauseName(ev.cause))}};
  // Points that belong to no feature (an expansion's own points) name none.
  const bool feature = ev.root >= 0 || !ev.tiles.empty();
  if (feature) j["feature"] = FeatureKindName(ev.kind);
  j["points"] = ev.points;
  json tiles = json::array();
  for (Coord c : ev.tiles) tiles.push_back({c.x, c.y});
  j["tiles"] = tiles;
  j["tile_count"] = ev.tiles.size();
  if (feature && ev.kind == FeatureKind::kCity) j["coats_of_arms"] = ev.shields;
  if (feature && ev.kind == FeatureKind::kField) j["completed_cities"] = ev.cities;
  j["figures_per_player"] = ev.strength;
  j["winners"] = ev.winners;
  json names = json::array();
  for (PlayerId p : ev.winners) names.push_back(pos.players[p].name);
  j["winner_names"] = names;
  // What each winner actually receives, when that is not the whole of `points`.
  if (ev.StatesShares()) {
    json rec = json::array();
    for (size_t i = 0; i < ev.winners.size(); ++i)
      rec.push_back({{"player", pos.players[ev.winners[i]].name}, {"points", ev.receives[i]}});
    j["receives"] = rec;
  }
  j["formula"] = ev.formula;
  j["rulings"] = ev.rulings;
  return j;
}

}  // namespace carc::model

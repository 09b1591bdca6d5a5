#include "adjudicator/serve/api.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>
#include <set>
#include <string_view>
#include <vector>

#include "adjudicator/exit_codes.h"
#include "adjudicator/serve/highlights.h"
#include "adjudicator/serve/page_routes.h"
#include "database/games_store.h"
#include "database/migrate.h"
#include "database/replay.h"
#include "database/rulings_store.h"
#include "model/core/board.h"
#include "model/core/input_file.h"
#include "model/core/json_reader.h"
#include "model/core/module_loader.h"
#include "model/core/notation_text.h"
#include "model/core/position.h"
#include "model/core/position_io.h"
#include "model/expansions/registry.h"
#include "model/render/svg.h"
#include "model/render/tile_art.h"

namespace carc::serve {

using adjudicator::Mode;
using nlohmann::json;

namespace {

// The name position files get in messages: what the page offers to download.
constexpr const char* kSource = "position.json";

int HttpStatus(int exit_code) {
  switch (exit_code) {
    case adjudicator::kExitNoInput:
      return 404;
    case adjudicator::kExitInternal:
      return 500;
    case adjudicator::kExitIo:
      return 503;
    default:
      return 400;  // usage, malformed, unknown rules: the request is at fault
  }
}

// Replace: a byte that is not UTF-8 in a message never turns an answer into a 500.
std::string Dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

Response Error(int exit_code, const std::string& message) {
  return {HttpStatus(exit_code), "application/json",
          Dump(json({{"error", message}, {"exit_code", exit_code}}))};
}
Response Error(const model::Status& s) { return Error(static_cast<int>(s.code()), s.message()); }

Response Ok(const json& j) { return {200, "application/json", Dump(j)}; }

const char* RoleName(render::Role r) {
  switch (r) {
    case render::Role::kField:
      return "field";
    case render::Role::kRoad:
      return "road";
    case render::Role::kCity:
      return "city";
    case render::Role::kMonastery:
      return "monastery";
    case render::Role::kShield:
      return "shield";
    case render::Role::kJunction:
      return "junction";
  }
  return "field";
}

const char* EdgeName(model::EdgeType e) {
  switch (e) {
    case model::EdgeType::kField:
      return "field";
    case model::EdgeType::kRoad:
      return "road";
    case model::EdgeType::kCity:
      return "city";
  }
  return "field";
}

constexpr const char* kSideNames[4] = {"north", "east", "south", "west"};

// A request body: the reader of every input file (model/core/input_file.h), so a body gets the
// checks and the messages `carc adjudicate` gives a file: nesting cap, a key named twice, a
// number beyond the range of a double, each refused (exit 65) naming the JSON pointer.
model::StatusOr<json> ParseBody(const std::string& text, const std::string& source) {
  return model::ParseJsonText(text, source);
}

// A query or path parameter as a whole decimal integer in [lo, hi]: "1e9", "2abc", " 1", "+1",
// "01" (no leading zero, as on the command line) and "" are not numbers here.
std::optional<int64_t> StrictInt(const std::string& text, int64_t lo, int64_t hi) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end || v < lo || v > hi) return std::nullopt;
  const size_t digits = text[0] == '-' ? 1 : 0;
  if (text.size() > digits + 1 && text[digits] == '0') return std::nullopt;
  if (text == "-0") return std::nullopt;  // zero is written 0
  return v;
}

// A parameter's value for a message: quoted, shortened, bytes that are not UTF-8 escaped.
std::string Quoted(const std::string& text) {
  std::string shown = model::DisplayName(text.substr(0, 40));
  return "\"" + shown + (text.size() > 40 ? "...\"" : "\"");
}

// The query parameters each call reads; every other call reads none. Checked once for every
// call before it is answered, so that a call added later cannot ignore a parameter silently.
std::vector<std::string_view> ParametersOf(const std::string& method, const std::string& path) {
  if (method == "POST" && path == "/api/legal") return {"depth"};
  if (method == "GET" && path == "/api/rulings/search") return {"q", "limit"};
  if (method == "GET" && path == "/api/fixture") return {"path"};
  return {};
}

// Every query parameter is one this call reads; else 400 naming the first that is not.
std::optional<Response> UnknownParameter(const std::map<std::string, std::string>& query,
                                         const std::vector<std::string_view>& known) {
  for (const auto& [name, value] : query) {
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string list;
    for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    return Error(adjudicator::kExitUsage, Quoted(name) + ": unknown query parameter" +
                                              (list.empty() ? " (this call takes none)"
                                                            : " (this call takes " + list + ")"));
  }
  return std::nullopt;
}

}  // namespace

json TilesJson() {
  const model::TileCatalog& cat = model::TileCatalog::Base();
  json tiles = json::array();
  for (model::TileType t = 0; t < cat.size(); ++t) {
    json rots = json::array();
    for (model::Rotation r = 0; r < 4; ++r) {
      const model::RotatedTile& rt = cat.rotated(t, r);
      json shapes = json::array();
      for (const render::Shape& s : render::DescribeTile(rt))
        shapes.push_back({{"segment", s.segment}, {"role", RoleName(s.role)}, {"path", s.path}});
      json features = json::array();
      for (int seg = 0; seg < static_cast<int>(rt.segments.size()); ++seg) {
        render::Point p = render::SegmentAnchor(rt, seg);
        features.push_back({{"segment", seg},
                            {"name", model::FeatureName(rt, seg)},
                            {"kind", model::FeatureKindName(rt.segments[seg].kind)},
                            {"x", p.x * render::kTileSize},  // tile units, as the shapes
                            {"y", p.y * render::kTileSize}});
      }
      rots.push_back({{"rotation", 90 * r}, {"shapes", shapes}, {"features", features}});
    }
    tiles.push_back({{"id", cat.Name(t)}, {"count", cat.def(t).count}, {"rotations", rots}});
  }
  return {{"tiles", tiles},
          {"start", cat.Name(cat.start_tile())},
          {"tile_size", render::kTileSize},
          {"expansions", exp::Ids()},
          {"variants", VariantsJson()}};
}

json VariantsJson() {
  // One config with every registered module: what each declares (module_loader.h VariantDecl).
  const auto cfg = model::MakeConfig({}, exp::All());
  json out = json::object();
  for (const model::ModuleDecl& m : cfg->modules) {
    json list = json::array();
    for (const model::VariantDecl& v : m.variants) {
      json readings = {v.readings[v.adopted]};  // the adopted reading first
      for (size_t i = 0; i < v.readings.size(); ++i)
        if (static_cast<int>(i) != v.adopted) readings.push_back(v.readings[i]);
      list.push_back({{"ruling", v.ruling}, {"readings", readings}});
    }
    out[std::string(m.module->Id())] = list;
  }
  return out;
}

model::StatusOr<std::unique_ptr<Api>> Api::Create(const ApiOptions& opts) {
  std::unique_ptr<Api> api(new Api(opts));
  std::error_code ec;
  if (!opts.db_path.empty() && std::filesystem::exists(opts.db_path, ec)) {
    auto conn = database::OpenDatabase(opts.db_path, {.mode = database::OpenMode::kReadOnly});
    if (!conn.ok()) return conn.status();
    api->db_.emplace(std::move(*conn));
    api->db_description_ = opts.db_path + " (read-only)";
  } else {
    // No database file: the rulings and fixtures of the source tree, built into memory, so
    // the ruling browser works on a fresh checkout. Nothing is written to disk.
    auto conn = database::OpenDatabase(":memory:", {.mode = database::OpenMode::kCreate});
    if (!conn.ok()) return conn.status();
    auto rep = database::BuildFromRepo(*conn, opts.root);
    if (!rep.ok()) return rep.status();
    api->db_.emplace(std::move(*conn));
    api->db_description_ = "rulings of " + opts.root + " (in memory; no " +
                           (opts.db_path.empty() ? std::string("database file") : opts.db_path) +
                           ")";
  }
  if (auto vocab = database::ReadVocabulary(*api->db_); vocab.ok()) api->vocab_ = std::move(*vocab);
  auto games = database::ListGames(*api->db_, "", 1);
  api->db_has_games_ = games.ok() && games->is_array() && !games->empty();
  return api;
}

Response Api::Handle(const std::string& method, const std::string& path,
                     const std::map<std::string, std::string>& query, const std::string& body) {
  // No lock here: the model answers requests side by side (its caches are per thread); only
  // the SQLite connection is taken in turn (db_mu_), for the query and no longer.
  try {
    if (auto bad = UnknownParameter(query, ParametersOf(method, path))) return *bad;
    if (method == "GET" && path == "/api/tiles") {
      static const std::string tiles = TilesJson().dump();  // the same for every request
      return {200, "application/json", tiles};
    }
    if (method == "GET" && path == "/api/info")
      return Ok({{"db", db_description_},
                 {"games", db_has_games_},
                 {"max_perft_depth", opts_.max_perft_depth}});
    if (method == "POST" && path == "/api/adjudicate") return Run(body, Mode::kAdjudicate, 0);
    if (method == "POST" && path == "/api/validate") return Run(body, Mode::kValidate, 0);
    if (method == "POST" && path == "/api/score") return Run(body, Mode::kScore, 0);
    if (method == "POST" && path == "/api/legal") {
      // Without ?depth= a body question asking `legal` with a depth is counted at that depth,
      // as `carc legal FILE` without --depth counts at the file's.
      int depth = 0;
      bool stated = false;
      if (auto it = query.find("depth"); it != query.end()) {
        stated = true;
        const auto d = StrictInt(it->second, 0, opts_.max_perft_depth);
        if (!d)
          return Error(adjudicator::kExitUsage,
                       "depth: expected an integer from 0 to " +
                           std::to_string(opts_.max_perft_depth) +
                           " on the page (use `carc legal --depth N` for deeper counts), got " +
                           Quoted(it->second));
        depth = static_cast<int>(*d);
      }
      return Run(body, Mode::kLegal, depth, stated);
    }
    if (auto r = NotationRoute(method, path, body); r) return *r;  // notation_api.cc
    if (auto r = ModulesRoute(method, path); r) return *r;         // modules_api.cc
    if (method == "POST" && path == "/api/render") return Render(body);
    if (method == "POST" && path == "/api/fit") return Fit(body);
    if (method == "GET" && path == "/api/rulings/search") return Search(query);
    if (method == "GET" && path == "/api/rulings") {
      std::lock_guard<std::mutex> lock(db_mu_);
      auto list = database::ListRulings(*db_, "", "");
      return list.ok() ? Ok(*list) : Error(list.status());
    }
    if (method == "GET" && path.rfind("/api/rulings/", 0) == 0)
      return Ruling(path.substr(std::string("/api/rulings/").size()));
    if (method == "GET" && path == "/api/fixture") return Fixture(query);
    if (method == "GET" && path == "/api/games") return Games();
    if (method == "GET" && path.rfind("/api/games/", 0) == 0) {
      const std::string rest = path.substr(std::string("/api/games/").size());
      if (auto slash = rest.find("/turn/"); slash != std::string::npos)
        return GameTurn(rest.substr(0, slash), rest.substr(slash + 6));
      return Game(rest);
    }
    return Error(adjudicator::kExitNoInput, method + " " + path + ": no such API call");
  } catch (const std::exception& e) {
    return Error(adjudicator::kExitInternal, std::string("internal error: ") + e.what());
  }
}

Response Api::Run(const std::string& body, Mode mode, int depth, bool depth_stated) {
  auto doc = ParseBody(body, kSource);
  if (!doc.ok()) return Error(doc.status());
  // A question asking a count deeper than the page's limit is held to it, as ?depth= is.
  if (doc->is_object() && doc->contains("question") && (*doc)["question"].is_object()) {
    const json& q = (*doc)["question"];
    if (q.value("ask", json()) == "legal" && q.contains("depth") &&
        q["depth"].is_number_integer() && q["depth"].get<int64_t>() > opts_.max_perft_depth)
      return Error(adjudicator::kExitUsage,
                   std::string(kSource) + ":/question/depth: at most " +
                       std::to_string(opts_.max_perft_depth) +
                       " on the page (use `carc legal --depth N` for deeper counts), got " +
                       q["depth"].dump());
  }
  adjudicator::Outcome o = opts_.run(*doc, kSource, {mode, depth, depth_stated});
  if (!o.error.empty()) return Error(o.exit_code, o.error);
  json out = {{"exit_code", o.exit_code}, {"ruling", o.ruling}};
  // The picture of the ruling, as `carc adjudicate --svg` draws it; a ruling without a
  // picture (e.g. an impossible position) still answers.
  if (mode == Mode::kAdjudicate) {
    auto svg = render::RenderRuling(*doc, o.ruling, kSource);
    if (svg.ok()) out["svg"] = *svg;
    // The same features again, as data: the page marks them on its own board.
    auto hl = RulingHighlights(*doc, o.ruling, kSource);
    if (hl.ok()) out["highlights"] = *hl;
  }
  return Ok(out);
}

Response Api::Render(const std::string& body) {
  auto doc = ParseBody(body, kSource);
  if (!doc.ok()) return Error(doc.status());
  auto svg = render::RenderPositionFile(*doc, kSource);
  if (!svg.ok()) return Error(svg.status());
  return {200, "image/svg+xml", *svg};
}

// Where the tile would fit next to the board, per square and rotation: the model's
// Board::Check (BASE-PLACE-EDGE, BASE-PLACE-ADJ), with the side that clashes.
Response Api::Fit(const std::string& body) {
  // The body is read as a position file's board is (position_io.cc), with its messages.
  auto doc = ParseBody(body, "request");
  if (!doc.ok()) return Error(doc.status());
  auto bad = [](const model::Status& s) {
    return Error(adjudicator::kExitMalformed, "request:" + s.message());
  };
  auto wrong = [&](const std::string& where, const std::string& what) {
    return bad(model::JsonError(where, what));
  };
  const json& j = *doc;
  const model::TileCatalog& cat = model::TileCatalog::Base();
  // A tile name: "expected a string", "unknown tile" as position_io's Reader::Tile words them.
  auto tile = [&](const json& t, const std::string& where) -> model::StatusOr<model::TileType> {
    if (!t.is_string())
      return model::JsonError(where, std::string("expected a string, got ") + t.type_name());
    const std::string& s = t.get_ref<const std::string&>();
    if (auto type = cat.Find(s)) return *type;
    return model::JsonError(where, "unknown tile \"" + model::DisplayName(s.substr(0, 40)) +
                                       "\" (base tiles are A to X)");
  };
  if (!j.is_object()) return wrong("", std::string("expected an object, got ") + j.type_name());
  if (auto s = model::CheckKeys(j, "", {"tile", "board"}); !s.ok()) return bad(s);
  if (!j.contains("tile")) return wrong("/tile", "missing");
  const auto type = tile(j["tile"], "/tile");
  if (!type.ok()) return bad(type.status());
  model::Board board;
  static const json kNoBoard = json::array();
  const json& jb = j.contains("board") ? j["board"] : kNoBoard;
  if (!jb.is_array())
    return wrong("/board", std::string("expected an array, got ") + jb.type_name());
  std::map<model::Coord, size_t> seen;
  for (size_t i = 0; i < jb.size(); ++i) {
    const json& t = jb[i];
    const std::string where = "/board/" + std::to_string(i);
    if (!t.is_object())
      return wrong(where, std::string("expected an object, got ") + t.type_name());
    if (auto s = model::CheckKeys(t, where, {"tile", "x", "y", "rotation"}); !s.ok()) return bad(s);
    for (const char* key : {"tile", "x", "y"})
      if (!t.contains(key)) return wrong(where + "/" + key, "missing");
    const auto tt = tile(t["tile"], where + "/tile");
    if (!tt.ok()) return bad(tt.status());
    // The position reader's range (input_file.h kMaxJsonInt): 2^32 is refused, never read as 0.
    const auto x = model::ReadInt(t["x"], where + "/x", -model::kMaxJsonInt, model::kMaxJsonInt);
    if (!x.ok()) return bad(x.status());
    const auto y = model::ReadInt(t["y"], where + "/y", -model::kMaxJsonInt, model::kMaxJsonInt);
    if (!y.ok()) return bad(y.status());
    int deg = 0;
    if (t.contains("rotation")) {
      const auto r = model::ReadInt(t["rotation"], where + "/rotation", -model::kMaxJsonInt,
                                    model::kMaxJsonInt);
      if (!r.ok()) return bad(r.status());
      deg = *r;
      if (deg != 0 && deg != 90 && deg != 180 && deg != 270)
        return wrong(where + "/rotation", "expected 0, 90, 180 or 270, got " + std::to_string(deg));
    }
    const model::Coord c{*x, *y};
    if (auto [it, fresh] = seen.emplace(c, i); !fresh)
      return wrong(where, "two tiles on one square (" + std::to_string(c.x) + ", " +
                              std::to_string(c.y) + "): /board/" + std::to_string(it->second) +
                              " is already there");
    board.Place(*tt, c, deg / 90);
  }
  json squares = json::array();
  std::vector<model::Coord> where = board.Frontier();
  if (board.size() == 0) where.push_back({0, 0});
  for (model::Coord c : where) {
    json rots = json::array();
    for (model::Rotation r = 0; r < 4; ++r) {
      model::PlacementCheck pc = board.Check(*type, c, r);
      json e = {{"rotation", 90 * r}, {"ok", pc.ok()}};
      if (pc.problem == model::PlacementProblem::kEdgeMismatch) {
        const model::RotatedTile& rt = cat.rotated(*type, r);
        const int n = *board.At(model::Neighbour(c, pc.side));
        e["ruling"] = "BASE-PLACE-EDGE";
        e["side"] = kSideNames[pc.side];
        e["reason"] = std::string("the ") + kSideNames[pc.side] + " edge (" +
                      EdgeName(rt.edges[pc.side]) + ") meets a " +
                      EdgeName(board.rotated(n).edges[(pc.side + 2) % 4]) + " edge of tile " +
                      cat.Name(board.tile(n).type);
      } else if (pc.problem == model::PlacementProblem::kNotAdjacent) {
        e["ruling"] = "BASE-PLACE-ADJ";
        e["reason"] = "no neighbouring tile";
      }
      rots.push_back(e);
    }
    squares.push_back({{"x", c.x}, {"y", c.y}, {"rotations", rots}});
  }
  return Ok({{"tile", cat.Name(*type)}, {"squares", squares}});
}

Response Api::Search(const std::map<std::string, std::string>& query) {
  auto q = query.find("q");
  const std::string text = q == query.end() ? "" : q->second;
  int limit = 20;
  if (auto l = query.find("limit"); l != query.end()) {
    const auto n = StrictInt(l->second, 1, 100);
    if (!n)
      return Error(adjudicator::kExitUsage,
                   "limit: expected an integer from 1 to 100, got " + Quoted(l->second));
    limit = static_cast<int>(*n);
  }
  // The question is text, read as every other reader reads text: bytes that are not UTF-8, or
  // a NUL, are refused rather than searched as U+FFFD or cut.
  if (const size_t bad = model::InvalidUtf8At(text); bad != std::string::npos)
    return Error(adjudicator::kExitMalformed,
                 "q: ill-formed UTF-8 at byte " + std::to_string(bad + 1) + " of the question");
  if (const size_t nul = text.find('\0'); nul != std::string::npos)
    return Error(adjudicator::kExitMalformed,
                 "q: a NUL byte at byte " + std::to_string(nul + 1) + " of the question");
  json j = {{"query", text}, {"hits", json::array()}};
  if (text.find_first_not_of(" \t") == std::string::npos) return Ok(j);
  std::unique_lock<std::mutex> lock(db_mu_);
  auto hits = database::Search(*db_, text, limit, vocab_ ? &*vocab_ : nullptr);
  lock.unlock();
  if (!hits.ok()) return Error(hits.status());
  for (const auto& h : *hits)
    j["hits"].push_back({{"id", h.id},
                         {"title", h.title},
                         {"expansion", h.expansion},
                         {"status", h.status},
                         {"snippet", h.snippet},
                         {"matched", h.matched},
                         {"bm25", h.score}});
  return Ok(j);
}

Response Api::Ruling(const std::string& id) {
  std::unique_lock<std::mutex> lock(db_mu_);
  auto r = database::ShowRuling(*db_, id);
  lock.unlock();
  if (!r.ok()) return Error(r.status());
  if (!*r)
    return Error(adjudicator::kExitNoInput,
                 "no ruling " + id + " (try the search, or `carc rulings search`)");
  return Ok(**r);
}

// A fixture of the ruling page: its position, and the picture of its ruling (a worked
// example). Only paths the database lists as fixtures are read, from the source tree.
Response Api::Fixture(const std::map<std::string, std::string>& query) {
  auto q = query.find("path");
  const std::string rel = q == query.end() ? "" : q->second;
  const std::string suffix = ".ruling.json";
  if (rel.size() <= suffix.size() || rel.compare(rel.size() - suffix.size(), suffix.size(), suffix))
    return Error(adjudicator::kExitUsage, "path: expected a fixture's .ruling.json path");
  std::string mode;
  {
    std::lock_guard<std::mutex> lock(db_mu_);
    auto st = db_->Prepare("SELECT mode FROM fixtures WHERE path = ?1");
    if (!st.ok()) return Error(st.status());
    st->Bind(1, rel);
    auto row = st->Step();
    if (!row.ok()) return Error(row.status());
    if (!*row)
      return Error(adjudicator::kExitNoInput,
                   model::DisplayName(rel) + ": not a fixture of the database");
    mode = st->Text(0);
  }
  std::string pos_path = opts_.root + "/" + rel;
  pos_path.replace(pos_path.size() - suffix.size(), suffix.size(), ".position.json");
  auto doc = model::ReadJsonFile(pos_path);
  if (!doc.ok()) return Error(doc.status());
  json out = {{"path", rel}, {"mode", mode}, {"position", *doc}};
  if (mode == "adjudicate" || mode.empty()) {
    adjudicator::Outcome o = opts_.run(*doc, pos_path, {Mode::kAdjudicate, 0});
    out["exit_code"] = o.exit_code;
    if (!o.error.empty()) {
      out["error"] = o.error;  // a malformed-input fixture: its message is its example
    } else {
      out["verdict"] = o.ruling.value("verdict", "");
      auto svg = render::RenderRuling(*doc, o.ruling, pos_path);
      if (svg.ok()) out["svg"] = *svg;
    }
  }
  if (!out.contains("svg") && !out.contains("error")) {
    auto svg = render::RenderPositionFile(*doc, pos_path);
    if (svg.ok()) out["svg"] = *svg;
  }
  return Ok(out);
}

Response Api::Games() {
  std::unique_lock<std::mutex> lock(db_mu_);
  auto list = database::ListGames(*db_, "", 200);
  lock.unlock();
  if (!list.ok()) return Error(list.status());
  return Ok({{"games", *list}});
}

namespace {

// A game number or a turn: a whole decimal number, or nothing.
std::optional<int64_t> Number(const std::string& text) {
  return StrictInt(text, 0, std::numeric_limits<int64_t>::max());
}

}  // namespace

model::StatusOr<std::optional<database::StoredGame>> Api::FetchGame(const std::string& id) {
  auto n = Number(id);
  if (!n)
    return model::Status(model::ErrorCode::kUsage,
                         "game: expected a game number, got " + Quoted(id));
  std::lock_guard<std::mutex> lock(db_mu_);
  return database::GetGame(*db_, *n);
}

Response Api::Game(const std::string& id) {
  auto g = FetchGame(id);
  if (!g.ok()) return Error(g.status());
  if (!*g) return Error(adjudicator::kExitNoInput, "no game " + id + " (see the game list)");
  json j = database::StoredGameJson(**g);
  auto rr = database::Replay((*g)->record, "game " + id, /*with_log=*/true);
  if (rr.ok()) j["replay_log"] = rr->log;
  return Ok(j);
}

// Turn N of a stored game as a question: the position before it (`carc games position ID
// --turn N`, ReplayToTurn) asking whether the record's actions of that turn are legal and
// score what the record claims, with the ruling and its picture (the board at that turn).
// N = turns + 1: the position after the last turn, with no question.
Response Api::GameTurn(const std::string& id, const std::string& turn_text) {
  auto g = FetchGame(id);
  if (!g.ok()) return Error(g.status());
  if (!*g) return Error(adjudicator::kExitNoInput, "no game " + id + " (see the game list)");
  const auto turn = Number(turn_text);
  const auto& rec = (*g)->record;
  const int turns = static_cast<int>(rec.turns.size());
  if (!turn || *turn < 1 || *turn > turns + 1)
    return Error(adjudicator::kExitUsage,
                 "turn: expected 1 to " + std::to_string(turns + 1) + ", got " + Quoted(turn_text));
  const std::string source = "game " + id;
  auto rr = database::ReplayToTurn(rec, source, static_cast<int>(*turn));
  if (!rr.ok()) return Error(rr.status());
  json out = {{"game_id", (*g)->game_id}, {"turn", *turn}, {"turns", turns}, {"text", rr->text}};
  if (rr->position.is_null()) {
    // An earlier turn is illegal or scored otherwise than claimed: the verdict says why.
    out["position"] = nullptr;
    out["cited"] = rr->cited;
    return Ok(out);
  }
  json pos = rr->position;
  if (*turn <= turns) {
    const auto& t = rec.turns[*turn - 1];
    json q = {{"ask", "apply"}, {"actions", t.actions}};
    if (t.scores) q["claim"] = {{"scores", *t.scores}};
    pos["question"] = q;
    adjudicator::Outcome o = opts_.run(pos, source, {Mode::kAdjudicate, 0});
    // Steps the record leaves undecided (no figure after the tile) are passed, as the replay
    // passes them (a player ending the turn); the question then says so.
    for (int k = 0;
         k < 3 && !o.error.empty() && o.error.find("the turn is not finished") != std::string::npos;
         ++k) {
      pos["question"]["actions"].push_back({{"type", "pass"}});
      o = opts_.run(pos, source, {Mode::kAdjudicate, 0});
    }
    if (o.error.empty()) {
      out["exit_code"] = o.exit_code;
      out["ruling"] = o.ruling;
      auto svg = render::RenderRuling(pos, o.ruling, source);
      if (svg.ok()) out["svg"] = *svg;
    } else {
      out["error"] = o.error;
    }
  }
  if (!out.contains("svg")) {
    auto svg = render::RenderPositionFile(pos, source);
    if (svg.ok()) out["svg"] = *svg;
  }
  out["position"] = pos;
  return Ok(out);
}

}  // namespace carc::serve

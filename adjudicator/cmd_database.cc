// Subcommands backed by the SQLite database (database/README.md): db build / adjudications /
// check, rulings search / show / list, games import / list / show / replay / export / position, and
// `adjudicate --db`. Every database failure prints one line naming the file and exits 74.
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "adjudicator/commands.h"
#include "adjudicator/exit_codes.h"
#include "adjudicator/rulings_catalog.h"
#include "database/adjudication_log.h"
#include "database/games_store.h"
#include "database/integrity.h"
#include "database/migrate.h"
#include "database/rulings_store.h"
#include "database/search_words.h"
#include "database/sha256.h"
#include "database/text_out.h"
#include "model/core/input_file.h"
#include "model/core/text_escape.h"

#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

namespace carc::adjudicator {

namespace {

namespace db = carc::database;
using nlohmann::json;

// A game number is a positive 64-bit integer: one beyond (2^63) is refused as a usage error
// naming the argument, not read as the largest (the conversion used to saturate).
const CLI::Validator kGameNumber(
    [](std::string& s) -> std::string {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec != std::errc() || end != s.data() + s.size() || v < 1)
        return "expected a game number from 1 to 9223372036854775807 (carc games list), got " +
               model::DisplayName(s);
      return "";
    },
    "GAME");

// --limit counts what is listed: 0 or a negative number is refused, not read as the default.
const CLI::Range kLimit(1, 1000000);

struct DbState {
  std::string db;  // --db; empty: CARC_DB, else the per-user default (DbPath)
  int timeout_ms = 5000;
  std::string root = CARC_SOURCE_DIR;
  std::string query;
  std::string id;
  std::string expansion, status, verdict, sha;
  std::vector<std::string> files;
  int64_t game = 0;
  int turn = 0;  // games position --turn
  int limit = 0;
  std::string out;
  std::string adjudicate_db;
};

DbState& St() {
  static DbState st;
  return st;
}

// The database file: --db, else $CARC_DB, else $XDG_DATA_HOME/carc/carc.db, else
// ~/.local/share/carc/carc.db (the XDG Base Directory default). Empty when none can be named.
std::string DbPath() {
  if (!St().db.empty()) return St().db;
  if (const char* env = getenv("CARC_DB"); env && *env) return env;
  if (const char* xdg = getenv("XDG_DATA_HOME"); xdg && *xdg && xdg[0] == '/')
    return (std::filesystem::path(xdg) / "carc" / "carc.db").string();
  if (const char* home = getenv("HOME"); home && *home)
    return (std::filesystem::path(home) / ".local" / "share" / "carc" / "carc.db").string();
  return "";
}

int Fail(const model::Status& s) {
  std::cerr << "carc: " << s.message() << "\n";
  return static_cast<int>(s.code());
}

int Print(const json& j, const OutputFormat& f, std::string (*text)(const json&)) {
  // Text quotes what records hold (a game's title, its players): no control character is printed.
  std::cout << (f.format == "text" ? model::EscapeControls(text(j), /*keep_lines=*/true)
                                   : db::Pretty(j) + "\n");
  return kExitUpheld;
}

model::StatusOr<db::Connection> Open(db::OpenMode mode, const std::string& path) {
  if (path.empty())
    return model::Status(model::ErrorCode::kUsage,
                         "no database file: pass --db FILE or set CARC_DB (neither XDG_DATA_HOME "
                         "nor HOME is set for the default)");
  if (mode == db::OpenMode::kCreate && path != ":memory:") {
    // The default folder (~/.local/share/carc) may not exist yet.
    std::error_code ec;
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    if (!dir.empty() && !std::filesystem::exists(dir, ec))
      std::filesystem::create_directories(dir, ec);
  }
  return db::OpenDatabase(path, {.mode = mode, .busy_timeout_ms = St().timeout_ms});
}

// "--db ''" would fall back silently to the default file, or skip the log.
std::string NonEmptyDbPath(const std::string& s) {
  return s.empty() ? std::string("an empty database path: name a file") : std::string();
}

void AddDbOptions(CLI::App* app, OutputFormat& fmt) {
  app->add_option("--db", St().db,
                  "Database file (default: $CARC_DB, else $XDG_DATA_HOME/carc/carc.db, else "
                  "~/.local/share/carc/carc.db)")
      ->check(NonEmptyDbPath);
  app->add_option("--timeout", St().timeout_ms,
                  "Milliseconds to wait for another writer's lock (default 5000)")
      ->check(CLI::Range(0, 600000));
  AddFormatOption(app, fmt);
}

// ---- db ----

int Build(const OutputFormat& f) {
  // A first build goes into a temporary file renamed into place when complete: a failed one
  // (disk full) must not leave an empty database that searches answer from. A
  // rebuild runs in one transaction, which a failure rolls back.
  std::error_code ec;
  const std::string path = DbPath();
  const bool fresh = !path.empty() && path != ":memory:" && !std::filesystem::exists(path, ec);
  const std::string target = fresh ? path + ".building-" + std::to_string(getpid()) : path;
  model::StatusOr<db::BuildReport> rep = model::Status(model::ErrorCode::kIo, "not built");
  {
    auto conn = Open(db::OpenMode::kCreate, target);
    if (!conn.ok()) return Fail(conn.status());
    rep = db::BuildFromRepo(*conn, St().root);
  }  // closed: the WAL is checkpointed into the file before the rename
  if (fresh && rep.ok()) {
    std::filesystem::rename(target, path, ec);
    if (ec)
      rep = model::Status(model::ErrorCode::kIo, path +
                                                     ": cannot rename the new database "
                                                     "into place: " +
                                                     ec.message());
  }
  if (fresh && (!rep.ok() || ec))
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(target + suffix, ec);
  if (!rep.ok()) return Fail(rep.status());
  ec.clear();
  const std::filesystem::path abs = std::filesystem::absolute(DbPath(), ec);
  json j = {{"db", ec ? DbPath() : abs.lexically_normal().string()},
            {"schema_version", db::LatestVersion()},
            {"rulings", rep->rulings},
            {"per_expansion", rep->per_expansion},
            {"links", rep->links},
            {"fixtures", rep->fixtures},
            {"covers", rep->covers},
            {"unknown_cover_ids", rep->unknown_cover_ids},
            {"files", rep->files}};
  return Print(j, f, db::BuildText);
}

int Adjudications(const OutputFormat& f) {
  auto conn = Open(db::OpenMode::kReadOnly, DbPath());
  if (!conn.ok()) return Fail(conn.status());
  auto list = db::ListAdjudications(*conn, St().sha, St().limit > 0 ? St().limit : 50);
  if (!list.ok()) return Fail(list.status());
  return Print(*list, f, db::AdjudicationsText);
}

// Everything database/integrity.h checks, every problem listed; 74 when there is one. The search
// index check needs a read-write connection: a file this user cannot write is checked without it.
int Check(const OutputFormat& f) {
  const std::string path = DbPath();
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  const bool writable = !path.empty() && access(path.c_str(), W_OK) == 0 &&
                        access(dir.empty() ? "." : dir.c_str(), W_OK) == 0;
  auto conn = Open(writable ? db::OpenMode::kReadWrite : db::OpenMode::kReadOnly, path);
  if (!conn.ok()) return Fail(conn.status());
  auto rep = db::CheckDatabase(*conn, writable);
  if (!rep.ok()) return Fail(rep.status());
  const bool ok = rep->problems.empty();
  json j = {{"db", path},
            {"integrity", ok ? "ok" : "damaged"},
            {"problems", rep->problems},
            {"checked",
             {{"structure", true},
              {"search_index", rep->search_index_checked},
              {"game_records", rep->games_checked}}}};
  if (f.format == "text") {
    std::cout << path << ": " << (ok ? "integrity ok" : "DAMAGED") << ", schema "
              << db::LatestVersion() << "; checked the structure, "
              << (rep->search_index_checked ? "the search index"
                                            : "not the search index (read-only file)")
              << " and " << rep->games_checked << " game records\n";
    for (const auto& p : rep->problems) std::cout << "  " << p << "\n";
  } else {
    std::cout << db::Pretty(j) << "\n";
  }
  if (ok) return kExitUpheld;
  return Fail(model::Status(
      model::ErrorCode::kIo,
      path + ": the database file is damaged: " + rep->problems[0] +
          (rep->problems.size() > 1 ? " (and " + std::to_string(rep->problems.size() - 1) + " more)"
                                    : "")));
}

// ---- rulings ----

// The rulings: the database file when there is one, else an in-memory database built from the
// ruling files compiled into carc (rulings_catalog.h; no fixtures), with a note saying so. A
// search in a database file named by --db or $CARC_DB that does not exist is an error (74)
// saying how to build it: the user meant that file.
model::StatusOr<db::Connection> OpenRulings(bool search) {
  const std::string path = DbPath();
  std::error_code ec;
  const char* env = getenv("CARC_DB");
  const bool named = !St().db.empty() || (env && *env);
  if (!path.empty() &&
      (path == ":memory:" || std::filesystem::exists(path, ec) || (search && named))) {
    auto conn = Open(db::OpenMode::kReadOnly, path);
    if (!conn.ok() && search && named && !std::filesystem::exists(path, ec))
      return model::Status(conn.status().code(),
                           conn.status().message() +
                               "; without --db and CARC_DB the search answers from the rulings "
                               "compiled into carc");
    if (!conn.ok()) return conn;
    // A database that holds no ruling (one `adjudicate --db` made for its log) would answer
    // every question with "0 rulings": say so instead.
    auto count = conn->Prepare("SELECT count(*) FROM rulings");
    if (!count.ok()) return count.status();
    auto row = count->Step();
    if (!row.ok()) return row.status();
    if (*row && count->Int(0) == 0)
      return model::Status(model::ErrorCode::kIo,
                           path + ": the database holds no rulings (`carc db build --db " + path +
                               "` puts them in)");
    return conn;
  }
  std::cerr << "carc: no database at " << (path.empty() ? std::string("the default path") : path)
            << ": answering from the rulings compiled into carc, without their fixtures "
               "(`carc db build` makes the database)\n";
  auto conn = db::OpenDatabase(":memory:", {.mode = db::OpenMode::kCreate});
  if (!conn.ok()) return conn.status();
  std::vector<std::pair<std::string, std::string>> files;
  for (const EmbeddedFile& f : EmbeddedRulingFiles()) files.emplace_back(f.name, f.text);
  if (auto rep = db::BuildFromTexts(*conn, files); !rep.ok()) return rep.status();
  return conn;
}

// A query as a message quotes it: at most 80 bytes (a pasted page is not echoed whole).
// Control characters and bytes that are not UTF-8 are escaped: the echo never drives the terminal.
std::string Quoted(const std::string& raw) {
  const std::string q = model::EscapeControls(raw);
  if (q.size() <= 80) return "\"" + q + "\"";
  size_t cut = 77;
  while (cut > 0 && (static_cast<unsigned char>(q[cut]) & 0xC0) == 0x80) --cut;  // whole UTF-8
  return "\"" + q.substr(0, cut) + "...\" (" + std::to_string(q.size()) + " bytes)";
}

std::string SearchText(const json& r) {
  std::ostringstream o;
  o << "searched for:";
  for (const json& w : r["searched_for"]) o << " " << w.get<std::string>();
  for (const json& c : r["corrected"])
    o << (&c == &r["corrected"][0] ? " (corrected: " : ", ") << c["typed"].get<std::string>()
      << " -> " << c["searched"].get<std::string>();
  o << (r["corrected"].empty() ? "" : ")") << "\n";
  for (const json& h : r["hits"]) {
    o << h["id"].get<std::string>() << "  " << h["title"].get<std::string>() << "  ["
      << h["expansion"].get<std::string>() << ", " << h["status"].get<std::string>() << "]\n";
    if (!h["question"].get<std::string>().empty())
      o << "    Q: " << h["question"].get<std::string>() << "\n";
    o << "    " << h["snippet"].get<std::string>() << "\n    matched:";
    for (const json& m : h["matched"]) o << " " << m.get<std::string>();
    o << "\n";
  }
  o << r["hits"].size() << " of " << r["total"].get<int>() << " rulings match "
    << r["query"].get<std::string>();
  std::string ignored;
  for (const json& w : r["ignored"])
    ignored += (ignored.empty() ? "" : ", ") + w.get<std::string>();
  if (!ignored.empty()) o << " (stop words left out: " << ignored << ")";
  o << "\n";
  return o.str();
}

int Search(const OutputFormat& f) {
  auto conn = OpenRulings(/*search=*/true);
  if (!conn.ok()) return Fail(conn.status());
  auto res = db::SearchRulings(*conn, St().query, St().limit > 0 ? St().limit : 10);
  if (!res.ok()) return Fail(res.status());
  if (res->searched.empty()) {
    std::string ignored;
    for (const std::string& w : res->ignored) ignored += (ignored.empty() ? "" : ", ") + w;
    return Fail(model::Status(
        model::ErrorCode::kUsage,
        "nothing to search for in " + Quoted(St().query) +
            (ignored.empty() ? std::string(": no words")
                             : ": only common words (" + ignored + ")") +
            "; ask with the words of the rule, e.g. carc rulings search \"phantom and builder\" "
            "or \"fantom a stavitel\""));
  }
  json corrected = json::array();
  for (const auto& [typed, searched] : res->corrected)
    corrected.push_back({{"typed", typed}, {"searched", searched}});
  json j = {{"query", Quoted(St().query)}, {"searched_for", res->searched},
            {"words", res->searched},      {"corrected", corrected},
            {"ignored", res->ignored},     {"czech", res->czech},
            {"total", res->total},         {"hits", json::array()}};
  for (const auto& h : res->hits)
    j["hits"].push_back({{"id", h.id},
                         {"title", h.title},
                         {"expansion", h.expansion},
                         {"status", h.status},
                         {"matched", h.matched},
                         {"snippet", h.snippet},
                         {"question", h.question},
                         {"source", h.source},
                         {"bm25", h.score}});
  return Print(j, f, SearchText);
}

int Show(const OutputFormat& f) {
  auto conn = OpenRulings(/*search=*/false);
  if (!conn.ok()) return Fail(conn.status());
  auto r = db::ShowRuling(*conn, St().id);
  if (!r.ok()) return Fail(r.status());
  if (!*r)
    return Fail(model::Status(model::ErrorCode::kNoInput,
                              "no ruling " + St().id + " (try `carc rulings search`)"));
  return Print(**r, f, db::RulingText);
}

int List(const OutputFormat& f) {
  if (!St().status.empty() && !db::ValidStatus(St().status) && St().status != "needs-expansion")
    return Fail(model::Status(model::ErrorCode::kUsage,
                              "--status " + St().status +
                                  ": expected current, variant, disputed, superseded, "
                                  "needs-expansion or needs-expansion:<name>"));
  auto conn = OpenRulings(/*search=*/false);
  if (!conn.ok()) return Fail(conn.status());
  if (!St().expansion.empty()) {
    auto known = db::Expansions(*conn);
    if (!known.ok()) return Fail(known.status());
    if (std::find(known->begin(), known->end(), St().expansion) == known->end()) {
      std::string names;
      for (const auto& k : *known) names += (names.empty() ? "" : ", ") + k;
      return Fail(
          model::Status(model::ErrorCode::kUnknownRules,
                        "--expansion " + St().expansion + ": unknown; the rulings have " + names));
    }
  }
  // needs-expansion:<name> names an expansion some ruling waits for; a name none waits for
  // (a typo, `Tower`) is unknown rules, as with --expansion, not an empty list.
  if (St().status.rfind("needs-expansion:", 0) == 0) {
    auto all = db::ListRulings(*conn, "", "needs-expansion");
    if (!all.ok()) return Fail(all.status());
    std::set<std::string> named;
    for (const json& h : *all) named.insert(h.value("status", ""));
    if (!named.count(St().status)) {
      std::string names;
      for (const std::string& n : named) names += (names.empty() ? "" : ", ") + n;
      return Fail(model::Status(model::ErrorCode::kUnknownRules,
                                "--status " + St().status +
                                    ": no ruling waits for that expansion; the rulings have " +
                                    names));
    }
  }
  auto list = db::ListRulings(*conn, St().expansion, St().status);
  if (!list.ok()) return Fail(list.status());
  return Print(*list, f, db::RulingListText);
}

// ---- games ----

int Import(const OutputFormat& f) {
  std::vector<db::ImportItem> items;
  json report = {{"games", json::array()},
                 {"stored", 0},
                 {"duplicates", 0},
                 {"bad", 0},
                 {"verdicts", json::object()}};
  int worst = kExitUpheld;
  for (const std::string& file : St().files) {
    auto item = db::LoadGameFile(file);
    if (!item.ok()) {
      report["games"].push_back({{"source", file}, {"error", item.status().message()}});
      report["bad"] = report["bad"].get<int>() + 1;
      worst = std::max(worst, static_cast<int>(item.status().code()));
      std::cerr << "carc: " << item.status().message() << "\n";
      continue;
    }
    items.push_back(std::move(*item));
  }
  auto conn = Open(db::OpenMode::kCreate, DbPath());
  if (!conn.ok()) return Fail(conn.status());
  auto results = db::ImportGames(*conn, items);
  if (!results.ok()) return Fail(results.status());  // nothing of the batch was stored
  for (const db::ImportResult& r : *results) {
    if (!r.error.ok()) {
      report["games"].push_back({{"source", r.source}, {"error", r.error.message()}});
      report["bad"] = report["bad"].get<int>() + 1;
      worst = std::max(worst, static_cast<int>(r.error.code()));
      std::cerr << "carc: " << r.error.message() << "\n";
      continue;
    }
    const std::string verdict = db::GameVerdictName(r.replay->verdict);
    report["games"].push_back({{"source", r.source},
                               {"game_id", r.game_id},
                               {"duplicate", r.duplicate},
                               {"verdict", verdict},
                               {"verdict_text", r.replay->text},
                               {"cited", r.replay->cited}});
    report[r.duplicate ? "duplicates" : "stored"] =
        report[r.duplicate ? "duplicates" : "stored"].get<int>() + 1;
    report["verdicts"][verdict] = report["verdicts"].value(verdict, 0) + 1;
    if (verdict != "consistent") worst = std::max(worst, kExitRejected);
  }
  Print(report, f, db::ImportText);
  return worst;
}

int Games(const OutputFormat& f) {
  auto conn = Open(db::OpenMode::kReadOnly, DbPath());
  if (!conn.ok()) return Fail(conn.status());
  auto list = db::ListGames(*conn, St().verdict, St().limit > 0 ? St().limit : -1);
  if (!list.ok()) return Fail(list.status());
  return Print(*list, f, db::GamesListText);
}

model::StatusOr<db::StoredGame> FetchGame(db::Connection& conn) {
  auto g = db::GetGame(conn, St().game);
  if (!g.ok()) return g.status();
  if (!*g)
    return model::Status(
        model::ErrorCode::kNoInput,
        DbPath() + ": no game " + std::to_string(St().game) + " (see `carc games list`)");
  return std::move(**g);
}

int ShowGame(const OutputFormat& f) {
  auto conn = Open(db::OpenMode::kReadOnly, DbPath());
  if (!conn.ok()) return Fail(conn.status());
  auto g = FetchGame(*conn);
  if (!g.ok()) return Fail(g.status());
  json j = db::StoredGameJson(*g);
  // Scores per turn by player name, claimed beside the model's.
  j["turn_scores"] = json::array();
  for (size_t t = 0; t < g->record.turns.size(); ++t) {
    const auto& claimed = g->record.turns[t].scores;
    const json model = t < g->model_scores.size() ? g->model_scores[t] : json();
    json by_player = json::array();
    for (size_t p = 0; p < g->record.players.size(); ++p)
      by_player.push_back(
          {{"player", g->record.players[p]},
           {"claimed", claimed && p < claimed->size() ? json((*claimed)[p]) : json()},
           {"model", model.is_array() && p < model.size() ? model[p] : json()}});
    j["turn_scores"].push_back({{"turn", t + 1}, {"scores", by_player}});
  }
  return Print(j, f, db::GameShowText);
}

int ReplayGame(const OutputFormat& f) {
  auto conn = Open(db::OpenMode::kReadOnly, DbPath());
  if (!conn.ok()) return Fail(conn.status());
  auto g = FetchGame(*conn);
  if (!g.ok()) return Fail(g.status());
  auto rr = db::Replay(g->record, "game " + std::to_string(g->game_id), /*with_log=*/true);
  if (!rr.ok()) return Fail(rr.status());
  const std::string verdict = db::GameVerdictName(rr->verdict);
  json j = {{"game_id", g->game_id},
            {"players", g->record.players},
            {"verdict", verdict},
            {"verdict_text", rr->text},
            {"cited", rr->cited},
            {"final_model", rr->final_model},
            {"stored_verdict", g->verdict},
            {"same_as_stored", verdict == g->verdict},
            {"turns", rr->log}};
  Print(j, f, db::ReplayText);
  return verdict == g->verdict ? kExitUpheld : kExitRejected;
}

// Writes a command's text to --out, or to stdout without it.
int WriteOut(const std::string& text) {
  if (St().out.empty()) {
    std::cout << text;
    return kExitUpheld;
  }
  std::ofstream out(St().out, std::ios::binary);
  out << text;
  out.close();
  if (!out) return Fail(model::Status(model::ErrorCode::kIo, St().out + ": cannot write the file"));
  return kExitUpheld;
}

int Export() {
  auto conn = Open(db::OpenMode::kReadOnly, DbPath());
  if (!conn.ok()) return Fail(conn.status());
  auto g = FetchGame(*conn);
  if (!g.ok()) return Fail(g.status());
  const std::string text = db::Pretty(db::DumpGameRecord(g->record)) + "\n";
  return WriteOut(text);
}

// `games position ID --turn N`: the position file before turn N, the record replayed up to it.
int PositionOfGame() {
  auto conn = Open(db::OpenMode::kReadOnly, DbPath());
  if (!conn.ok()) return Fail(conn.status());
  auto g = FetchGame(*conn);
  if (!g.ok()) return Fail(g.status());
  auto rr = db::ReplayToTurn(g->record, "game " + std::to_string(g->game_id), St().turn);
  if (!rr.ok()) return Fail(rr.status());
  if (rr->position.is_null()) {
    // An earlier turn is illegal or scored otherwise than claimed: not a position of this game.
    std::string ids;
    for (const auto& id : rr->cited) ids += (ids.empty() ? " [" : ", ") + id;
    std::cerr << "carc: game " << g->game_id << ": no position before turn " << St().turn << ": "
              << rr->text << (ids.empty() ? "" : ids + "]") << "\n";
    return kExitRejected;
  }
  const std::string text = db::Pretty(rr->position) + "\n";
  return WriteOut(text);
}

// `adjudicate FILE --db DB`: logs the ruling given (not input errors, which rule on nothing).
int LogAdjudication(const std::string& file, const Outcome& o) {
  if (St().adjudicate_db.empty() || !o.error.empty()) return 0;
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  auto conn = Open(db::OpenMode::kCreate, St().adjudicate_db);
  if (!conn.ok()) return Fail(conn.status());
  auto id = db::RecordAdjudication(*conn, {.file = model::DisplayName(file),
                                           .input_sha256 = db::Sha256Hex(bytes.str()),
                                           .exit_code = o.exit_code,
                                           .ruling = o.ruling});
  if (!id.ok()) return Fail(id.status());
  return 0;
}

// A group created by RegisterModelCommands, or a new one when that group is absent.
CLI::App* Group(Registry& reg, const char* name, const char* help) {
  try {
    return reg.root->get_subcommand(name);
  } catch (const CLI::OptionNotFound&) {
    auto* g = reg.root->add_subcommand(name, help);
    g->require_subcommand(1);
    return g;
  }
}

}  // namespace

void RegisterDatabaseCommands(Registry& reg) {
  OutputFormat& fmt = *reg.format;
  DbState& st = St();

  if (reg.Wants("db")) {
    auto* dbg = reg.root->add_subcommand("db", "The SQLite database of rulings, fixtures, games");
    dbg->require_subcommand(1);
    auto* build = dbg->add_subcommand("build", "(Re)create the rulings and fixtures from the repo");
    AddDbOptions(build, fmt);
    build->add_option("--root", st.root, "Project checkout holding database/rulings and fixtures");
    reg.commands.push_back({build, [&fmt] { return Build(fmt); }});
    auto* adjs = dbg->add_subcommand("adjudications", "Adjudications logged by `adjudicate --db`");
    AddDbOptions(adjs, fmt);
    // The filter as the log writes it: 64 lower-case hex digits. An empty value would list
    // every adjudication and an upper-case or cut one none, each without a word.
    adjs->add_option("--sha256", st.sha, "Only those of this input hash")
        ->check(CLI::Validator(
            [](std::string& s) -> std::string {
              if (s.size() == 64 && s.find_first_not_of("0123456789abcdef") == std::string::npos)
                return "";
              return "expected the input's SHA-256 as 64 lower-case hex digits, got \"" +
                     model::DisplayName(s.substr(0, 80)) + "\"";
            },
            ""));
    adjs->add_option("--limit", st.limit, "At most N, newest first (default 50)")->check(kLimit);
    reg.commands.push_back({adjs, [&fmt] { return Adjudications(fmt); }});
    auto* check = dbg->add_subcommand(
        "check", "Full check: file structure, search index, each game record's hash");
    AddDbOptions(check, fmt);
    reg.commands.push_back({check, [&fmt] { return Check(fmt); }});
  }

  if (reg.Wants("rulings")) {
    CLI::App* rulings = Group(reg, "rulings", "The ruling catalogue");
    auto* search =
        rulings->add_subcommand("search", "Full-text search, ranked (bm25), with snippets");
    search->add_option("query", st.query, "A player's question, English or Czech, or a ruling ID")
        ->required();
    search->add_option("--limit", st.limit, "At most N hits (default 10)")->check(kLimit);
    AddDbOptions(search, fmt);
    reg.commands.push_back({search, [&fmt] { return Search(fmt); }});
    auto* show =
        rulings->add_subcommand("show", "One ruling: fixtures, links, readings of a dispute");
    show->add_option("id", st.id, "Ruling ID, e.g. GIFT-FN9")->required();
    AddDbOptions(show, fmt);
    reg.commands.push_back({show, [&fmt] { return Show(fmt); }});
    auto* list = rulings->add_subcommand("list", "Rulings by expansion and status");
    list->add_option("--expansion", st.expansion, "base, phantom, gifts, messengers, ...");
    list->add_option("--status", st.status,
                     "current, variant, disputed, superseded, needs-expansion[:<name>]");
    AddDbOptions(list, fmt);
    reg.commands.push_back({list, [&fmt] { return List(fmt); }});
  }

  if (reg.Wants("games")) {
    CLI::App* games = Group(reg, "games", "Game records");
    auto* import =
        games->add_subcommand("import", "Replay game records (.json, .jcz) and store them");
    import->add_option("files", st.files, "Game records (database/GAME_RECORD_FORMAT.md) or .jcz")
        ->required();
    AddDbOptions(import, fmt);
    reg.commands.push_back({import, [&fmt] { return Import(fmt); }});
    auto* glist = games->add_subcommand("list", "Stored games with their verdicts");
    glist->add_option("--verdict", st.verdict, "consistent, illegal or score-mismatch")
        ->check(CLI::IsMember({"consistent", "illegal", "score-mismatch"}));
    glist->add_option("--limit", st.limit, "At most N")->check(kLimit);
    AddDbOptions(glist, fmt);
    reg.commands.push_back({glist, [&fmt] { return Games(fmt); }});
    auto* gshow = games->add_subcommand("show", "One stored game and its verdict");
    gshow->add_option("game", st.game, "Game number (games list)")->required()->check(kGameNumber);
    AddDbOptions(gshow, fmt);
    reg.commands.push_back({gshow, [&fmt] { return ShowGame(fmt); }});
    auto* replay = games->add_subcommand("replay", "Replay a stored game through today's model");
    replay->add_option("game", st.game, "Game number")->required()->check(kGameNumber);
    AddDbOptions(replay, fmt);
    reg.commands.push_back({replay, [&fmt] { return ReplayGame(fmt); }});
    auto* exp = games->add_subcommand("export", "A stored game as a game record (JSON)");
    exp->add_option("game", st.game, "Game number")->required()->check(kGameNumber);
    exp->add_option("-o,--output", st.out, "Write to FILE instead of stdout");
    exp->add_option("--db", st.db, "Database file (default as for the other commands)")
        ->check(NonEmptyDbPath);
    exp->add_option("--timeout", st.timeout_ms, "Milliseconds to wait for a lock")
        ->check(CLI::Range(0, 600000));
    reg.commands.push_back({exp, [] { return Export(); }});
    auto* gpos = games->add_subcommand("position", "The position before turn N of a stored game");
    gpos->add_option("game", st.game, "Game number")->required()->check(kGameNumber);
    gpos->add_option("--turn", st.turn, "Turn N (1: the first; turns + 1: after the last)")
        ->required();
    gpos->add_option("-o,--output", st.out, "Write to FILE instead of stdout");
    gpos->add_option("--db", st.db, "Database file (default as for the other commands)")
        ->check(NonEmptyDbPath);
    gpos->add_option("--timeout", st.timeout_ms, "Milliseconds to wait for a lock")
        ->check(CLI::Range(0, 600000));
    reg.commands.push_back({gpos, [] { return PositionOfGame(); }});
  }

  if (reg.adjudicate) {
    auto* db =
        reg.adjudicate->add_option("--db", st.adjudicate_db, "Log the ruling in this database file")
            ->check(NonEmptyDbPath);
    // Without --db nothing is logged, so a lock timeout would be read and not used.
    reg.adjudicate
        ->add_option("--timeout", st.timeout_ms,
                     "Milliseconds to wait for another writer's lock (default 5000)")
        ->check(CLI::Range(0, 600000))
        ->needs(db);
    reg.adjudication_hooks.push_back(LogAdjudication);
  }
}

}  // namespace carc::adjudicator

#include "database/games_store.h"

#include <filesystem>

#include "database/jcz_record.h"
#include "database/json_opt.h"
#include "database/model_version.h"
#include "database/sha256.h"
#include "model/core/input_file.h"
#include "model/core/position_io.h"

namespace carc::database {

using model::ErrorCode;
using nlohmann::json;

namespace {

std::optional<std::string> DumpOrNull(const json& j) {
  if (j.is_null()) return std::nullopt;
  return j.dump();
}

struct GameInserts {
  Statement find, game, player, cite;
};

StatusOr<GameInserts> Prepare(Connection& c) {
  GameInserts in;
  struct {
    Statement* st;
    const char* sql;
  } all[] = {
      {&in.find, "SELECT game_id FROM games WHERE record_sha256 = ?1"},
      {&in.game,
       "INSERT INTO games (record_sha256, origin, source, meta, edition, expansions, options, "
       "start, "
       "draw_order, final_claimed, verdict, verdict_turn, verdict_action, verdict_text, finished, "
       "final_model, model_version, imported_at, turns, model_scores) VALUES "
       "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, "
       "?20)"},
      {&in.player, "INSERT INTO game_players (game_id, seat, name) VALUES (?1, ?2, ?3)"},
      {&in.cite, "INSERT OR IGNORE INTO game_citations (game_id, ruling_id) VALUES (?1, ?2)"},
  };
  for (auto& [st, sql] : all) {
    auto p = c.Prepare(sql);
    if (!p.ok()) return p.status();
    *st = std::move(*p);
  }
  return in;
}

// Inserts one replayed record; returns its game_id. `turns` is the canonical record's "turns"
// (schema 3: a game's turns are one JSON array in its row).
StatusOr<int64_t> InsertGame(Connection& conn, GameInserts& in, const ImportItem& item,
                             const std::string& hash, const json& turns, const ReplayResult& rr,
                             const std::string& now) {
  const GameRecord& r = item.record;
  in.game.Bind(1, hash).Bind(2, item.origin).Bind(3, item.source).Bind(4, DumpOrNull(r.meta));
  in.game.Bind(5, r.edition).Bind(6, json(r.expansions).dump()).Bind(7, DumpOrNull(r.options));
  in.game.Bind(8, r.start.dump()).Bind(9, json(r.draw_order).dump());
  in.game.Bind(
      10, r.final_scores ? std::optional<std::string>(json(*r.final_scores).dump()) : std::nullopt);
  in.game.Bind(11, GameVerdictName(rr.verdict));
  in.game.Bind(12, rr.turn > 0 ? std::optional<int64_t>(rr.turn) : std::nullopt);
  in.game.Bind(13, rr.action >= 0 ? std::optional<int64_t>(rr.action) : std::nullopt);
  in.game.Bind(14, rr.text).Bind(15, rr.finished ? 1 : 0).Bind(16, json(rr.final_model).dump());
  in.game.Bind(17, kModelVersion).Bind(18, now).Bind(19, turns.dump());
  json model = json::array();  // per turn; null where the replay stopped before it
  for (size_t t = 0; t < r.turns.size(); ++t)
    model.push_back(t < rr.model_scores.size() ? json(rr.model_scores[t]) : json());
  in.game.Bind(20, model.dump());
  if (Status s = in.game.Run(); !s.ok()) return s;
  const int64_t id = conn.LastInsertRowid();
  for (size_t p = 0; p < r.players.size(); ++p) {
    in.player.Bind(1, id).Bind(2, static_cast<int64_t>(p)).Bind(3, r.players[p]);
    if (Status s = in.player.Run(); !s.ok()) return s;
  }
  for (const std::string& rid : rr.cited) {
    in.cite.Bind(1, id).Bind(2, rid);
    if (Status s = in.cite.Run(); !s.ok()) return s;
  }
  return id;
}

}  // namespace

StatusOr<ImportItem> LoadGameFile(const std::string& path) {
  auto text = model::ReadInputFile(path, kMaxGameFileBytes);
  if (!text.ok()) return text.status();
  auto doc = model::ParseJsonText(*text, model::DisplayName(path));
  text->clear();
  text->shrink_to_fit();
  if (!doc.ok()) return doc.status();
  ImportItem item;
  item.source = path;
  const bool jcz = std::filesystem::path(path).extension() == ".jcz" ||
                   (doc->is_object() && doc->contains("replay") && doc->contains("setup"));
  item.origin = jcz ? "jcz" : "record";
  if (jcz) {
    auto game = ReadJcz(*doc, path);
    if (!game.ok()) return game.status();
    item.record = std::move(game->record);
    item.from = std::move(game->from);
  } else {
    auto rec = ParseGameRecord(*doc, path);
    if (!rec.ok()) return rec.status();
    item.record = std::move(*rec);
  }
  return item;
}

StatusOr<std::vector<ImportResult>> ImportGames(Connection& conn,
                                                const std::vector<ImportItem>& items,
                                                const ImportOptions& opts) {
  std::vector<ImportResult> results(items.size());
  // Replay first, outside the transaction: the write lock is held only while storing.
  for (size_t i = 0; i < items.size(); ++i) {
    results[i].source = items[i].source;
    auto rr = Replay(items[i].record, items[i].source, /*with_log=*/false, &items[i].from);
    if (rr.ok())
      results[i].replay = std::move(*rr);
    else
      results[i].error = rr.status();
  }
  // A batch is one transaction, so one fsync of the write-ahead log at its COMMIT: with
  // synchronous FULL (the connection's default is NORMAL) a batch reported stored survives a
  // power cut as well as a killed process, for the cost of that one fsync.
  if (Status s = conn.Exec("PRAGMA synchronous = FULL"); !s.ok()) return s;
  auto tx = Transaction::Begin(conn);
  if (!tx.ok()) return tx.status();
  const std::string now = NowIso();
  {
    auto in = Prepare(conn);
    if (!in.ok()) return in.status();
    for (size_t i = 0; i < items.size(); ++i) {
      ImportResult& res = results[i];
      if (!res.error.ok()) continue;
      // The canonical form once: its hash is the record's identity, its turns are stored.
      const json canonical = DumpGameRecord(items[i].record);
      const std::string hash = Sha256Hex(canonical.dump());
      in->find.Bind(1, hash);
      auto found = in->find.Step();
      if (!found.ok()) return found.status();
      if (*found) {
        res.duplicate = true;
        res.game_id = in->find.Int(0);
        in->find.Reset();
        continue;
      }
      in->find.Reset();
      auto sp = Savepoint::Begin(conn);
      if (!sp.ok()) return sp.status();
      auto id = InsertGame(conn, *in, items[i], hash, canonical["turns"], *res.replay, now);
      if (!id.ok()) {
        // A record the schema refuses is that record's problem; anything else (disk full,
        // I/O) ends the batch, rolled back whole.
        if ((sqlite3_errcode(conn.raw()) & 0xff) != SQLITE_CONSTRAINT) return id.status();
        res.error = Status(ErrorCode::kMalformed, items[i].source + ": " + id.status().message());
        for (Statement* st : {&in->game, &in->player, &in->cite}) st->Reset();
        continue;  // the savepoint's destructor rolls this record back
      }
      if (Status s = sp->Release(); !s.ok()) return s;
      res.stored = true;
      res.game_id = *id;
      if (opts.after_each) opts.after_each(i);
    }
  }  // statements finalized before COMMIT
  if (Status s = tx->Commit(); !s.ok()) return s;
  return results;
}

StatusOr<std::optional<StoredGame>> GetGame(Connection& conn, int64_t game_id) {
  auto st = conn.Prepare(
      "SELECT game_id, origin, source, verdict, verdict_text, model_version, imported_at, "
      "record_sha256, verdict_turn, verdict_action, finished, final_model, meta, edition, "
      "expansions, options, start, draw_order, final_claimed, turns, model_scores "
      "FROM games WHERE game_id = ?1");
  if (!st.ok()) return st.status();
  st->Bind(1, game_id);
  auto row = st->Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<StoredGame>();
  StoredGame g;
  try {
    auto parse = [&](int col) { return st->IsNull(col) ? json() : json::parse(st->Text(col)); };
    g.game_id = st->Int(0);
    g.origin = st->Text(1);
    g.source = st->Text(2);
    g.verdict = st->Text(3);
    g.verdict_text = st->Text(4);
    g.model_version = st->Text(5);
    g.imported_at = st->Text(6);
    g.record_sha256 = st->Text(7);
    g.verdict_turn = st->OptInt(8);
    g.verdict_action = st->OptInt(9);
    g.finished = st->Int(10) == 1;
    g.final_model = parse(11);
    GameRecord& r = g.record;
    r.meta = parse(12);
    r.edition = st->Text(13);
    r.expansions = parse(14).get<std::vector<std::string>>();
    r.options = parse(15);
    r.start = parse(16);
    r.draw_order = parse(17).get<std::vector<std::string>>();
    if (!st->IsNull(18)) r.final_scores = parse(18).get<std::vector<int>>();

    auto players = conn.Prepare("SELECT name FROM game_players WHERE game_id = ?1 ORDER BY seat");
    if (!players.ok()) return players.status();
    players->Bind(1, game_id);
    for (;;) {
      auto p = players->Step();
      if (!p.ok()) return p.status();
      if (!*p) break;
      r.players.push_back(players->Text(0));
    }
    for (const json& t : json::parse(st->Text(19))) {
      TurnRecord& turn = r.turns.emplace_back();
      turn.actions = t.at("actions").get<std::vector<json>>();
      if (t.contains("scores")) turn.scores = t["scores"].get<std::vector<int>>();
    }
    g.model_scores = parse(20);
    auto cites =
        conn.Prepare("SELECT ruling_id FROM game_citations WHERE game_id = ?1 ORDER BY rowid");
    if (!cites.ok()) return cites.status();
    cites->Bind(1, game_id);
    for (;;) {
      auto c = cites->Step();
      if (!c.ok()) return c.status();
      if (!*c) break;
      g.cited.push_back(cites->Text(0));
    }
  } catch (const json::exception& e) {
    return Status(ErrorCode::kIo, conn.path() + ": game " + std::to_string(game_id) +
                                      " is stored damaged (" + e.what() + ")");
  }
  return std::optional<StoredGame>(std::move(g));
}

StatusOr<json> ListGames(Connection& conn, const std::string& verdict, int limit) {
  auto st = conn.Prepare(
      "SELECT g.game_id, g.origin, g.source, g.verdict, g.verdict_turn, g.verdict_text, "
      "       g.finished, g.final_model, g.imported_at, "
      "       (SELECT json_group_array(name) FROM "
      "          (SELECT name FROM game_players p WHERE p.game_id = g.game_id ORDER BY seat)), "
      "       json_array_length(g.turns), "
      "       (SELECT json_group_array(ruling_id) FROM (SELECT ruling_id FROM game_citations c "
      "          WHERE c.game_id = g.game_id ORDER BY rowid)) "
      "FROM games g WHERE (?1 = '' OR g.verdict = ?1) ORDER BY g.game_id LIMIT ?2");
  if (!st.ok()) return st.status();
  st->Bind(1, verdict).Bind(2, limit);
  json out = json::array();
  for (;;) {
    auto row = st->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    json e = {{"game_id", st->Int(0)},
              {"origin", st->Text(1)},
              {"source", J(st->OptText(2))},
              {"verdict", st->Text(3)},
              {"verdict_turn", J(st->OptInt(4))},
              {"verdict_text", st->Text(5)},
              {"finished", st->Int(6) == 1},
              {"final_model", json::parse(st->Text(7), nullptr, false)},
              {"imported_at", st->Text(8)},
              {"players", json::parse(st->Text(9), nullptr, false)},
              {"turns", st->Int(10)},
              {"cited", json::parse(st->OptText(11).value_or("[]"), nullptr, false)}};
    out.push_back(e);
  }
  return out;
}

json StoredGameJson(const StoredGame& g) {
  return {{"game_id", g.game_id},
          {"origin", g.origin},
          {"source", g.source},
          {"record_sha256", g.record_sha256},
          {"players", g.record.players},
          {"rules", {{"edition", g.record.edition}, {"expansions", g.record.expansions}}},
          {"turns", g.record.turns.size()},
          {"verdict", g.verdict},
          {"verdict_turn", J(g.verdict_turn)},
          {"verdict_action", J(g.verdict_action)},
          {"verdict_text", g.verdict_text},
          {"cited", g.cited},
          {"finished", g.finished},
          {"final_claimed", g.record.final_scores ? json(*g.record.final_scores) : json()},
          {"final_model", g.final_model},
          {"model_version", g.model_version},
          {"imported_at", g.imported_at}};
}

}  // namespace carc::database

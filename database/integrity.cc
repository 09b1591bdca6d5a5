#include "database/integrity.h"

#include <utility>

#include "database/game_record.h"
#include "database/games_store.h"

namespace carc::database {

StatusOr<std::vector<std::string>> GameHashProblems(Connection& conn, int limit, int64_t* checked) {
  std::vector<int64_t> ids;
  {
    auto st = conn.Prepare("SELECT game_id FROM games ORDER BY game_id");
    if (!st.ok()) return st.status();
    for (;;) {
      auto row = st->Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      ids.push_back(st->Int(0));
    }
  }
  std::vector<std::string> problems;
  for (int64_t id : ids) {
    if (static_cast<int>(problems.size()) >= limit) break;
    const std::string game = "game " + std::to_string(id);
    auto g = GetGame(conn, id);
    ++*checked;
    if (!g.ok()) {  // a row that no longer reads back (a JSON column no longer JSON, ...)
      problems.push_back(game + ": cannot be read back: " + g.status().message());
      continue;
    }
    if (!*g) continue;  // removed meanwhile
    const std::string hash = RecordHash((*g)->record);
    if (hash != (*g)->record_sha256)
      problems.push_back(game + " (" + (*g)->source + "): its stored record hashes to " +
                         hash.substr(0, 12) + "…, not to the " + (*g)->record_sha256.substr(0, 12) +
                         "… stored at import: its turns, actions or players were changed");
  }
  return problems;
}

StatusOr<IntegrityReport> CheckDatabase(Connection& conn, bool search_index, int limit) {
  IntegrityReport rep;
  auto structure = IntegrityProblems(conn, limit);
  if (!structure.ok()) return structure.status();
  rep.problems = std::move(*structure);
  if (search_index) {
    auto fts = SearchIndexProblem(conn);
    if (!fts.ok()) return fts.status();
    rep.search_index_checked = true;
    if (!fts->empty()) rep.problems.push_back(*fts);
  }
  // Records are read back only from a file whose b-trees are sound: reading a damaged tree
  // row by row would only repeat what integrity_check said.
  if (!rep.problems.empty()) return rep;
  auto games = GameHashProblems(conn, limit, &rep.games_checked);
  if (!games.ok()) return games.status();
  for (auto& p : *games) rep.problems.push_back(std::move(p));
  return rep;
}

}  // namespace carc::database

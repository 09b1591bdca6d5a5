#include "database/adjudication_log.h"

#include "database/model_version.h"

namespace carc::database {

using nlohmann::json;

StatusOr<int64_t> RecordAdjudication(Connection& conn, const AdjudicationEntry& e) {
  auto tx = Transaction::Begin(conn);
  if (!tx.ok()) return tx.status();
  int64_t id = 0;
  {
    auto ins = conn.Prepare(
        "INSERT INTO adjudications (file, input_sha256, question, verdict, exit_code, "
        "model_version, at, ruling) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    if (!ins.ok()) return ins.status();
    const json& r = e.ruling;
    auto str = [&](const char* key, const std::string& dflt) {
      return r.is_object() && r.contains(key) && r[key].is_string() ? r[key].get<std::string>()
                                                                    : dflt;
    };
    ins->Bind(1, e.file).Bind(2, e.input_sha256).Bind(3, str("question", ""));
    ins->Bind(4, str("verdict", "unknown")).Bind(5, e.exit_code);
    ins->Bind(6, str("model", kModelVersion)).Bind(7, NowIso()).Bind(8, r.dump());
    if (Status s = ins->Run(); !s.ok()) return s;
    id = conn.LastInsertRowid();
    auto cite = conn.Prepare(
        "INSERT OR IGNORE INTO adjudication_citations (adjudication_id, ruling_id) VALUES (?1, "
        "?2)");
    if (!cite.ok()) return cite.status();
    if (r.is_object() && r.contains("cited") && r["cited"].is_array())
      for (const json& c : r["cited"]) {
        if (!c.is_string()) continue;
        cite->Bind(1, id).Bind(2, c.get<std::string>());
        if (Status s = cite->Run(); !s.ok()) return s;
      }
  }
  if (Status s = tx->Commit(); !s.ok()) return s;
  return id;
}

StatusOr<json> ListAdjudications(Connection& conn, const std::string& input_sha256, int limit) {
  auto st = conn.Prepare(
      "SELECT a.adjudication_id, a.file, a.input_sha256, a.question, a.verdict, a.exit_code, "
      "       a.model_version, a.at, "
      "       (SELECT json_group_array(ruling_id) FROM (SELECT ruling_id FROM "
      "          adjudication_citations c WHERE c.adjudication_id = a.adjudication_id "
      "          ORDER BY c.rowid)) "
      "FROM adjudications a WHERE (?1 = '' OR a.input_sha256 = ?1) "
      "ORDER BY a.adjudication_id DESC LIMIT ?2");
  if (!st.ok()) return st.status();
  st->Bind(1, input_sha256).Bind(2, limit);
  json out = json::array();
  for (;;) {
    auto row = st->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    out.push_back({{"adjudication_id", st->Int(0)},
                   {"file", st->Text(1)},
                   {"input_sha256", st->Text(2)},
                   {"question", st->Text(3)},
                   {"verdict", st->Text(4)},
                   {"exit_code", st->Int(5)},
                   {"model_version", st->Text(6)},
                   {"at", st->Text(7)},
                   {"cited", json::parse(st->Text(8), nullptr, false)}});
  }
  return out;
}

}  // namespace carc::database

// Read side of rulings_store.h: search, show, list.
#include <cctype>

#include "database/json_opt.h"
#include "database/rulings_store.h"

namespace carc::database {

using nlohmann::json;

namespace {

// Words of the query: runs of letters and digits (bytes >= 0x80 belong to words, so UTF-8
// letters stay whole). Each becomes an FTS5 string, so no query can be an FTS5 syntax error.
std::vector<std::string> Words(const std::string& q) {
  std::vector<std::string> out;
  std::string cur;
  for (unsigned char ch : q) {
    if (std::isalnum(ch) || ch >= 0x80) {
      cur.push_back(static_cast<char>(ch));
    } else if (!cur.empty()) {
      out.push_back(cur);
      cur.clear();
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string Join(const std::vector<std::string>& words, const char* op) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : op) + ("\"" + w + "\"");
  return out;
}

// Collects the rows of a one-column query.
StatusOr<std::vector<std::string>> Column(Statement& st) {
  std::vector<std::string> out;
  for (;;) {
    auto row = st.Step();
    if (!row.ok()) return row.status();
    if (!*row) return out;
    out.push_back(st.Text(0));
  }
}

}  // namespace

StatusOr<std::vector<SearchHit>> Search(Connection& conn, const std::string& query, int limit) {
  std::vector<SearchHit> hits;
  const auto words = Words(query);
  if (words.empty()) return hits;
  auto st = conn.Prepare(
      "SELECT r.id, r.expansion, r.status, r.title, "
      "       snippet(rulings_fts, 2, '[', ']', '...', 16), "
      "       bm25(rulings_fts, 10.0, 5.0, 1.0) AS score "
      "FROM rulings_fts JOIN rulings r ON r.ruling_no = rulings_fts.rowid "
      "WHERE rulings_fts MATCH ?1 ORDER BY score, r.id LIMIT ?2");
  if (!st.ok()) return st.status();
  // Every word first; when nothing has them all, any of them (still ranked by bm25).
  for (const char* op : {" AND ", " OR "}) {
    st->Bind(1, Join(words, op)).Bind(2, limit);
    for (;;) {
      auto row = st->Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      hits.push_back({st->Text(0), st->Text(1), st->Text(2), st->Text(3), st->Text(4), st->Real(5)});
    }
    st->Reset();
    if (!hits.empty() || words.size() == 1) break;
  }
  return hits;
}

StatusOr<std::optional<json>> ShowRuling(Connection& conn, const std::string& id) {
  auto st = conn.Prepare(
      "SELECT id, expansion, edition, status, title, summary, question, reasoning, variant_name, "
      "source_page, source_section, source_footnote, source_hint, answer_cited, answer_date, "
      "source_file, data FROM rulings WHERE id = ?1 COLLATE NOCASE");
  if (!st.ok()) return st.status();
  st->Bind(1, id);
  auto row = st->Step();
  if (!row.ok()) return row.status();
  if (!*row) return std::optional<json>();
  json r;
  const std::string rid = st->Text(0);
  r["id"] = rid;
  r["expansion"] = st->Text(1);
  r["edition"] = st->Text(2);
  r["status"] = st->Text(3);
  r["title"] = st->Text(4);
  r["summary"] = st->Text(5);
  for (auto [col, key] : {std::pair{6, "question"}, {7, "reasoning"}, {8, "variant_name"}})
    if (auto v = st->OptText(col)) r[key] = *v;
  r["source"] = {{"file", st->Text(15)}, {"page", J(st->OptText(9))}, {"section", J(st->OptText(10))},
                 {"footnote", J(st->OptInt(11))}, {"paragraph_hint", J(st->OptText(12))}};
  r["official_answer"] = st->IsNull(13) ? json()
                                         : json{{"cited", st->Text(13)}, {"date", J(st->OptText(14))}};
  const json data = json::parse(st->Text(16), nullptr, /*allow_exceptions=*/false);
  if (data.is_object() && data.contains("examples")) r["examples"] = data["examples"];
  st = Statement();

  auto answers = conn.Prepare("SELECT cited, date FROM ruling_answers WHERE ruling_id = ?1 ORDER BY seq");
  if (!answers.ok()) return answers.status();
  answers->Bind(1, rid);
  json more = json::array();
  for (;;) {
    auto a = answers->Step();
    if (!a.ok()) return a.status();
    if (!*a) break;
    more.push_back({{"cited", answers->Text(0)}, {"date", J(answers->OptText(1))}});
  }
  if (!more.empty()) r["additional_official_answers"] = more;

  auto rd = conn.Prepare(
      "SELECT name, adopted, summary, support FROM ruling_readings WHERE ruling_id = ?1 ORDER BY seq");
  if (!rd.ok()) return rd.status();
  rd->Bind(1, rid);
  json readings = json::array();
  for (;;) {
    auto a = rd->Step();
    if (!a.ok()) return a.status();
    if (!*a) break;
    readings.push_back({{"name", rd->Text(0)}, {"adopted", rd->Int(1) == 1},
                        {"summary", rd->Text(2)}, {"support", J(rd->OptText(3))}});
    if (rd->Int(1) == 1) r["adopted_reading"] = rd->Text(0);
  }
  if (!readings.empty()) r["readings"] = readings;

  // Links both ways: what this ruling names, and what names it.
  r["links"] = json::object();
  r["linked_from"] = json::object();
  auto ln = conn.Prepare(
      "SELECT 'out', kind, to_id FROM ruling_links WHERE from_id = ?1 "
      "UNION ALL SELECT 'in', kind, from_id FROM ruling_links WHERE to_id = ?1 ORDER BY 1, 2, 3");
  if (!ln.ok()) return ln.status();
  ln->Bind(1, rid);
  for (;;) {
    auto a = ln->Step();
    if (!a.ok()) return a.status();
    if (!*a) break;
    r[ln->Text(0) == "out" ? "links" : "linked_from"][ln->Text(1)].push_back(ln->Text(2));
  }

  auto needs = conn.Prepare("SELECT expansion FROM ruling_needs WHERE ruling_id = ?1 ORDER BY 1");
  if (!needs.ok()) return needs.status();
  needs->Bind(1, rid);
  auto ne = Column(*needs);
  if (!ne.ok()) return ne.status();
  r["needs_expansion"] = *ne;

  auto fx = conn.Prepare(
      "SELECT f.path, f.fixture_id, f.title, f.mode, f.expected_verdict, f.expected_exit_code "
      "FROM fixture_covers c JOIN fixtures f USING (fixture_no) WHERE c.ruling_id = ?1 "
      "ORDER BY f.path");
  if (!fx.ok()) return fx.status();
  fx->Bind(1, rid);
  r["fixtures"] = json::array();
  for (;;) {
    auto a = fx->Step();
    if (!a.ok()) return a.status();
    if (!*a) break;
    r["fixtures"].push_back({{"path", fx->Text(0)}, {"id", J(fx->OptText(1))},
                             {"title", J(fx->OptText(2))}, {"mode", fx->Text(3)},
                             {"expected_verdict", J(fx->OptText(4))},
                             {"expected_exit_code", J(fx->OptInt(5))}});
  }
  return std::optional<json>(r);
}

StatusOr<json> ListRulings(Connection& conn, const std::string& expansion,
                           const std::string& status) {
  auto st = conn.Prepare(
      "SELECT r.id, r.expansion, r.status, r.title, "
      "       (SELECT count(*) FROM fixture_covers c WHERE c.ruling_id = r.id), "
      "       (SELECT name FROM ruling_readings d WHERE d.ruling_id = r.id AND d.adopted = 1) "
      "FROM rulings r "
      "WHERE (?1 = '' OR r.expansion = ?1) AND (?2 = '' OR r.status = ?2 OR r.status_kind = ?2) "
      "ORDER BY r.ruling_no");
  if (!st.ok()) return st.status();
  st->Bind(1, expansion).Bind(2, status);
  json out = json::array();
  for (;;) {
    auto row = st->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    json e = {{"id", st->Text(0)},    {"expansion", st->Text(1)}, {"status", st->Text(2)},
              {"title", st->Text(3)}, {"fixtures", st->Int(4)}};
    if (auto adopted = st->OptText(5)) e["adopted_reading"] = *adopted;
    out.push_back(e);
  }
  return out;
}

StatusOr<std::vector<std::string>> Expansions(Connection& conn) {
  auto st = conn.Prepare("SELECT DISTINCT expansion FROM rulings ORDER BY 1");
  if (!st.ok()) return st.status();
  return Column(*st);
}

}  // namespace carc::database

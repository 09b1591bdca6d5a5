// Read side of rulings_store.h: search, show, list.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>

#include "database/json_opt.h"
#include "database/rulings_store.h"
#include "database/search_words.h"

namespace carc::database {

using nlohmann::json;

namespace {

// bm25 weights of the index columns id, title, questions, summary, body: the players'
// questions and the title above the summary, the summary above the rest.
constexpr const char* kColumnWeights = "2.0, 8.0, 6.0, 2.0, 1.0";
// The share of a word's weight that a ruling gets just for holding it (the rest by how well).
constexpr double kPresence = 0.3;
// A synonym found counts this much of the word itself.
constexpr double kSynonym = 0.7;
// The weight of a ruling of an expansion that the question does not name.
constexpr double kUnnamedExpansion = 0.6;

// A term as an FTS5 string (a phrase when it has several words), so that no query can be an
// FTS5 syntax error.
std::string Quoted(const std::string& term) {
  std::string out = "\"";
  for (char ch : term) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

// Whether the query is just the ruling's ID (any case, spaces around allowed).
bool SameId(const std::string& id, const std::string& query) {
  const size_t from = query.find_first_not_of(" \t");
  const size_t to = query.find_last_not_of(" \t");
  if (from == std::string::npos || to - from + 1 != id.size()) return false;
  for (size_t i = 0; i < id.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(query[from + i])) !=
        std::toupper(static_cast<unsigned char>(id[i])))
      return false;
  return true;
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
  std::vector<QueryWord> words = ParseQuery(query);  // one entry per distinct word
  // Bounded work (issue 19: 2,000 words took 51 s): the first kMaxSearchWords distinct words.
  constexpr size_t kMaxSearchWords = 32;
  if (words.size() > kMaxSearchWords) words.resize(kMaxSearchWords);
  if (words.empty() || limit <= 0) return hits;

  auto total = conn.Prepare("SELECT count(*) FROM rulings_fts");
  if (!total.ok()) return total.status();
  if (auto row = total->Step(); !row.ok()) return row.status();
  const double n = static_cast<double>(total->Int(0));

  // Each word on its own: which rulings hold it or a synonym, and how well. Per term, the
  // ruling with the best bm25 (column weights: id, title, questions, summary, body) has quality
  // 1 and the others their share of it; a synonym counts kSynonym of the word itself; a ruling
  // takes the best of the word's terms, so a ruling naming several synonyms gains nothing.
  auto each = conn.Prepare("SELECT rowid, bm25(rulings_fts, " + std::string(kColumnWeights) +
                           ") FROM rulings_fts WHERE rulings_fts MATCH ?1");
  if (!each.ok()) return each.status();
  std::map<int64_t, double> score;                 // rowid -> sum over its words
  std::map<int64_t, std::vector<size_t>> matched;  // rowid -> indices of its words
  std::string any;
  for (size_t i = 0; i < words.size(); ++i) {
    std::map<int64_t, double> quality;
    for (size_t t = 0; t < words[i].terms.size(); ++t) {
      const std::string term = Quoted(words[i].terms[t]);
      any += (any.empty() ? "" : " OR ") + term;
      const double factor = t == 0 && words[i].literal ? 1.0 : kSynonym;
      std::vector<std::pair<int64_t, double>> rows;
      double best = 0;  // the most negative bm25 of this term
      each->Bind(1, term);
      for (;;) {
        auto row = each->Step();
        if (!row.ok()) return row.status();
        if (!*row) break;
        rows.emplace_back(each->Int(0), each->Real(1));
        best = std::min(best, each->Real(1));
      }
      each->Reset();
      // A term found in few rulings says more about the question than a common one (idf).
      const double idf = std::log((n + 1) / (static_cast<double>(rows.size()) + 0.5));
      for (const auto& [rowid, bm25] : rows) {
        const double q =
            factor * idf * (kPresence + (1 - kPresence) * (best < 0 ? bm25 / best : 1.0));
        quality[rowid] = std::max(quality[rowid], q);
      }
    }
    for (const auto& [rowid, q] : quality) {
      score[rowid] += q;
      matched[rowid].push_back(i);
    }
  }

  const std::vector<std::string> named = NamedExpansions(words);
  // The hits with their snippets and sources, best first.
  auto st = conn.Prepare(
      "SELECT rulings_fts.rowid, r.id, r.expansion, r.status, r.title, "
      "       snippet(rulings_fts, -1, '[', ']', '...', 16), "
      "       bm25(rulings_fts, " + std::string(kColumnWeights) + "), "
      "       coalesce(r.source_text, '') "
      "FROM rulings_fts JOIN rulings r ON r.ruling_no = rulings_fts.rowid "
      "WHERE rulings_fts MATCH ?1");
  if (!st.ok()) return st.status();
  st->Bind(1, any);
  for (;;) {
    auto row = st->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    SearchHit h{st->Text(1), st->Text(2), st->Text(3), st->Text(4), st->Text(5), st->Real(6)};
    h.source = st->Text(7);
    // The questions column holds one question per line; a snippet stays on one line.
    for (size_t at; (at = h.snippet.find('\n')) != std::string::npos;)
      h.snippet.replace(at, 1, " / ");
    h.rank = -score[st->Int(0)];
    // Questions are about the base game unless they name an expansion (or its components).
    if (h.expansion != "base" &&
        std::find(named.begin(), named.end(), h.expansion) == named.end())
      h.rank *= kUnnamedExpansion;
    if (SameId(h.id, query)) h.rank = -std::numeric_limits<double>::infinity();  // typed its ID
    for (size_t i : matched[st->Int(0)]) h.matched.push_back(words[i].word);
    hits.push_back(std::move(h));
  }
  std::sort(hits.begin(), hits.end(), [](const SearchHit& a, const SearchHit& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.id < b.id;
  });
  if (hits.size() > static_cast<size_t>(limit)) hits.resize(limit);
  return hits;
}

StatusOr<std::optional<json>> ShowRuling(Connection& conn, const std::string& id) {
  auto st = conn.Prepare(
      "SELECT id, expansion, edition, status, title, summary, question, reasoning, variant_name, "
      "source_page, source_section, source_footnote, source_hint, answer_cited, answer_date, "
      "source_file, data, coalesce(source_text, '') FROM rulings WHERE id = ?1 COLLATE NOCASE");
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
  // The source as a reader finds it (page, section, footnote); the checklist file it was
  // built from is apart, under `defined_in`.
  r["source"] = {{"text", st->Text(17)},         {"page", J(st->OptText(9))},
                 {"section", J(st->OptText(10))}, {"footnote", J(st->OptInt(11))},
                 {"paragraph_hint", J(st->OptText(12))}};
  r["defined_in"] = st->Text(15);
  r["official_answer"] = st->IsNull(13) ? json()
                                         : json{{"cited", st->Text(13)}, {"date", J(st->OptText(14))}};
  const json data = json::parse(st->Text(16), nullptr, /*allow_exceptions=*/false);
  if (data.is_object() && data.contains("examples")) r["examples"] = data["examples"];
  if (data.is_object() && data.contains("questions")) r["questions"] = data["questions"];
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

// Read side of rulings_store.h: search, show, list.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>

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
// A synonym found counts this much of the word itself; the English rule term of a Czech word
// (dopis -> message) counts kCzechTerm.
constexpr double kSynonym = 0.7;
constexpr double kCzechTerm = 0.9;
// Two neighbouring words of the question as a phrase in a title or players' question ("road
// deck", "monastery deck"): this share of the two words' idf on top.
constexpr double kPair = 0.6;
// The weight of a ruling of an expansion that the question does not name.
constexpr double kUnnamedExpansion = 0.6;
// The weight of a ruling needing an expansion the project does not model (PH-TOWER) when the
// question does not name that expansion: below the rulings in scope.
constexpr double kUnnamedNeed = 0.5;
// Hits scoring below this share of the best one are left out.
constexpr double kThreshold = 0.3;
// An answer in a listing is cut to about this many bytes.
constexpr size_t kSnippetBytes = 260;

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

// Whether a word of an answer is one of the terms looked for (same word, or a longer form of
// a term of four letters or more: "points" for "point"). Czech words by dictionary form.
bool Marked(const std::string& word, const std::set<std::string>& terms, bool czech) {
  const std::string f = FoldCzech(word);
  for (const std::string& t : terms)
    if (f == t || (t.size() >= 4 && f.starts_with(t) && f.size() <= t.size() + 3)) return true;
  if (czech && (word.size() >= 4))
    for (const std::string& l : CzechStems(word))
      if (terms.count(l)) return true;
  return false;
}

// The answer as a listing shows it: at most kSnippetBytes (cut at a word), the words looked
// for in [brackets].
// `seen`: the words already looked at for this question, and whether they are marked (the
// answers of one listing share most of their words; a Czech word is looked up in the
// dictionary once).
std::string Snippet(const std::string& text, const std::set<std::string>& terms, bool czech,
                    std::map<std::string, bool>& seen) {
  std::string out, cur;
  bool cut = false;
  auto flush = [&] {
    if (cur.empty()) return;
    auto it = seen.find(cur);
    if (it == seen.end()) it = seen.emplace(cur, Marked(cur, terms, czech)).first;
    out += it->second ? "[" + cur + "]" : cur;
    cur.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char ch = static_cast<unsigned char>(text[i]);
    if (std::isalnum(ch) || ch >= 0x80) {
      cur.push_back(static_cast<char>(ch));
      continue;
    }
    flush();
    if (out.size() >= kSnippetBytes) {
      cut = i + 1 < text.size();
      break;
    }
    out.push_back(ch == '\n' ? ' ' : static_cast<char>(ch));
  }
  flush();
  return cut ? out + "..." : out;
}

// The terms of the question that may name an expansion a needs-expansion ruling waits for:
// folded, a plural's "s" dropped, four letters or more. Read once per question (NamesNeed
// asks them for every hit).
std::vector<std::string> NeedTerms(const std::vector<QueryWord>& words) {
  std::vector<std::string> out;
  for (const QueryWord& w : words)
    for (const std::string& t : w.terms) {
      std::string f = FoldCzech(t);
      if (f.size() > 3 && f.back() == 's') f.pop_back();
      if (f.size() >= 4) out.push_back(std::move(f));
    }
  return out;
}

// Whether a word of the question names the expansion a needs-expansion ruling waits for
// ("tower" for needs-expansion:tower, "traders" for traders-and-builders).
bool NamesNeed(const std::vector<std::string>& need_terms, const std::string& need) {
  for (const std::string& f : need_terms)
    if (need.find(f) != std::string::npos) return true;
  return false;
}

}  // namespace

StatusOr<IndexVocabulary> ReadVocabulary(Connection& conn) {
  IndexVocabulary vocab;
  auto st = conn.Prepare(
      "SELECT title || ' ' || questions || ' ' || summary || ' ' || body "
      "FROM rulings_fts");
  if (!st.ok()) return st.status();
  auto rows = Column(*st);
  if (!rows.ok()) return rows.status();
  for (const std::string& text : *rows) AddToVocabulary(text, vocab);
  return vocab;
}

StatusOr<std::vector<SearchHit>> Search(Connection& conn, const std::string& query, int limit,
                                        const IndexVocabulary* vocab) {
  auto r = SearchRulings(conn, query, limit, vocab);
  if (!r.ok()) return r.status();
  return std::move(r->hits);
}

StatusOr<SearchResult> SearchRulings(Connection& conn, const std::string& query, int limit,
                                     const IndexVocabulary* vocab) {
  SearchResult result;
  result.ignored = StopWordsIn(query);
  StatusOr<IndexVocabulary> read = IndexVocabulary();
  if (!vocab) {
    read = ReadVocabulary(conn);
    if (!read.ok()) return read.status();
    vocab = &*read;
  }
  bool too_many = false;
  std::vector<QueryWord> words = ParseQuery(query, vocab, &too_many);  // one per distinct word
  // A question cut at the limit would be answered as another question: refused, so the player
  // asks it in fewer words (adjudicator/docs/limits.md "search words").
  if (too_many)
    return model::Status(model::ErrorCode::kUsage,
                         "the question has more than " + std::to_string(kMaxQueryWords) +
                             " words to search for (the limit; stop words and repeated words not "
                             "counted): ask it in fewer words");
  for (const QueryWord& w : words) {
    result.searched.push_back(w.searched);
    if (w.corrected) result.corrected.emplace_back(w.word, w.searched);
    result.czech = result.czech || w.czech;
  }
  if (words.empty() || limit <= 0) return result;

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
  std::vector<double> word_idf(words.size(), 0);
  std::set<int64_t> needing;  // rowids of rulings that need an expansion not modelled
  {
    auto st = conn.Prepare("SELECT ruling_no FROM rulings WHERE needs_expansion IS NOT NULL");
    if (!st.ok()) return st.status();
    for (;;) {
      auto row = st->Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      needing.insert(st->Int(0));
    }
  }
  std::vector<bool> out_of_scope_word(words.size(), false);  // only such rulings hold it
  std::set<std::string> marked;                              // the terms an answer marks
  std::string any;
  auto rows_of =
      [&](const std::string& match) -> StatusOr<std::vector<std::pair<int64_t, double>>> {
    std::vector<std::pair<int64_t, double>> rows;
    each->Bind(1, match);
    for (;;) {
      auto row = each->Step();
      if (!row.ok()) return row.status();
      if (!*row) break;
      rows.emplace_back(each->Int(0), each->Real(1));
    }
    each->Reset();
    return rows;
  };
  for (size_t i = 0; i < words.size(); ++i) {
    std::map<int64_t, double> quality;
    for (size_t t = 0; t < words[i].terms.size(); ++t) {
      const std::string term = Quoted(words[i].terms[t]);
      any += (any.empty() ? "" : " OR ") + term;
      marked.insert(FoldCzech(words[i].terms[t]));
      const double factor = t == 0 && words[i].literal ? 1.0
                            : words[i].czech           ? kCzechTerm
                                                       : kSynonym;
      auto rows = rows_of(term);
      if (!rows.ok()) return rows.status();
      double best = 0;  // the most negative bm25 of this term
      for (const auto& [rowid, bm25] : *rows) best = std::min(best, bm25);
      // A term found in few rulings says more about the question than a common one (idf).
      const double idf = std::log((n + 1) / (static_cast<double>(rows->size()) + 0.5));
      if (t == 0) {
        word_idf[i] = idf;
        // A word few rulings hold ("acrobat") names what a ruling out of scope is about.
        out_of_scope_word[i] = !rows->empty() && rows->size() <= 3 &&
                               std::any_of(rows->begin(), rows->end(), [&](const auto& r) {
                                 return needing.count(r.first) > 0;
                               });
      }
      for (const auto& [rowid, bm25] : *rows) {
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
  // Two words close in the question (next to each other or one word apart, either order) as a
  // phrase in a title or players' question: "road deck", "card from the road" -> "road card".
  for (size_t i = 0; i < words.size(); ++i)
    for (size_t j = i + 1; j < words.size() && j <= i + 2; ++j) {
      std::set<int64_t> got;
      for (size_t a = 0; a < std::min<size_t>(words[i].terms.size(), 2); ++a)
        for (size_t b = 0; b < std::min<size_t>(words[j].terms.size(), 2); ++b)
          for (const std::string& phrase : {words[i].terms[a] + " " + words[j].terms[b],
                                            words[j].terms[b] + " " + words[i].terms[a]}) {
            auto rows = rows_of("{title questions} : " + Quoted(phrase));
            if (!rows.ok()) return rows.status();
            for (const auto& [rowid, bm25] : *rows)
              if (got.insert(rowid).second) score[rowid] += kPair * (word_idf[i] + word_idf[j]);
          }
    }
  const std::vector<std::string> named = NamedExpansions(words);
  const std::vector<std::string> need_terms = NeedTerms(words);
  // The hits with their answers and sources.
  auto st = conn.Prepare(
      "SELECT rulings_fts.rowid, r.id, r.expansion, r.status, r.title, r.summary, "
      "       bm25(rulings_fts, " +
      std::string(kColumnWeights) +
      "), "
      "       coalesce(r.source_text, ''), coalesce(r.needs_expansion, '') "
      "FROM rulings_fts JOIN rulings r ON r.ruling_no = rulings_fts.rowid "
      "WHERE rulings_fts MATCH ?1");
  if (!st.ok()) return st.status();
  st->Bind(1, any);
  // Each hit's stored JSON and adopted reading are fetched and read only for the hits answered
  // (at most `limit`, below): a query matching most rulings copied (and once parsed) every one.
  struct Candidate {
    SearchHit h;
    int64_t rowid = 0;
  };
  std::vector<Candidate> hits;
  for (;;) {
    auto row = st->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    SearchHit h{st->Text(1), st->Text(2), st->Text(3), st->Text(4), st->Text(5), st->Real(6)};
    h.source = st->Text(7);
    h.rank = -score[st->Int(0)];
    // Questions are about the base game unless they name an expansion (or its components).
    if (h.expansion != "base" && std::find(named.begin(), named.end(), h.expansion) == named.end())
      h.rank *= kUnnamedExpansion;
    if (const std::string need = st->Text(8); !need.empty() && !NamesNeed(need_terms, need)) {
      h.rank *= kUnnamedNeed;
      // Named after all the same by a word that few rulings, this one among them, hold.
      bool specific = false;
      for (size_t i : matched[st->Int(0)]) specific = specific || out_of_scope_word[i];
      h.out_of_scope = !specific;
    }
    if (SameId(h.id, query)) h.rank = -std::numeric_limits<double>::infinity();  // typed its ID
    for (size_t i : matched[st->Int(0)]) h.matched.push_back(words[i].searched);
    hits.push_back({std::move(h), st->Int(0)});
  }
  // Rulings needing an expansion the question does not name come after the others.
  std::sort(hits.begin(), hits.end(), [](const Candidate& a, const Candidate& b) {
    if (a.h.out_of_scope != b.h.out_of_scope) return b.h.out_of_scope;
    return a.h.rank != b.h.rank ? a.h.rank < b.h.rank : a.h.id < b.h.id;
  });
  // Weak hits (a common word, a synonym only) are cut.
  const double best =
      hits.empty()
          ? 0.0
          : std::min_element(hits.begin(), hits.end(), [](const Candidate& a, const Candidate& b) {
              return a.h.rank < b.h.rank;
            })->h.rank;
  if (!hits.empty() && std::isfinite(best)) {
    const double cut = best * kThreshold;
    hits.erase(
        std::find_if(hits.begin(), hits.end(), [&](const Candidate& c) { return c.h.rank > cut; }),
        hits.end());
  } else if (!hits.empty()) {
    hits.resize(1);  // the ruling whose ID was typed
  }
  result.total = static_cast<int>(hits.size());
  if (hits.size() > static_cast<size_t>(limit)) hits.resize(limit);
  auto answer = conn.Prepare(
      "SELECT r.data, (SELECT name || char(10) || summary FROM ruling_readings d "
      "                WHERE d.ruling_id = r.id AND d.adopted = 1) "
      "FROM rulings r WHERE r.ruling_no = ?1");
  if (!answer.ok()) return answer.status();
  std::map<std::string, bool> snippet_words;
  for (Candidate& c : hits) {
    SearchHit& h = c.h;
    answer->Bind(1, c.rowid);
    auto row = answer->Step();
    if (!row.ok()) return row.status();
    const std::string text = *row ? answer->Text(0) : std::string();
    const std::optional<std::string> adopted =
        *row ? answer->OptText(1) : std::optional<std::string>();
    answer->Reset();
    // The answer: a dispute's adopted reading, the Czech answer to a Czech question.
    const json data = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (adopted) {
      const size_t nl = adopted->find('\n');
      h.snippet = "Adopted reading " + adopted->substr(0, nl) + ": " + adopted->substr(nl + 1);
    }
    if (data.is_object() && data.contains("questions") && data["questions"].is_array() &&
        !data["questions"].empty() && data["questions"][0].is_string())
      h.question = data["questions"][0];
    if (result.czech && data.is_object() && data.contains("cs")) {
      const json& cs = data["cs"];
      if (cs.contains("answer") && cs["answer"].is_string()) h.snippet = cs["answer"];
      if (cs.contains("questions") && !cs["questions"].empty()) h.question = cs["questions"][0];
    }
    h.snippet = Snippet(h.snippet, marked, result.czech, snippet_words);
    result.hits.push_back(std::move(h));
  }
  return result;
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
  r["source"] = {{"text", st->Text(17)},
                 {"page", J(st->OptText(9))},
                 {"section", J(st->OptText(10))},
                 {"footnote", J(st->OptInt(11))},
                 {"paragraph_hint", J(st->OptText(12))}};
  r["defined_in"] = st->Text(15);
  r["official_answer"] =
      st->IsNull(13) ? json() : json{{"cited", st->Text(13)}, {"date", J(st->OptText(14))}};
  const json data = json::parse(st->Text(16), nullptr, /*allow_exceptions=*/false);
  if (data.is_object() && data.contains("examples")) r["examples"] = data["examples"];
  if (data.is_object() && data.contains("questions")) r["questions"] = data["questions"];
  st = Statement();

  auto answers =
      conn.Prepare("SELECT cited, date FROM ruling_answers WHERE ruling_id = ?1 ORDER BY seq");
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
      "SELECT name, adopted, summary, support FROM ruling_readings WHERE ruling_id = ?1 ORDER BY "
      "seq");
  if (!rd.ok()) return rd.status();
  rd->Bind(1, rid);
  json readings = json::array();
  for (;;) {
    auto a = rd->Step();
    if (!a.ok()) return a.status();
    if (!*a) break;
    readings.push_back({{"name", rd->Text(0)},
                        {"adopted", rd->Int(1) == 1},
                        {"summary", rd->Text(2)},
                        {"support", J(rd->OptText(3))}});
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
    r["fixtures"].push_back({{"path", fx->Text(0)},
                             {"id", J(fx->OptText(1))},
                             {"title", J(fx->OptText(2))},
                             {"mode", fx->Text(3)},
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
    json e = {{"id", st->Text(0)},
              {"expansion", st->Text(1)},
              {"status", st->Text(2)},
              {"title", st->Text(3)},
              {"fixtures", st->Int(4)}};
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

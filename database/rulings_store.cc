#include "database/rulings_store.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "database/ruling_files.h"
#include "database/search_words.h"
#include "model/core/json_reader.h"
#include "model/core/position_io.h"

namespace carc::database {

namespace fs = std::filesystem;
using model::ErrorCode;
using nlohmann::json;

namespace {

const char* const kLinkKinds[] = {"supersedes", "superseded_by", "variant_of", "conflicts_with",
                                  "see_also"};

std::optional<std::string> OptString(const json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key) || !obj[key].is_string()) return std::nullopt;
  return obj[key].get<std::string>();
}

std::optional<int64_t> OptInt(const json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key) || !obj[key].is_number_integer()) return std::nullopt;
  return obj[key].get<int64_t>();
}

// Prepared once per build: one statement per table.
struct Inserts {
  Statement ruling, fts, answer, reading, link, need, example, fixture, cover;
};

// The source as a reader can follow it: "page, section, footnote N" (the footnote is left
// out when the section already names it).
std::string SourceText(const json& src) {
  std::string out = OptString(src, "page").value_or("");
  const std::string section = OptString(src, "section").value_or("");
  if (!section.empty()) out += (out.empty() ? "" : ", ") + section;
  if (auto fn = OptInt(src, "footnote"); fn && section.find("footnote") == std::string::npos)
    out += (out.empty() ? "" : ", ") + ("footnote " + std::to_string(*fn));
  return out;
}

// Text of an entry that is neither title, questions nor summary, for the body column of the
// search index: a dispute's question, reasoning and readings, examples, the variant name and
// the expansion's name (not the source: its section names repeat over many rulings).
std::string BodyText(const json& r, const std::string& expansion_title) {
  std::string out;
  auto add = [&](const std::optional<std::string>& t) {
    if (t && !t->empty()) out += (out.empty() ? "" : "\n") + *t;
  };
  add(OptString(r, "question"));
  add(OptString(r, "reasoning"));
  add(OptString(r, "variant_name"));
  for (const json& rd : r.value("readings", json::array())) {
    add(OptString(rd, "summary"));
    add(OptString(rd, "support"));
  }
  for (const json& e : r.value("examples", json::array())) add(e.get<std::string>());
  add(expansion_title);
  return out;
}

// The `questions` list of an entry, one per line.
std::string Questions(const json& r) {
  std::string out;
  for (const json& q : r.value("questions", json::array()))
    out += (out.empty() ? "" : "\n") + q.get<std::string>();
  return out;
}

StatusOr<Inserts> PrepareInserts(Connection& c) {
  Inserts in;
  struct {
    Statement* st;
    const char* sql;
  } all[] = {
      {&in.ruling,
       "INSERT INTO rulings (id, expansion, edition, status, status_kind, needs_expansion, title, "
       "summary, question, reasoning, variant_name, source_page, source_section, source_footnote, "
       "source_hint, answer_cited, answer_date, source_file, data, questions, source_text) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, "
       "?19, ?20, ?21)"},
      {&in.fts,
       "INSERT INTO rulings_fts (rowid, id, title, questions, summary, body) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"},
      {&in.answer,
       "INSERT INTO ruling_answers (ruling_id, seq, cited, date) VALUES (?1, ?2, ?3, ?4)"},
      {&in.reading,
       "INSERT INTO ruling_readings (ruling_id, seq, name, adopted, summary, support) "
       "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"},
      {&in.link, "INSERT INTO ruling_links (from_id, kind, to_id) VALUES (?1, ?2, ?3)"},
      {&in.need, "INSERT INTO ruling_needs (ruling_id, expansion) VALUES (?1, ?2)"},
      {&in.example, "INSERT INTO ruling_examples (ruling_id, seq, text) VALUES (?1, ?2, ?3)"},
      {&in.fixture,
       "INSERT INTO fixtures (path, fixture_id, title, mode, expected_verdict, expected_exit_code, "
       "why) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"},
      {&in.cover, "INSERT INTO fixture_covers (fixture_no, ruling_id) VALUES (?1, ?2)"},
  };
  for (auto& [st, sql] : all) {
    auto p = c.Prepare(sql);
    if (!p.ok()) return p.status();
    *st = std::move(*p);
  }
  return in;
}

// One ruling entry of a file that passed CheckRulingFile; `where` is "file:/rulings/i".
Status InsertRuling(Connection& conn, Inserts& in, json r, const std::string& expansion,
                    const std::string& expansion_title, const std::string& file,
                    const std::string& where, const json& czech, const std::set<std::string>& ids,
                    BuildReport& rep) {
  const std::string id = r["id"], status = r["status"];
  const bool needs = status.rfind("needs-expansion:", 0) == 0;
  const json src = r.value("source", json::object());
  const json answer = r.value("official_answer", json());
  in.ruling.Bind(1, id).Bind(2, expansion).Bind(3, r.value("edition", "")).Bind(4, status);
  in.ruling.Bind(5, needs ? std::string("needs-expansion") : status);
  in.ruling.Bind(6, needs ? std::optional<std::string>(status.substr(16)) : std::nullopt);
  in.ruling.Bind(7, r["title"].get<std::string>()).Bind(8, r["summary"].get<std::string>());
  in.ruling.Bind(9, OptString(r, "question")).Bind(10, OptString(r, "reasoning"));
  in.ruling.Bind(11, OptString(r, "variant_name"));
  in.ruling.Bind(12, OptString(src, "page")).Bind(13, OptString(src, "section"));
  in.ruling.Bind(14, OptInt(src, "footnote")).Bind(15, OptString(src, "paragraph_hint"));
  in.ruling.Bind(16, OptString(answer, "cited")).Bind(17, OptString(answer, "date"));
  const std::string questions = Questions(r);
  // The Czech players' questions and answer (questions_cs.json) travel in `data` for display;
  // the index holds them in dictionary forms (CzechIndexText), as Czech questions are searched.
  std::string questions_index = questions, body_index = BodyText(r, expansion_title);
  if (czech.is_object()) {
    for (const json& q : czech["questions"])
      questions_index += "\n" + CzechIndexText(q.get<std::string>());
    if (czech.contains("answer"))
      body_index += "\n" + CzechIndexText(czech["answer"].get<std::string>());
    r["cs"] = czech;
  }
  in.ruling.Bind(18, file).Bind(19, r.dump()).Bind(20, questions).Bind(21, SourceText(src));
  if (Status s = in.ruling.Run(); !s.ok())
    return Status(s.code(), s.message() + " [" + where + " " + id + "]");
  in.fts.Bind(1, conn.LastInsertRowid()).Bind(2, id).Bind(3, r["title"].get<std::string>());
  in.fts.Bind(4, questions_index).Bind(5, r["summary"].get<std::string>());
  in.fts.Bind(6, body_index);
  if (Status s = in.fts.Run(); !s.ok()) return s;
  int seq = 0;
  for (const json& a : r.value("additional_official_answers", json::array())) {
    in.answer.Bind(1, id)
        .Bind(2, seq++)
        .Bind(3, *OptString(a, "cited"))
        .Bind(4, OptString(a, "date"));
    if (Status s = in.answer.Run(); !s.ok()) return s;
  }
  const json readings = r.value("readings", json::array());
  for (size_t i = 0; i < readings.size(); ++i) {
    const json& rd = readings[i];
    in.reading.Bind(1, id).Bind(2, static_cast<int>(i)).Bind(3, *OptString(rd, "name"));
    in.reading.Bind(4, rd.value("adopted", false) ? 1 : 0).Bind(5, *OptString(rd, "summary"));
    in.reading.Bind(6, OptString(rd, "support"));
    if (Status s = in.reading.Run(); !s.ok()) return s;
  }
  const json links = r.value("links", json::object());
  for (const char* kind : kLinkKinds) {
    const json to_ids = links.value(kind, json::array());
    for (size_t i = 0; i < to_ids.size(); ++i) {
      const std::string to = to_ids[i];
      if (!ids.count(to))
        return model::JsonError(where + "/links/" + kind + "/" + std::to_string(i),
                                id + " links (" + kind + ") to unknown ruling " + to);
      in.link.Bind(1, id).Bind(2, kind).Bind(3, to);
      if (Status s = in.link.Run(); !s.ok()) return s;
      ++rep.links;
    }
  }
  for (const json& e : r.value("needs_expansion", json::array())) {
    in.need.Bind(1, id).Bind(2, e.get<std::string>());
    if (Status s = in.need.Run(); !s.ok()) return s;
  }
  seq = 0;
  for (const json& e : r.value("examples", json::array())) {
    in.example.Bind(1, id).Bind(2, seq++).Bind(3, e.get<std::string>());
    if (Status s = in.example.Run(); !s.ok()) return s;
  }
  ++rep.rulings;
  rep.per_expansion[expansion] = rep.per_expansion.value(expansion, 0) + 1;
  return Status::Ok();
}

// The ruling files as (name shown in messages, name relative to the checkout, parsed text),
// sorted by name; questions_cs.json among them.
struct RulingDoc {
  std::string file, rel;
  json doc;
};

bool IsCzechQuestions(const RulingDoc& d) {
  return fs::path(d.rel).filename() == kCzechQuestionsFile;
}

Status LoadRulingDocs(Connection& conn, Inserts& in, const std::vector<RulingDoc>& docs,
                      const std::string& dir, BuildReport& rep) {
  // Every file's shape first (ruling_files.h), and every ID once over all the files: a link or
  // a Czech question then names a ruling of the checklist or is refused where it stands.
  std::map<std::string, json> czech;  // the Czech players' questions and answer, by ruling ID
  std::string czech_file = dir + "/" + kCzechQuestionsFile;
  std::set<std::string> ids;
  for (const RulingDoc& d : docs) {
    if (IsCzechQuestions(d)) {
      if (Status s = CheckCzechQuestionsFile(d.doc, d.file); !s.ok()) return s;
      for (const auto& [id, e] : d.doc["questions"].items()) czech[id] = e;
      czech_file = d.file;
      continue;
    }
    if (Status s = CheckRulingFile(d.doc, d.file); !s.ok()) return s;
    const json& rs = d.doc["rulings"];
    for (size_t i = 0; i < rs.size(); ++i)
      if (const std::string id = rs[i]["id"]; !ids.insert(id).second)
        return model::JsonError(d.file, "/rulings/" + std::to_string(i) + "/id",
                                "duplicate ruling ID " + id);
  }
  for (const auto& [id, e] : czech)
    if (!ids.count(id))
      return model::JsonError(czech_file, "/questions/" + id, "no ruling has this ID");
  for (const RulingDoc& d : docs) {
    if (IsCzechQuestions(d)) continue;
    const json& doc = d.doc;
    const std::string expansion = doc["expansion"];
    const std::string expansion_title =
        OptString(doc.value("source", json::object()), "title").value_or(expansion);
    const json& rs = doc["rulings"];
    for (size_t i = 0; i < rs.size(); ++i) {
      const std::string where = d.file + ":/rulings/" + std::to_string(i);
      const auto cs = czech.find(rs[i]["id"].get<std::string>());
      if (Status s = InsertRuling(conn, in, rs[i], expansion, expansion_title, d.rel, where,
                                  cs == czech.end() ? json() : cs->second, ids, rep);
          !s.ok())
        return s;
    }
    rep.files.push_back(d.rel);
  }
  return Status::Ok();
}

Status LoadRulings(Connection& conn, Inserts& in, const fs::path& root, BuildReport& rep) {
  fs::path dir = root / "database" / "rulings";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return Status(ErrorCode::kNoInput, dir.string() + ": no rulings folder (use --root DIR)");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<RulingDoc> docs;
  for (const fs::path& f : files) {
    auto doc = model::ReadJsonFile(f.string());
    if (!doc.ok()) return doc.status();
    docs.push_back({f.string(), fs::relative(f, root).string(), std::move(*doc)});
  }
  return LoadRulingDocs(conn, in, docs, dir.string(), rep);
}

Status LoadFixtures(Inserts& in, Connection& conn, const fs::path& root, BuildReport& rep) {
  for (const fs::path& f : FixtureRulingFiles(root)) {
    auto doc = model::ReadJsonFile(f.string());
    if (!doc.ok()) return doc.status();
    const json& d = *doc;
    if (Status s = CheckFixtureRulingFile(d, f.string()); !s.ok()) return s;
    std::string pos_name = f.filename().string();
    pos_name.replace(pos_name.size() - 12, 12, ".position.json");
    json meta = json::object();
    if (auto pos = model::ReadJsonFile((f.parent_path() / pos_name).string());
        pos.ok() && pos->is_object())
      meta = pos->value("meta", json::object());
    const json& expect = d["expect"];
    std::optional<int64_t> exit_code = OptInt(expect, "exit_code");
    if (!exit_code && expect.contains("error")) exit_code = OptInt(expect["error"], "exit_code");
    in.fixture.Bind(1, fs::relative(f, root).string()).Bind(2, OptString(meta, "id"));
    in.fixture.Bind(3, OptString(meta, "title")).Bind(4, d.value("mode", "adjudicate"));
    in.fixture.Bind(5, expect.contains("error") ? std::optional<std::string>("error")
                                                : OptString(expect, "verdict"));
    in.fixture.Bind(6, exit_code).Bind(7, OptString(d, "why"));
    if (Status s = in.fixture.Run(); !s.ok())
      return Status(s.code(), s.message() + " [" + f.string() + "]");
    const int64_t no = conn.LastInsertRowid();
    for (const json& id : d["covers"]) {
      in.cover.Bind(1, no).Bind(2, id.get<std::string>());
      if (Status s = in.cover.Run(); !s.ok()) return s;
      ++rep.covers;
    }
    ++rep.fixtures;
  }
  auto unknown = conn.Prepare("SELECT DISTINCT ruling_id FROM fixture_covers_unknown ORDER BY 1");
  if (!unknown.ok()) return unknown.status();
  for (;;) {
    auto row = unknown->Step();
    if (!row.ok()) return row.status();
    if (!*row) break;
    rep.unknown_cover_ids.push_back(unknown->Text(0));
  }
  return Status::Ok();
}

}  // namespace

bool ValidStatus(const std::string& s) {
  return s == "current" || s == "variant" || s == "disputed" || s == "superseded" ||
         (s.rfind("needs-expansion:", 0) == 0 && s.size() > 16);
}

namespace {

// Replaces the ruling and fixture rows with what `load` inserts, in one transaction.
template <typename Load>
StatusOr<BuildReport> Rebuild(Connection& conn, const std::string& where, Load load) {
  BuildReport rep;
  auto tx = Transaction::Begin(conn);
  if (!tx.ok()) return tx.status();
  // Cascades clear readings, links, needs, examples, answers, covers.
  if (Status s = conn.Exec("DELETE FROM fixtures; DELETE FROM rulings; DELETE FROM rulings_fts;");
      !s.ok())
    return s;
  try {
    auto in = PrepareInserts(conn);
    if (!in.ok()) return in.status();
    if (Status s = load(*in, rep); !s.ok()) return s;
  } catch (const json::exception& e) {  // a field of an unexpected type (json::value)
    return Status(ErrorCode::kMalformed, where +
                                             ": a ruling or fixture file has a field of the "
                                             "wrong type: " +
                                             e.what());
  }  // statements finalized before COMMIT
  if (Status s = conn.Exec("INSERT INTO rulings_fts (rulings_fts) VALUES ('optimize')"); !s.ok())
    return s;
  if (Status s = tx->Commit(); !s.ok()) return s;
  return rep;
}

}  // namespace

StatusOr<BuildReport> BuildFromRepo(Connection& conn, const std::string& root) {
  return Rebuild(conn, root, [&](Inserts& in, BuildReport& rep) {
    if (Status s = LoadRulings(conn, in, root, rep); !s.ok()) return s;
    return LoadFixtures(in, conn, root, rep);
  });
}

StatusOr<BuildReport> BuildFromTexts(
    Connection& conn, const std::vector<std::pair<std::string, std::string>>& files) {
  return Rebuild(conn, "compiled-in rulings", [&](Inserts& in, BuildReport& rep) {
    std::vector<RulingDoc> docs;
    for (const auto& [name, text] : files) {
      json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (doc.is_discarded()) return model::JsonError(name, "not JSON");
      docs.push_back({name, "database/rulings/" + name, std::move(doc)});
    }
    std::sort(docs.begin(), docs.end(),
              [](const RulingDoc& a, const RulingDoc& b) { return a.rel < b.rel; });
    return LoadRulingDocs(conn, in, docs, "database/rulings", rep);
  });
}

}  // namespace carc::database

// Case files: a query as a position file with its question and the reference answer, a manifest,
// and a reference script that compares an engine's answers without the protocol.
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "adjudicator/conform/checker.h"
#include "adjudicator/conform/engine.h"
#include "adjudicator/conform/shrink.h"
#include "adjudicator/rulings_catalog.h"
#include "model/core/json_reader.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator::conform {

namespace fs = std::filesystem;
using model::ErrorCode;
using model::Status;
using nlohmann::json;

namespace {

const char* kReadme = R"(# Carcassonne conformance cases (written by `carc conform`)

Each `<case>.position.json` is a position file (POSITION_FORMAT.md of the carc project) whose
`question` is the query; `<case>.expected.json` is the reference model's answer in the form of
the conformance protocol (adjudicator/conform/PROTOCOL.md):
- `legal`: `actions`, every legal action (compare as a set; rotations giving the same picture
  count once);
- `apply`: `legal`, and when legal the `scores` and resulting `position` (after running on to
  the next decision; after final scoring figures stay on the board and are not compared);
- `final_score`: `scores`.
`rulings` lists the ruling IDs behind the answer. `manifest.json` lists every case with its
kind, expansions, edition, rulings and files.

Rerun them against an engine that speaks the protocol: `carc conform --engine CMD --rerun DIR`.
Without the protocol: `python3 compare.py DIR -- CMD` runs `CMD <case>.position.json` for each
case (it must print the answer as one JSON object) and compares legality, scores and legal
lists; `carc adjudicate <case>.position.json` gives the reference verdict with its reasons.
)";

const char* kScript = R"PY(#!/usr/bin/env python3
"""Runs an engine over exported conformance cases and compares its answers with the reference.

usage: python3 compare.py DIR [--expansions a,b] [--editions C2,C3] -- CMD [ARGS...]
For each case of DIR/manifest.json that the engine can handle, runs `CMD ARGS <case>.position.json`
and reads one JSON answer from its stdout (the protocol's answer without `id`)."""
import json, os, subprocess, sys


def key(action):  # a legal list is a set; rotations giving the same picture are not merged here
    return json.dumps(action, sort_keys=True)


def main(argv):
    if "--" not in argv or argv.index("--") < 2:
        sys.exit(__doc__)
    cut = argv.index("--")
    opts, cmd = argv[1:cut], argv[cut + 1:]
    folder, exps, eds = opts[0], set(), {"C2", "C3"}
    for flag, value in zip(opts[1::2], opts[2::2]):
        if flag == "--expansions": exps = set(filter(None, value.split(",")))
        if flag == "--editions": eds = set(value.split(","))
    manifest = json.load(open(os.path.join(folder, "manifest.json")))
    failed = checked = 0
    for case in manifest["cases"]:
        if not set(case["expansions"]) <= exps or case["edition"] not in eds:
            continue
        checked += 1
        want = json.load(open(os.path.join(folder, case["expected"])))
        run = subprocess.run(cmd + [os.path.join(folder, case["position"])], capture_output=True, text=True)
        try:
            got = json.loads(run.stdout)
        except ValueError:
            got = {"error": run.stdout[:200] + run.stderr[:200]}
        if case["kind"] == "legal":
            same = {key(a) for a in want["actions"]} == {key(a) for a in got.get("actions", [])}
        elif case["kind"] == "apply":
            same = want["legal"] == got.get("legal") and want.get("scores") == got.get("scores")
        else:
            same = want["scores"] == got.get("scores")
        if not same:
            failed += 1
            print("DIFFER %s (%s, rulings %s)" % (case["case"], case["kind"], ", ".join(case["rulings"])))
    print("%d cases checked, %d differ" % (checked, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
)PY";

Status Write(const fs::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text;
  out.close();
  if (!out) return Status(ErrorCode::kIo, file.string() + ": cannot write");
  return Status::Ok();
}

}  // namespace

namespace {

// Writes one case's two files; returns its manifest entry.
model::StatusOr<json> WriteCase(const Query& q, const std::string& name, const json& meta,
                                const std::string& dir) {
  json pos = q.position;
  pos["meta"] = {{"id", name}, {"source", q.source}};
  if (q.kind == "apply")
    pos["question"] = {{"ask", "apply"}, {"actions", json::array({q.action})}};
  else
    pos["question"] = {{"ask", q.kind}};
  json ans = Answer(Request(q), -1);
  ans.erase("id");
  // Every expected answer states its rulings (PROTOCOL.md): a legal list's are those of the
  // disputed actions' verdicts when the case comes from a finding, else none.
  if (!ans.contains("rulings"))
    ans["rulings"] = meta.is_object() ? meta.value("rulings", json::array()) : json::array();
  json entry = {{"case", name},
                {"kind", q.kind},
                {"expansions", ExpansionsOf(q.position)},
                {"edition", q.position["rules"].value("edition", "C3")},
                {"rulings", ans["rulings"]},
                {"position", name + ".position.json"},
                {"expected", name + ".expected.json"},
                {"source", q.source}};
  if (meta.is_object())
    for (auto it = meta.begin(); it != meta.end(); ++it)
      if (it.key() != "rulings") entry[it.key()] = it.value();
  if (meta.is_object() && meta.contains("rulings")) entry["finding_rulings"] = meta["rulings"];
  if (auto s = Write(fs::path(dir) / (name + ".position.json"), pos.dump(2) + "\n"); !s.ok())
    return s;
  if (auto s = Write(fs::path(dir) / (name + ".expected.json"), ans.dump(2) + "\n"); !s.ok())
    return s;
  return entry;
}

Status Finish(json& manifest, const std::string& dir) {
  if (auto s = Write(fs::path(dir) / "manifest.json", manifest.dump(2) + "\n"); !s.ok()) return s;
  if (auto s = Write(fs::path(dir) / "README.md", kReadme); !s.ok()) return s;
  return Write(fs::path(dir) / "compare.py", kScript);
}

}  // namespace

Status WriteCases(const std::vector<Query>& cases, const std::vector<std::string>& names,
                  const std::vector<json>& meta, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status(ErrorCode::kIo, dir + ": cannot create: " + ec.message());
  json manifest = {{"format", "carc conformance cases 1"}, {"cases", json::array()}};
  for (size_t i = 0; i < cases.size(); ++i) {
    auto entry = WriteCase(cases[i], names[i], i < meta.size() ? meta[i] : json(), dir);
    if (!entry.ok()) return entry.status();
    manifest["cases"].push_back(std::move(*entry));
  }
  return Finish(manifest, dir);
}

model::StatusOr<size_t> ExportSuite(SuiteReader& suite, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return Status(ErrorCode::kIo, dir + ": cannot create: " + ec.message());
  json manifest = {{"format", "carc conformance cases 1"}, {"cases", json::array()}};
  size_t n = 0;
  for (Query q; suite.Next(q); ++n) {
    char name[48];
    std::snprintf(name, sizeof name, "%05zu_%s", q.index, q.kind.c_str());
    auto entry = WriteCase(q, name, json(), dir);
    if (!entry.ok()) return entry.status();
    manifest["cases"].push_back(std::move(*entry));
  }
  if (auto s = Finish(manifest, dir); !s.ok()) return s;
  return n;
}

namespace {

// A name of a file inside the case folder: no path, no "..", nothing outside it.
bool FileInFolder(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\\') == std::string::npos && name.find('\0') == std::string::npos;
}

// The entry's other values as WriteCase writes them: its case name once in the manifest, the
// query's source, known ruling IDs, a count of one or more. An entry edited to say otherwise
// claims what the rerun does not check.
Status CheckEntryValues(const json& e, const Query& q, const std::string& where,
                        std::set<std::string>& case_names) {
  auto bad = [&](const std::string& key, const std::string& what) {
    return Status(ErrorCode::kMalformed, where + "/" + key + ": " + what);
  };
  if (e.contains("case")) {
    if (!e["case"].is_string() || e["case"].get<std::string>().empty())
      return bad("case", "expected the case's name");
    if (!case_names.insert(e["case"].get<std::string>()).second)
      return bad("case", "the name " + e["case"].dump() + " is given to another case too");
  }
  if (e.contains("source") && e["source"] != q.source)
    return bad("source", e["source"].dump().substr(0, 200) + ", but the case file's source is \"" +
                             q.source + "\"");
  for (const char* key : {"rulings", "finding_rulings"}) {
    if (!e.contains(key)) continue;
    if (!e[key].is_array()) return bad(key, "expected a list of ruling IDs");
    for (const json& id : e[key])
      if (!id.is_string() || !EmbeddedRuling(id.get<std::string>()))
        return bad(key, "unknown ruling ID " + id.dump().substr(0, 100));
  }
  if (e.contains("count") && (!e["count"].is_number_integer() || e["count"].get<int64_t>() < 1))
    return bad("count", "expected a number of queries, 1 or more");
  for (const char* key : {"category", "found_by"})
    if (e.contains(key) && !e[key].is_string()) return bad(key, "expected a string");
  return Status::Ok();
}

// One case file read as the reference reads its query, so that a case the reference cannot
// read is refused here (65, naming the file and the pointer) rather than checked against an
// answer that compares nothing: the question holds only what a rerun asks (no claim, no
// depth: a rerun would not check them), the position is read by the model and valid, an apply
// question's one action is read against it, and legal is never asked at game_over (PROTOCOL.md).
model::StatusOr<Query> ReadCase(const json& doc, const std::string& file) {
  auto bad = [&](const std::string& at, const std::string& what) {
    return Status(ErrorCode::kMalformed, file + (at.empty() ? "" : ":" + at) + ": " + what);
  };
  if (!doc.is_object()) return bad("", "expected a position object");
  if (!doc.contains("question") || !doc["question"].is_object())
    return bad("/question", "missing (expected an object with ask)");
  const json& q = doc["question"];
  if (!q.contains("ask") || !q["ask"].is_string() ||
      (q["ask"] != "legal" && q["ask"] != "apply" && q["ask"] != "final_score"))
    return bad("/question/ask", "expected legal, apply or final_score, got " +
                                    q.value("ask", json()).dump().substr(0, 100));
  Query query;
  query.kind = q["ask"].get<std::string>();
  if (query.kind == "apply") {
    if (auto s = model::CheckKeys(q, "/question", {"ask", "actions"}); !s.ok())
      return Status(ErrorCode::kMalformed, file + ":" + s.message() +
                                               " (a rerun asks apply of "
                                               "one action, nothing else)");
    if (!q.contains("actions") || !q["actions"].is_array() || q["actions"].size() != 1)
      return bad("/question/actions", "expected one action");
    query.action = q["actions"][0];
  } else if (auto s = model::CheckKeys(q, "/question", {"ask"}); !s.ok()) {
    return Status(ErrorCode::kMalformed,
                  file + ":" + s.message() + " (a rerun asks " + query.kind + ", nothing else)");
  }
  query.source = file;
  if (doc.contains("meta")) {
    const json& meta = doc["meta"];
    if (!meta.is_object()) return bad("/meta", "expected an object");
    if (meta.contains("source")) {
      if (!meta["source"].is_string() || meta["source"].get<std::string>().empty())
        return bad("/meta/source", "expected the query's source (a non-empty string)");
      query.source = meta["source"].get<std::string>();
    }
  }
  query.position = doc;
  query.position.erase("question");
  query.position.erase("meta");
  auto pos = ReadQueryPosition(query.position, file);
  if (!pos.ok()) return pos.status();
  if (auto v = model::Validate(*pos); !v.empty())
    return bad(v[0].where, "not a valid position: " + v[0].text + " [" + v[0].ruling + "]");
  if (query.kind == "legal" && pos->turn.game_over)
    return bad("/turn/step", "game_over, where legal is not asked (PROTOCOL.md)");
  if (query.kind == "apply") {
    if (pos->turn.game_over)
      return bad("/turn/step", "game_over, where no action is applied (PROTOCOL.md)");
    auto a = model::ParseAction(query.action, *pos, "/question/actions/0", exp::Context(file));
    if (!a.ok()) {
      const std::string why = a.status().message();
      return why.rfind(file, 0) == 0 ? a.status() : Status(ErrorCode::kMalformed, file + ":" + why);
    }
  }
  query.expansions = ExpansionsOf(query.position);
  return query;
}

}  // namespace

model::StatusOr<std::vector<Query>> LoadCases(const std::string& dir) {
  const std::string mpath = (fs::path(dir) / "manifest.json").string();
  auto manifest = model::ReadJsonFile(mpath);
  if (!manifest.ok()) return manifest.status();
  if (!manifest->is_object() || !(*manifest)["cases"].is_array())
    return Status(ErrorCode::kMalformed, mpath + ":/cases: expected an array of cases");
  // The manifest --out and export write: its format, if stated, is this one, and nothing else
  // is in it (a misspelt key would be a part of the folder the rerun does not read).
  if (auto s = model::CheckKeys(*manifest, "", {"format", "cases"}); !s.ok())
    return Status(ErrorCode::kMalformed, mpath + ":" + s.message());
  if (manifest->contains("format") && (*manifest)["format"] != "carc conformance cases 1")
    return Status(ErrorCode::kMalformed,
                  mpath + ":/format: expected \"carc conformance cases 1\", got " +
                      (*manifest)["format"].dump().substr(0, 200));
  std::vector<Query> out;
  // Each case file once (by device and inode): a case listed twice would count twice.
  std::map<std::pair<dev_t, ino_t>, size_t> named;
  std::set<std::string> case_names;
  const json& cases = (*manifest)["cases"];
  // No case: a rerun that checks nothing would pass.
  if (cases.empty()) return Status(ErrorCode::kMalformed, mpath + ":/cases: no case to rerun");
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string where = mpath + ":/cases/" + std::to_string(i);
    if (!cases[i].is_object() || !cases[i]["position"].is_string())
      return Status(ErrorCode::kMalformed, where + "/position: expected a file name");
    // The keys WriteCase writes, and nothing else: a misspelt one ("kindd") would be a part of
    // the entry the rerun does not read.
    if (auto s = model::CheckKeys(
            cases[i], "/cases/" + std::to_string(i),
            {"case", "kind", "expansions", "edition", "rulings", "position", "expected", "source",
             "category", "count", "found_by", "finding_rulings"});
        !s.ok())
      return Status(ErrorCode::kMalformed, mpath + ":" + s.message());
    // A case file is named inside the folder: no path, no "..", nothing outside it, and it is a
    // file of the folder itself (a link could lead out of it, or name a case file again).
    std::map<std::string, std::pair<dev_t, ino_t>> ids;
    for (const char* key : {"position", "expected"}) {
      if (!cases[i].contains(key)) continue;
      if (!cases[i][key].is_string())
        return Status(ErrorCode::kMalformed, where + "/" + key + ": expected a file name");
      const std::string name = cases[i][key].get<std::string>();
      if (!FileInFolder(name))
        return Status(ErrorCode::kMalformed,
                      where + "/" + key + ": \"" + name.substr(0, 200) +
                          "\" is not a file name in the folder (a case names a file of " + dir +
                          ", no path)");
      struct stat st;
      if (lstat((fs::path(dir) / name).c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return Status(ErrorCode::kMalformed, where + "/" + key + ": \"" + name.substr(0, 200) +
                                                 "\" is no file of the folder (missing, a link "
                                                 "or not a regular file)");
      ids[key] = {st.st_dev, st.st_ino};
    }
    if (ids.count("expected") && ids["expected"] == ids["position"])
      return Status(ErrorCode::kMalformed,
                    where +
                        "/expected: the case's position file again: an expected answer is a "
                        "file of its own");
    const std::string name = cases[i]["position"].get<std::string>();
    // Each case file once, by the file itself: a hard link names the same case twice.
    if (auto [it, fresh] = named.emplace(ids["position"], i); !fresh)
      return Status(ErrorCode::kMalformed, where + "/position: \"" + name.substr(0, 200) +
                                               "\" is already the case of /cases/" +
                                               std::to_string(it->second) +
                                               " (the same file): each case once");
    const std::string file = (fs::path(dir) / name).string();
    auto doc = model::ReadJsonFile(file);
    if (!doc.ok()) return doc.status();
    auto query = ReadCase(*doc, file);
    if (!query.ok()) return query.status();
    // The entry's kind is the question's (WriteCase writes both): a manifest edited to say
    // otherwise is not the folder it claims to be.
    if (cases[i].contains("kind") && cases[i]["kind"] != query->kind)
      return Status(ErrorCode::kMalformed, where + "/kind: " + cases[i]["kind"].dump() + ", but " +
                                               name + " asks " + query->kind);
    if (cases[i].contains("expansions") && cases[i]["expansions"] != json(query->expansions))
      return Status(ErrorCode::kMalformed, where + "/expansions: " + cases[i]["expansions"].dump() +
                                               ", but " + name + " enables " +
                                               json(query->expansions).dump());
    if (cases[i].contains("edition") &&
        cases[i]["edition"] != query->position["rules"].value("edition", json("C3")))
      return Status(ErrorCode::kMalformed, where + "/edition: " + cases[i]["edition"].dump() +
                                               ", but " + name + " states another edition");
    if (auto st = CheckEntryValues(cases[i], *query, where, case_names); !st.ok()) return st;
    out.push_back(std::move(*query));
  }
  return out;
}

}  // namespace carc::adjudicator::conform

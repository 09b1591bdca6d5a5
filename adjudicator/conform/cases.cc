// Case files: a query as a position file with its question and the reference answer, a manifest,
// and a reference script that compares an engine's answers without the protocol.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "adjudicator/conform/checker.h"
#include "adjudicator/conform/engine.h"
#include "adjudicator/conform/shrink.h"
#include "model/core/json_reader.h"
#include "model/core/position_io.h"

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
  std::map<std::string, size_t> named;  // each case file once: a case listed twice counts twice
  const json& cases = (*manifest)["cases"];
  // No case: a rerun that checks nothing would pass.
  if (cases.empty()) return Status(ErrorCode::kMalformed, mpath + ":/cases: no case to rerun");
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string where = mpath + ":/cases/" + std::to_string(i);
    if (!cases[i].is_object() || !cases[i]["position"].is_string())
      return Status(ErrorCode::kMalformed, where + "/position: expected a file name");
    // A case file is named inside the folder: no path, no "..", nothing outside it.
    const std::string name = cases[i]["position"].get<std::string>();
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
        name.find('\\') != std::string::npos || name.find('\0') != std::string::npos)
      return Status(ErrorCode::kMalformed,
                    where + "/position: \"" + name.substr(0, 200) +
                        "\" is not a file name in the folder (a case names a file of " + dir +
                        ", no path)");
    if (auto [it, fresh] = named.emplace(name, i); !fresh)
      return Status(ErrorCode::kMalformed, where + "/position: \"" + name.substr(0, 200) +
                                               "\" is already the case of /cases/" +
                                               std::to_string(it->second));
    const std::string file = (fs::path(dir) / name).string();
    auto doc = model::ReadJsonFile(file);
    if (!doc.ok()) return doc.status();
    if (!doc->is_object() || !(*doc)["question"].is_object())
      return Status(ErrorCode::kMalformed, file + ":/question: missing");
    json q = (*doc)["question"];
    Query query;
    query.kind = q.value("ask", "");
    if (query.kind != "legal" && query.kind != "apply" && query.kind != "final_score")
      return Status(ErrorCode::kMalformed,
                    file + ":/question/ask: expected legal, apply or final_score");
    if (query.kind == "apply") {
      if (!q["actions"].is_array() || q["actions"].size() != 1)
        return Status(ErrorCode::kMalformed, file + ":/question/actions: expected one action");
      query.action = q["actions"][0];
    }
    // The entry's kind is the question's (WriteCase writes both): a manifest edited to say
    // otherwise is not the folder it claims to be.
    if (cases[i].contains("kind") && cases[i]["kind"] != query.kind)
      return Status(ErrorCode::kMalformed, where + "/kind: " + cases[i]["kind"].dump() + ", but " +
                                               name + " asks " + query.kind);
    query.source = doc->value("meta", json::object()).value("source", file);
    doc->erase("question");
    doc->erase("meta");
    query.position = *doc;
    query.expansions = ExpansionsOf(query.position);
    if (cases[i].contains("expansions") && cases[i]["expansions"] != json(query.expansions))
      return Status(ErrorCode::kMalformed, where + "/expansions: " + cases[i]["expansions"].dump() +
                                               ", but " + name + " enables " +
                                               json(query.expansions).dump());
    if (cases[i].contains("edition") &&
        cases[i]["edition"] != query.position["rules"].value("edition", json("C3")))
      return Status(ErrorCode::kMalformed, where + "/edition: " + cases[i]["edition"].dump() +
                                               ", but " + name + " states another edition");
    out.push_back(query);
  }
  return out;
}

}  // namespace carc::adjudicator::conform

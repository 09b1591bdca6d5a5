// The conformance surfaces read strictly: no run passes on something it did not check, and no
// input (a --rerun case, an option, an engine answer, a merged report, a request to the
// reference adapter) is silently misread. Each test is named for what it refuses; each runs the
// carc binary and asserts the exit code and a part of the message.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "adjudicator/run_carc.h"
#include "adjudicator/test_scratch.h"

namespace {

using nlohmann::json;
const std::string kCarc = CARC_BINARY;
const std::string kRoot = CARC_SOURCE_DIR;
const std::string kC01 = "fixtures/base/cities/c01_city_with_arms.position.json";
const std::string kJcz = kRoot + "/fixtures/peer-games/base-2p-000.jcz";

const std::string& Scratch() { return carc::testing_support::ScratchDir("conform_strict_test"); }

using carc::testing::Result;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs a shell command; stdout and stderr kept apart.
Result Sh(const std::string& cmd) {
  return carc::testing::ShellApart(cmd, Scratch() + "/stderr." + std::to_string(getpid()));
}

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

const std::string kReference = kCarc + " engine";

// A proxy engine: forwards every request to the reference adapter and changes its answers as
// MODE says (one mode per test case), so that everything else is the reference's.
const std::string& Proxy() {
  static const std::string path = [] {
    const std::string p = Scratch() + "/proxy.py";
    std::ofstream(p) << R"(import json, subprocess, sys
mode = sys.argv[1]
ref = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    req = json.loads(line)
    cmd = req["cmd"]
    ref.stdin.write(line)
    ref.stdin.flush()
    out = json.loads(ref.stdout.readline())
    if cmd == "hello" and mode == "c1_only":
        out["options"] = {"edition": ["C1"]}
    if cmd == "legal" and mode == "legal_actions":
        out["legal_actions"] = []
    if cmd == "legal" and mode == "legal_in_legal":
        out["legal"] = True
    if cmd == "final_score" and mode == "legal_in_final":
        out["legal"] = True
    if cmd == "final_score" and mode == "score_event":
        out["score_event"] = []
    if cmd == "apply" and mode == "illegal_surplus" and out.get("legal") is False:
        out["scores"] = [99, 99]
        out["position"] = {"board": []}
    if cmd == "legal" and mode == "shortcut_string":
        for a in out["actions"]:
            a["shortcut"] = "no"
    if cmd == "legal" and mode == "shortcut_on_placement":
        for a in out["actions"]:
            if a["type"] == "place_tile":
                a["shortcut"] = True
    if cmd == "apply" and mode == "renamed" and out.get("legal"):
        for i, p in enumerate(out["position"]["players"]):
            p["name"] = "Player %d" % (i + 1)
    text = json.dumps(out)
    if cmd == "legal" and mode in ("4mib", "4mib_plus_1"):
        size = (4 << 20) + (1 if mode == "4mib_plus_1" else 0)
        text = text[:-1] + " " * (size - len(text)) + "}"
    print(text, flush=True)
    if cmd != "hello" and cmd != "quit" and mode == "answer_twice":
        out["scores"] = [99, 99]
        print(json.dumps(out), flush=True)
    if cmd == "quit":
        break
)";
    return p;
  }();
  return path;
}

std::string ProxyEngine(const std::string& mode) {
  return "python3 " + Proxy() + " " + mode + " " + kReference;
}

Result Conform(const std::string& engine, const std::string& extra) {
  return Sh(kCarc + " conform --root " + kRoot + " --no-progress --timeout 60 --engine " +
            Quote(engine) + " " + extra);
}

// The cases of c01 as `conform export` writes them (7: legal, final_score, apply, ...).
const std::string& Exported() {
  static const std::string dir = [] {
    const std::string d = Scratch() + "/c01_export";
    std::filesystem::remove_all(d);
    Result r = Sh(kCarc + " conform export " + d + " --root " + kRoot + " --only " + kC01);
    EXPECT_EQ(r.code, 0) << r.err;
    return d;
  }();
  return dir;
}

json ReadJson(const std::string& path) { return json::parse(Slurp(path)); }

// A one-case --rerun folder made of the exported case of `kind` (its first), the position file
// and the manifest entry changed by `edit`.
std::string OneCase(const std::string& name, const std::string& kind,
                    const std::function<void(json& doc, json& entry)>& edit) {
  const std::string dir = Scratch() + "/case_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  json manifest = ReadJson(Exported() + "/manifest.json");
  for (json entry : manifest["cases"]) {
    if (entry["kind"] != kind) continue;
    json doc = ReadJson(Exported() + "/" + entry["position"].get<std::string>());
    edit(doc, entry);
    std::ofstream(dir + "/" + entry["position"].get<std::string>()) << doc.dump(1);
    if (entry.contains("expected") && entry["expected"].is_string() &&
        std::filesystem::exists(Exported() + "/" + entry["expected"].get<std::string>()))
      std::filesystem::copy_file(Exported() + "/" + entry["expected"].get<std::string>(),
                                 dir + "/" + entry["expected"].get<std::string>());
    manifest["cases"] = json::array({entry});
    std::ofstream(dir + "/manifest.json") << manifest.dump(1);
    return dir;
  }
  ADD_FAILURE() << "no " << kind << " case exported";
  return dir;
}

// --rerun reads each case with the model's readers when it loads the folder: a case the
// reference cannot read, or a part of it the rerun would not read, is refused (65) naming the
// case file and the JSON pointer, before any engine is asked.
TEST(ConformRerunStrict, ACaseTheReferenceCannotReadOrDoesNotAskIsRefused) {
  struct Edit {
    std::string name, kind;
    std::function<void(json&, json&)> edit;
    std::string says;
  };
  const std::vector<Edit> edits = {
      {"boardd", "legal", [](json& d, json&) { d["boardd"] = json::array(); }, ":/boardd"},
      {"game_over_legal", "legal",
       [](json& d, json&) {
         d["turn"] = {{"player", 0}, {"step", "game_over"}};
         d["supply"] = {{"draw_order", json::array()}};  // an ended game has no tile to draw
       },
       ":/turn/step: game_over, where legal is not asked"},
      {"rotation45", "apply", [](json& d, json&) { d["question"]["actions"][0]["rotation"] = 45; },
       ":/question/actions/0/rotation"},
      {"teleport", "apply",
       [](json& d, json&) {
         d["question"]["actions"][0] = {{"type", "teleport"}};
       },
       ":/question/actions/0/type"},
      {"claim", "apply",
       [](json& d, json&) {
         d["question"]["claim"] = {{"legal", false}};
       },
       ":/question/claim: unknown field"},
      {"legal_with_actions", "legal",
       [](json& d, json&) { d["question"]["actions"] = json::array(); },
       ":/question/actions: unknown field"},
      {"depht", "legal", [](json& d, json&) { d["question"]["depht"] = 2; },
       ":/question/depht: unknown field"},
      {"ask_int", "legal", [](json& d, json&) { d["question"]["ask"] = 5; },
       ":/question/ask: expected legal, apply or final_score"},
      {"meta_string", "legal", [](json& d, json&) { d["meta"] = "x"; },
       ":/meta: expected an object"},
      {"meta_source_int", "legal", [](json& d, json&) { d["meta"]["source"] = 5; },
       ":/meta/source: expected"},
      {"seven_players", "final_score",
       [](json& d, json&) {
         for (int i = 0; i < 5; ++i)
           d["players"].push_back(
               {{"name", "P" + std::to_string(i)}, {"score", 0}, {"supply", {{"meeple", 7}}}});
       },
       ":/players: expected 1 to 6 players"},
      {"entry_kindd", "legal", [](json&, json& e) { e["kindd"] = "apply"; },
       "manifest.json:/cases/0/kindd: unknown field"},
      {"entry_expected_path", "legal", [](json&, json& e) { e["expected"] = "../../etc/passwd"; },
       "manifest.json:/cases/0/expected: \"../../etc/passwd\" is not a file name in the folder"},
  };
  for (const Edit& e : edits) {
    const std::string dir = OneCase(e.name, e.kind, e.edit);
    Result r = Conform(kReference, "--rerun " + dir);
    EXPECT_EQ(r.code, 65) << e.name << ": " << r.err;
    EXPECT_NE(r.err.find(e.says), std::string::npos) << e.name << ": " << r.err;
    if (e.name.rfind("entry_", 0) != 0) {  // the case file is named
      EXPECT_NE(r.err.find(dir + "/0000"), std::string::npos) << e.name << ": " << r.err;
    }
  }
  // The cases as exported are read and checked.
  Result ok = Conform(kReference, "--rerun " + Exported());
  EXPECT_EQ(ok.code, 0) << ok.err;
}

// Options a mode would silently drop are refused (64), naming the option.
TEST(ConformOptionsStrict, OptionsTheModeIgnoresAreRefused) {
  const std::string dir = Scratch() + "/opts";
  std::filesystem::create_directories(dir);
  const std::string jcz = kCarc + " conform --jcz " + kJcz + " ";
  const std::string exp = kCarc + " conform --root " + kRoot + " ";
  const std::string run = kCarc + " conform --root " + kRoot + " --engine " + Quote(kReference) +
                          " --no-progress --only " + kC01 + " ";
  const std::vector<std::pair<std::string, std::string>> cmds = {
      {jcz + "--engine true", "--engine applies to an --engine run, not to --jcz"},
      {jcz + "--random 5", "--random applies to an --engine run"},
      {jcz + "--seed 3", "--seed applies to an --engine run"},
      {jcz + "--only " + kC01, "--only applies to an --engine run"},
      {jcz + "--out " + dir + "/out", "--out applies to an --engine run"},
      {jcz + "--rerun " + dir, "--rerun applies to an --engine run"},
      {jcz + "--trace " + dir + "/t.jsonl", "--trace applies to an --engine run"},
      {jcz + "--jobs 2", "--jobs applies to an --engine run"},
      {jcz + "--timeout 5", "--timeout applies to an --engine run"},
      {exp + "--rerun " + dir + " export " + dir + "/e1", "--rerun applies to a check"},
      {exp + "--engine true export " + dir + "/e2", "--engine applies to a check"},
      {exp + "--report " + dir + "/r.json export " + dir + "/e3", "--report applies to a check"},
      {exp + "--out " + dir + "/o export " + dir + "/e4", "--out applies to a check"},
      {exp + "--jcz " + kJcz + " export " + dir + "/e5", "--jcz applies to a check"},
      {exp + "export ''", "an empty file name"},
      {run + "--seed 5", "--seed applies to random positions"},
      {run + "--progress --no-progress", "--progress and --no-progress contradict"},
      {run + "--rerun " + dir + " --random 3", "--random does not apply to --rerun"},
      {exp + "--engine " + Quote(kReference) + " --rerun " + dir + " --only 'random seed 1 #0'",
       "names a random position, which --rerun does not generate"},
  };
  for (const auto& [cmd, says] : cmds) {
    Result r = Sh(cmd);
    EXPECT_EQ(r.code, 64) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << cmd << ": " << r.err;
  }
  for (const char* e : {"/e1", "/e2", "/e3", "/e4", "/e5"})
    EXPECT_FALSE(std::filesystem::exists(dir + e)) << "a refused export wrote " << e;
}

// --only "random seed S #I" is read exactly as reports write it; a name's seed contradicting
// --seed is refused (64); the name as written runs.
TEST(ConformOptionsStrict, RandomPositionNameIsReadExactly) {
  const std::string run =
      kCarc + " conform --root " + kRoot + " --engine " + Quote(kReference) + " --no-progress ";
  for (const char* name :
       {"random seed 07 #3", "random seed 7 # 3", "random  seed 7 #3", "random seed +7 #+3",
        "random seed 7 #99999999999", "random seed 7 #1000000", "random seed 4294967296 #0",
        "random seed 7 #3 "}) {
    Result r = Sh(run + "--only " + Quote(name));
    EXPECT_EQ(r.code, 64) << name << ": " << r.err;
    EXPECT_NE(r.err.find("exactly as reports write it"), std::string::npos) << name << r.err;
  }
  Result conflict = Sh(run + "--only 'random seed 7 #3' --seed 9");
  EXPECT_EQ(conflict.code, 64) << conflict.err;
  EXPECT_NE(conflict.err.find("names seed 7, --seed says 9"), std::string::npos) << conflict.err;
  Result ok = Sh(run + "--only 'random seed 7 #3' --seed 7");
  EXPECT_EQ(ok.code, 0) << ok.err;
}

// A run that checks nothing (the hello admits none of the queries asked) does not pass: 74, as
// PROTOCOL.md refuses a hello admitting no position.
TEST(ConformHollowRun, ARunThatChecksNothingFails) {
  Result only = Conform(ProxyEngine("c1_only"), "--only " + kC01);
  EXPECT_EQ(only.code, 74) << only.out << only.err;
  EXPECT_NE(only.err.find("nothing checked"), std::string::npos) << only.err;
  EXPECT_NE(only.err.find("edition C3: 7"), std::string::npos) << only.err;
  Result rerun = Conform(ProxyEngine("c1_only"), "--rerun " + Exported());
  EXPECT_EQ(rerun.code, 74) << rerun.out << rerun.err;
  EXPECT_NE(rerun.err.find("nothing checked"), std::string::npos) << rerun.err;
  // Through the same proxy, an engine that handles C3 is checked and agrees.
  Result control = Conform(ProxyEngine("none"), "--only " + kC01);
  EXPECT_EQ(control.code, 0) << control.err;
}

// The adapter reads a request's id and a hello's protocol as integers, as the checker reads
// them in answers; a quit it refuses (a surplus field) ends nothing: the next request is read.
TEST(ConformReferenceAdapterStrict, IdsProtocolAndARefusedQuit) {
  const std::string in = Scratch() + "/engine_ids.jsonl";
  std::ofstream(in) << R"({"id":1.0,"cmd":"quit"})"
                       "\n"
                       R"({"id":"2","cmd":"hello","protocol":1})"
                       "\n"
                       R"({"cmd":"hello","protocol":1})"
                       "\n"
                       R"({"id":3,"cmd":"hello","protocol":2})"
                       "\n"
                       R"({"id":4,"cmd":"hello","protocol":1.0})"
                       "\n"
                       R"({"id":5,"cmd":"quit","x":1})"
                       "\n"
                       R"({"id":6,"cmd":"hello","protocol":1})"
                       "\n"
                       R"({"id":7,"cmd":"quit"})"
                       "\n";
  Result r = Sh(kCarc + " engine < " + in);
  EXPECT_EQ(r.code, 0) << r.err;
  std::vector<json> answers;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) answers.push_back(json::parse(line));
  ASSERT_EQ(answers.size(), 8u) << r.out.substr(0, 2000);
  for (int i : {0, 1, 2}) {
    EXPECT_EQ(answers[i]["ok"], false) << i;
    EXPECT_NE(answers[i]["error"].get<std::string>().find("/id"), std::string::npos) << i;
  }
  for (int i : {3, 4}) {
    EXPECT_EQ(answers[i]["ok"], false) << i;
    EXPECT_NE(answers[i]["error"].get<std::string>().find("/protocol"), std::string::npos) << i;
  }
  EXPECT_EQ(answers[5]["ok"], false);  // the quit with a surplus field
  EXPECT_EQ(answers[6]["ok"], true);   // read after it
  EXPECT_EQ(answers[7]["ok"], true);
}

// An engine that never reads its input, answering ahead instead, fills the pipe the requests
// go into: the write is bounded by --timeout as the read is (74), never blocked for ever.
TEST(ConformEngineProcess, AnEngineThatNeverReadsItsInputTimesOut) {
  const std::string engine = Scratch() + "/nonreader.py";
  std::ofstream(engine) << "import json, sys, time\n"
                           "print(json.dumps({'id': 0, 'ok': True, 'protocol': 1, 'name': 'n'}))\n"
                           "for i in range(1, 20001):\n"
                           "    print(json.dumps({'id': i, 'ok': False, 'error': 'no'}))\n"
                           "sys.stdout.flush()\n"
                           "time.sleep(600)\n";
  Result r = Sh(kCarc + " conform --root " + kRoot + " --no-progress --timeout 3 --engine " +
                Quote("python3 " + engine));
  EXPECT_EQ(r.code, 74) << r.out << r.err;
  EXPECT_NE(r.err.find("it does not read its input"), std::string::npos) << r.err;
}

// An engine answer with a field that answer does not have (surplus or misspelt) is refused (74)
// naming it, as the hello answer is; the shortcut marker is a boolean, and true only on a
// shortcut; a second answer to the last query fails the run as after any other query.
TEST(ConformAnswersStrict, SurplusOrUnreadAnswerFieldsAreRefused) {
  const std::string illegal = OneCase("illegal", "apply", [](json& d, json&) {
    d["question"]["actions"][0]["x"] = 40;  // far from every tile: illegal
    d["question"]["actions"][0]["y"] = 40;
  });
  const std::string one_final = OneCase("one_final", "final_score", [](json&, json&) {});
  const std::vector<std::tuple<std::string, std::string, int, std::string>> cases = {
      {"legal_actions", "--only " + kC01, 74, "a legal request with /legal_actions, a field"},
      {"legal_in_legal", "--only " + kC01, 74, "a legal request with /legal, a field"},
      {"legal_in_final", "--only " + kC01, 74, "a final_score request with /legal, a field"},
      {"score_event", "--only " + kC01, 74, "a final_score request with /score_event, a field"},
      {"illegal_surplus", "--rerun " + illegal, 74, "apply request (illegal) with /position"},
      {"shortcut_string", "--only " + kC01, 74, "/actions/0/shortcut: wrong type"},
      {"shortcut_on_placement", "--only " + kC01, 1, "marked \\\"shortcut\\\": true, but"},
      {"answer_twice", "--rerun " + one_final, 74, "answered id 1 to request 2"},
  };
  for (const auto& [mode, args, code, says] : cases) {
    Result r = Conform(ProxyEngine(mode), args + " --format json");
    EXPECT_EQ(r.code, code) << mode << ": " << r.err << r.out.substr(0, 2000);
    EXPECT_NE((r.err + r.out).find(says), std::string::npos)
        << mode << ": " << r.err << r.out.substr(0, 2000);
  }
}

// An answer line of exactly 4 MiB is within the limit ("longer than 4 MiB" is refused); one
// byte more is not.
TEST(ConformAnswersStrict, AnAnswerOfExactly4MiBIsRead) {
  Result exact = Conform(ProxyEngine("4mib"), "--only " + kC01);
  EXPECT_EQ(exact.code, 0) << exact.err;
  Result over = Conform(ProxyEngine("4mib_plus_1"), "--only " + kC01);
  EXPECT_EQ(over.code, 74) << over.err;
  EXPECT_NE(over.err.find("longer than 4 MiB"), std::string::npos) << over.err;
}

// Player names inside a resulting position are not compared (PROTOCOL.md): figures and supplies
// are compared by seat, so a renamed player is the same player.
TEST(ConformPositionBySeat, ARenamedPlayerIsNotAPositionDifference) {
  Result r = Conform(ProxyEngine("renamed"), "--only " + kC01 + " --format json");
  EXPECT_EQ(r.code, 0) << r.err << r.out.substr(0, 3000);
  EXPECT_EQ(r.out.find("resulting position differs"), std::string::npos) << r.out.substr(0, 3000);
}

// The reference adapter answers a request whose cmd is no string ok: false and reads on; a
// surplus or misspelt request field, or a shortcut marker that is no boolean, is answered
// ok: false naming it.
TEST(ConformReferenceAdapterStrict, MalformedRequestsAreAnsweredAndTheNextIsRead) {
  const json pos = [] {
    json d = ReadJson(Exported() + "/00000_legal.position.json");
    d.erase("question");
    d.erase("meta");
    return d;
  }();
  const json apply_case = [] {
    const json manifest = ReadJson(Exported() + "/manifest.json");
    for (const json& entry : manifest["cases"])
      if (entry["kind"] == "apply")
        return ReadJson(Exported() + "/" + entry["position"].get<std::string>());
    return json();
  }();
  json apos = apply_case;
  apos.erase("question");
  apos.erase("meta");
  const json action = apply_case["question"]["actions"][0];
  json marked = action;
  marked["shortcut"] = "maybe";
  const std::vector<std::pair<json, std::string>> requests = {
      {{{"id", 1}, {"cmd", "legal"}, {"position", pos}, {"action", action}}, "/action"},
      {{{"id", 2}, {"cmd", "apply"}, {"position", apos}, {"action", action}, {"actions", {action}}},
       "/actions"},
      {{{"id", 3}, {"cmd", "legal"}, {"position", pos}, {"positon", json::object()}}, "/positon"},
      {{{"id", 4}, {"cmd", "final_score"}, {"position", pos}, {"action", action}}, "/action"},
      {{{"id", 5}, {"cmd", "apply"}, {"position", apos}, {"action", marked}}, "/action/shortcut"},
  };
  std::string input = R"({"id":8,"cmd":5})"
                      "\n"
                      R"({"id":9,"cmd":null})"
                      "\n";
  for (const auto& [req, field] : requests) input += req.dump() + "\n";
  input += R"({"id":10,"cmd":"legal","position":)" + pos.dump() + "}\n";
  input += R"({"id":11,"cmd":"quit"})"
           "\n";
  const std::string in = Scratch() + "/engine_requests.jsonl";
  std::ofstream(in) << input;
  Result r = Sh(kCarc + " engine < " + in);
  EXPECT_EQ(r.code, 0) << r.err;
  std::vector<json> answers;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) answers.push_back(json::parse(line));
  ASSERT_EQ(answers.size(), 3 + requests.size() + 1) << r.out.substr(0, 2000);
  EXPECT_EQ(answers[0]["ok"], false);
  EXPECT_EQ(answers[1]["ok"], false);
  for (size_t i = 0; i < requests.size(); ++i) {
    const json& a = answers[2 + i];
    EXPECT_EQ(a["id"], requests[i].first["id"]);
    EXPECT_EQ(a["ok"], false) << a.dump().substr(0, 300);
    EXPECT_NE(a.value("error", "").find(requests[i].second), std::string::npos) << a.dump();
  }
  EXPECT_EQ(answers[2 + requests.size()]["ok"], true);  // the well-formed legal, after them
  EXPECT_EQ(answers.back(), json({{"id", 11}, {"ok", true}}));
}

// conform merge reads a report as the checker writes it: an unknown key anywhere, a summary
// contradicting the cases, two engine names, a ruling this model does not have, a deviation
// citing no ruling, expansions or a source the checker never writes, and run values conform
// cannot produce are refused (65) naming the pointer.
TEST(ConformMergeStrict, AReportTheCheckerCouldNotHaveWrittenIsRefused) {
  const std::string dir = Scratch() + "/merge_strict";
  std::filesystem::create_directories(dir);
  const json finding = {
      {"category", "scores differ"}, {"rulings", {"BASE-SCORE-CITY"}}, {"deviation", false}};
  const json base = {{"engine", "e"},
                     {"run",
                      {{"engine", "e"},
                       {"hello", "0123456789abcdef"},
                       {"seed", 1},
                       {"random", 0},
                       {"cases", 2},
                       {"suite", "fedcba9876543210"}}},
                     {"shard", {{"k", 1}, {"n", 1}}},
                     {"summary",
                      {{"queries", 2},
                       {"checked", 2},
                       {"skipped", 0},
                       {"skipped_because", json::object()},
                       {"disagreeing_queries", 1},
                       {"groups", 0},
                       {"deviation_groups", 0},
                       {"per_expansion", {{"base", {{"checked", 2}, {"disagreeing", 1}}}}}}},
                     {"groups", json::array()},
                     {"declared_deviations", json::array()},
                     {"cases",
                      {{{"case", 0},
                        {"kind", "legal"},
                        {"source", "s"},
                        {"expansions", "base"},
                        {"findings", json::array()}},
                       {{"case", 1},
                        {"kind", "apply"},
                        {"source", "s"},
                        {"expansions", "base"},
                        {"findings", {finding}}}}}};
  const std::vector<std::tuple<std::string, json, std::string>> edits = {
      {"/casez", json::array(), "/casez: unknown field"},
      {"/run/seeed", 1, "/run/seeed: unknown field"},
      {"/shard/m", 1, "/shard/m: unknown field"},
      {"/cases/1/findings/0/count", 1, "/cases/1/findings/0/count: unknown field"},
      {"/cases/0/findngs", json::array({finding}), "/cases/0/findngs: unknown field"},
      {"/summary/checked", -7, "/summary/checked: -7, but the report's cases"},
      {"/engine", "other", "/engine: the string \"other\", but /run/engine is"},
      {"/cases/1/findings/0/rulings/0", "NOT-A-RULING",
       "/cases/1/findings/0/rulings/0: the string \"NOT-A-RULING\" is not a ruling ID"},
      {"/cases/1/findings/0",
       {{"category", "scores differ"}, {"rulings", json::array()}, {"deviation", true}},
       "/cases/1/findings/0/deviation: true, but the finding cites no ruling"},
      {"/cases/0/expansions", "bogus", "/cases/0/expansions: \"bogus\" is not an expansion"},
      {"/cases/0/expansions", "", "/cases/0/expansions: empty"},
      {"/cases/0/expansions", "phantom+phantom", "/cases/0/expansions: \"phantom\" named twice"},
      {"/cases/0/source", "", "/cases/0/source: empty"},
      {"/run/seed", 4294967296ull, "/run/seed: expected a seed from 0 to 4294967295"},
      {"/run/random", 2000000, "/run/random: expected a count from 0 to 1000000"},
      {"/run/hello", "", "/run/hello: expected a hash of 16 lower-case hex digits"},
      {"/run/suite", "not a hash", "/run/suite: expected a hash of 16 lower-case hex digits"},
  };
  for (const auto& [ptr, value, says] : edits) {
    json j = base;
    j[json::json_pointer(ptr)] = value;
    std::ofstream(dir + "/r.json") << j.dump();
    Result r = Sh(kCarc + " conform merge --db " + dir + "/db.sqlite " + dir + "/r.json");
    EXPECT_EQ(r.code, 65) << ptr << ": " << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << ptr << ": " << r.err;
  }
  std::ofstream(dir + "/r.json") << base.dump();
  Result ok = Sh(kCarc + " conform merge --db " + dir + "/db.sqlite " + dir + "/r.json");
  EXPECT_EQ(ok.code, 0) << ok.err;
}

}  // namespace

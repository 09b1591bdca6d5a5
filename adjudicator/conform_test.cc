// Conformance checker end to end: the reference adapter agrees with itself, every mutant is
// caught with the ruling it breaks and a small position, declared options are honoured, and
// broken engines fail cleanly with one message.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "adjudicator/conform/checker.h"
#include "adjudicator/conform/engine.h"
#include "adjudicator/conform/process.h"
#include "adjudicator/run_carc.h"
#include "adjudicator/test_scratch.h"

namespace {

namespace conform = carc::adjudicator::conform;
using nlohmann::json;
const std::string kCarc = CARC_BINARY;
const std::string kRoot = CARC_SOURCE_DIR;

const std::string& Scratch() { return carc::testing_support::ScratchDir("conform_test"); }

using carc::testing::Result;

Result Sh(const std::string& cmd, const std::string& err = "/dev/null") {
  return carc::testing::ShellRedirected(cmd, err);
}

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Result Conform(const std::string& engine_args, const std::string& extra = "") {
  return Sh(kCarc + " conform --root " + kRoot + " --engine \"" + kCarc + " engine " + engine_args +
            "\" " + extra);
}

TEST(Conform, ReferenceAgreesWithItselfOnEveryExpansionCombination) {
  Result r = Conform("", "--random 32 --seed 7 --jobs 2");
  ASSERT_EQ(r.code, 0) << r.out.substr(0, 3000);
  json j = json::parse(r.out);
  EXPECT_EQ(j["summary"]["groups"], 0);
  EXPECT_EQ(j["summary"]["skipped"], 0);  // the reference declares everything
  EXPECT_GT(j["summary"]["checked"].get<int>(), 200);
  // 32 random games over the 16 combinations: the four expansions all together among them.
  EXPECT_TRUE(
      j["summary"]["per_expansion"].contains("phantom+messengers+gifts+christmas_present") ||
      j["summary"]["per_expansion"].size() >= 16)
      << j["summary"]["per_expansion"].dump();
}

// Each mutant: caught (exit 1), its ruling in a group, that group's example shrunk to a few
// tiles (a completed monastery needs 9) and, in the base game, 2 players at most.
class MutantTest : public ::testing::TestWithParam<conform::MutantInfo> {};

TEST_P(MutantTest, IsCaughtWithItsRulingOnASmallPosition) {
  const auto& m = GetParam();
  Result r = Conform("--mutant " + m.name, "--jobs 2");
  ASSERT_EQ(r.code, 1) << m.name << ": " << r.out.substr(0, 2000);
  json j = json::parse(r.out);
  size_t best = 1000, players = 1000;
  bool found = false;
  for (const json& g : j["groups"]) {
    bool has = false;
    for (const json& id : g["rulings"]) has |= id == m.ruling;
    if (!has) continue;
    found = true;
    const json& size = g["example"]["size"];
    if (size["tiles"].get<size_t>() < best) {
      best = size["tiles"].get<size_t>();
      players = size["players"].get<size_t>();
    }
  }
  EXPECT_TRUE(found) << m.name << " not reported with " << m.ruling << ": "
                     << r.out.substr(0, 2000);
  EXPECT_LE(best, m.ruling == "BASE-SCORE-MONASTERY" ? 9u : 4u) << m.name;
  // Players of an expansion's state (Gifts hands) are not removed by the shrinker; the base
  // game's mutants shrink to 2 players.
  if (m.ruling.rfind("BASE-", 0) == 0) {
    EXPECT_LE(players, 2u) << m.name;
  }
}

INSTANTIATE_TEST_SUITE_P(All, MutantTest, ::testing::ValuesIn(conform::Mutants()),
                         [](const auto& info) {
                           std::string n = info.param.name;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// Declared options (PROTOCOL.md, hello): a C3-only engine gets no C1 or C2 position. The proxy
// declares edition C3 and forwards everything else to the reference adapter, writing down the
// edition of each position it receives.
TEST(Conform, EngineDeclaringC3OnlyIsSentNoC1Position) {
  const std::string dir = Scratch() + "/c3only";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/proxy.py") << R"(import json, subprocess, sys
ref = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
seen = open(sys.argv[0] + ".editions", "w")
for line in sys.stdin:
    req = json.loads(line)
    if req["cmd"] == "hello":
        print(json.dumps({"id": req["id"], "ok": True, "protocol": 1, "name": "c3 proxy",
                          "expansions": [], "options": {"edition": ["C3"]}}), flush=True)
        continue
    if "position" in req:
        seen.write(req["position"]["rules"]["edition"] + "\n")
        seen.flush()
    ref.stdin.write(line)
    ref.stdin.flush()
    print(ref.stdout.readline(), end="", flush=True)
)";
  Result r = Sh(kCarc + " conform --root " + kRoot + " --engine 'python3 " + dir + "/proxy.py " +
                kCarc + " engine'");
  ASSERT_EQ(r.code, 0) << r.out.substr(0, 2000);
  json j = json::parse(r.out);
  const json& skipped = j["summary"]["skipped_because"];
  // The fixtures hold C1 positions (the C1 farm and city rulings), and expansion positions.
  EXPECT_GT(skipped.value("edition C1", 0), 0) << skipped.dump();
  EXPECT_GT(skipped.value("expansion phantom", 0), 0) << skipped.dump();
  std::string editions = Slurp(dir + "/proxy.py.editions");
  EXPECT_GT(editions.size(), 100u);
  EXPECT_EQ(editions.find("C1"), std::string::npos);
  EXPECT_EQ(editions.find("C2"), std::string::npos);
}

TEST(Conform, SkipReasonNamesTheUndeclaredOption) {
  conform::Declared d;
  d.options["edition"] = {"C2", "C3"};
  d.options["farm_scoring"] = {"per-farm"};
  conform::Query q;
  q.position = {{"rules",
                 {{"edition", "C1"},
                  {"expansions", json::array()},
                  {"options", {{"farm_scoring", "c1-four-per-city"}}}}}};
  EXPECT_EQ(conform::SkipReason(q, d), "edition C1");
  q.position["rules"]["edition"] = "C3";
  EXPECT_EQ(conform::SkipReason(q, d), "farm_scoring c1-four-per-city");
  q.position["rules"]["options"]["farm_scoring"] = "per-farm";
  EXPECT_EQ(conform::SkipReason(q, d), "");
  q.expansions = {"phantom"};
  EXPECT_EQ(conform::SkipReason(q, d), "expansion phantom");
}

TEST(Conform, HelloWithWrongTypesIsAnEngineFailure) {
  EXPECT_FALSE(conform::ReadHello({{"ok", true}, {"protocol", 1}, {"expansions", "phantom"}}).ok());
  EXPECT_FALSE(
      conform::ReadHello({{"ok", true}, {"protocol", 1}, {"options", {{"edition", "C3"}}}}).ok());
  EXPECT_FALSE(conform::ReadHello({{"ok", true}, {"protocol", 2}}).ok());
  auto d = conform::ReadHello({{"ok", true}, {"protocol", 1}, {"options", {{"edition", {"C3"}}}}});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->options["edition"], std::set<std::string>{"C3"});
}

// A hello declaring an edition, option or expansion this model does not know is refused (74,
// naming it): "c3" for C3 would skip every position and the run would pass with no check, a
// misspelt key ("farm_scorin") would restrict nothing.
TEST(Conform, HelloDeclaringWhatTheModelDoesNotKnowIsRefused) {
  auto hello = [](const json& extra) {
    json h = {{"ok", true}, {"protocol", 1}};
    h.update(extra);
    return conform::ReadHello(h);
  };
  auto lower = hello({{"options", {{"edition", {"c3"}}}}});
  ASSERT_FALSE(lower.ok());
  EXPECT_NE(lower.status().message().find("edition \"c3\""), std::string::npos);
  auto key = hello({{"options", {{"farm_scorin", json::array()}}}});
  ASSERT_FALSE(key.ok());
  EXPECT_NE(key.status().message().find("farm_scorin"), std::string::npos);
  EXPECT_FALSE(hello({{"options", {{"farm_scoring", {"per-farm", "Per-Farm"}}}}}).ok());
  EXPECT_FALSE(hello({{"options", {{"city_scoring", {"c1"}}}}}).ok());
  auto exp = hello({{"expansions", {"Phantom"}}});
  ASSERT_FALSE(exp.ok());
  EXPECT_EQ(exp.status().code(), carc::model::ErrorCode::kIo);
  EXPECT_TRUE(
      hello({{"expansions", {"phantom"}},
             {"options",
              {{"edition", {"C1", "C2", "C3"}},
               {"city_scoring", {"standard", "c1-two-tile-city"}},
               {"farm_scoring", {"per-farm", "c1-four-per-city", "c1-three-per-city-once"}}}}})
          .ok());
}

// A misspelt field of hello is refused (74, naming it), never dropped: "expansion" for
// "expansions" would leave the engine's Phantom unchecked, every Phantom position skipped.
TEST(Conform, HelloWithAnUnknownFieldIsRefused) {
  auto typo =
      conform::ReadHello({{"id", 0}, {"ok", true}, {"protocol", 1}, {"expansion", {"phantom"}}});
  ASSERT_FALSE(typo.ok());
  EXPECT_EQ(static_cast<int>(typo.status().code()), 74);
  EXPECT_NE(typo.status().message().find("\"expansion\" is not a field of hello"),
            std::string::npos)
      << typo.status().message();
  EXPECT_FALSE(
      conform::ReadHello({{"ok", true}, {"protocol", 1}, {"deviation", json::array()}}).ok());
  auto every = conform::ReadHello({{"id", 0},
                                   {"ok", true},
                                   {"protocol", 1},
                                   {"name", "x"},
                                   {"expansions", {"phantom"}},
                                   {"options", json::object()},
                                   {"deviations", json::array()}});
  ASSERT_TRUE(every.ok()) << every.status().message();
  EXPECT_EQ(every->expansions.count("phantom"), 1u);
}

// A deviation from a ruling the model does not have would excuse nothing (or a misspelt ID
// would silently excuse nothing the engine meant): refused, naming the ID.
TEST(Conform, HelloDeviationNamingAnUnknownRulingIsRefused) {
  auto bad = conform::ReadHello(
      {{"ok", true},
       {"protocol", 1},
       {"deviations", {{{"ruling", "BASE-MAJORITY"}}, {{"ruling", "BASE-NO-SUCH-RULE"}}}}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(static_cast<int>(bad.status().code()), 74);
  EXPECT_NE(
      bad.status().message().find("deviation names \"BASE-NO-SUCH-RULE\", no ruling of this model"),
      std::string::npos)
      << bad.status().message();
  auto good = conform::ReadHello(
      {{"ok", true}, {"protocol", 1}, {"deviations", {{{"ruling", "BASE-MAJORITY"}}}}});
  ASSERT_TRUE(good.ok()) << good.status().message();
  EXPECT_EQ(good->deviations.count("BASE-MAJORITY"), 1u);
}

// A wrong-typed answer field is an engine failure (74), with one message naming the field.
TEST(Conform, WrongTypedAnswerFieldFailsWith74) {
  const std::string dir = Scratch() + "/wrongtype";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/engine.py") << R"(import json, sys
for line in sys.stdin:
    req = json.loads(line)
    if req["cmd"] == "hello":
        out = {"ok": True, "protocol": 1, "expansions": []}
    else:
        out = {"ok": True, "legal": "yes", "actions": "all of them", "scores": [0, 0]}
    out["id"] = req["id"]
    print(json.dumps(out), flush=True)
)";
  const std::string err = dir + "/stderr";
  Result r =
      Sh(kCarc + " conform --root " + kRoot + " --engine 'python3 " + dir + "/engine.py'", err);
  EXPECT_EQ(r.code, 74);
  EXPECT_EQ(r.out, "");
  std::string e = Slurp(err);
  EXPECT_TRUE(e.find("legal") != std::string::npos || e.find("actions") != std::string::npos) << e;
  EXPECT_NE(e.find("wrong type"), std::string::npos) << e;
  EXPECT_EQ(e.find("carc"), e.rfind("carc")) << "printed more than once: " << e;
}

// The state (field 3) and the start time (field 22) in /proc/PID/stat, empty if there is none.
std::pair<std::string, std::string> StateAndStart(const std::string& stat) {
  if (stat.empty()) return {};
  std::istringstream in(stat.substr(stat.rfind(')') + 1));  // the name may hold spaces
  std::vector<std::string> f;
  for (std::string w; in >> w;) f.push_back(w);
  return {f.at(0), f.at(22 - 3)};
}

// The engine starts a child (the sleep, in the engine's process group), writes down its pid,
// answers hello and then never answers again. The timeout fires on the first query, after hello,
// so the child surely exists when the group is killed, however slowly the engine started (a
// timeout during start-up on a loaded machine would leave no child to check). 2 s: time enough
// for a shell to start and answer hello on a loaded machine; the query is never answered at all.
TEST(Conform, SilentEngineTimesOutWith74AndItsProcessGroupIsKilled) {
  const std::string dir = Scratch() + "/silent";
  std::filesystem::create_directories(dir);
  const std::string pidfile = dir + "/sleeper.pid";
  std::filesystem::remove(pidfile);
  std::ofstream(dir + "/engine.sh") << "sleep 60 &\necho $! > " << pidfile << R"(
read -r hello
echo '{"id": 0, "ok": true, "protocol": 1, "expansions": []}'
wait
)";
  const std::string err = dir + "/stderr";
  Result r = Sh(
      kCarc + " conform --root " + kRoot + " --timeout 2 --engine 'sh " + dir + "/engine.sh'", err);
  EXPECT_EQ(r.code, 74);
  const std::string e = Slurp(err);
  EXPECT_NE(e.find("did not answer within 2 s"), std::string::npos) << e;
  ASSERT_NE(e.find("(query from "), std::string::npos) << "not a query's timeout: " << e;
  const std::string proc = "/proc/" + std::to_string(std::stoi(Slurp(pidfile))) + "/stat";
  // The engine's child was killed with the group: it is gone, or a zombie waiting for init. A
  // killed process shows as running until it is scheduled to die, which on a loaded machine may
  // be after carc has exited: wait for that, up to 30 s (the sleep, not killed, lives 60 s). A
  // later process given the same pid has another start time.
  auto [state, start] = StateAndStart(Slurp(proc));
  const std::string started = start;
  for (int i = 0; i < 3000 && !state.empty() && state != "Z" && start == started; ++i) {
    usleep(10000);
    std::tie(state, start) = StateAndStart(Slurp(proc));
  }
  EXPECT_TRUE(state.empty() || state == "Z" || start != started) << Slurp(proc);
}

TEST(Conform, GarbageEngineFailsWith74) {
  Result r = Sh(kCarc + " conform --root " + kRoot + " --engine 'yes hello'");
  EXPECT_EQ(r.code, 74);
}

TEST(Conform, ExitingEngineFailsWith74AndSaysSoOnce) {
  const std::string err = Scratch() + "/exit.err";
  Result r = Sh(kCarc + " conform --root " + kRoot + " --engine 'true' --format text", err);
  EXPECT_EQ(r.code, 74);
  EXPECT_EQ(r.out, "");
  std::string e = Slurp(err);
  EXPECT_NE(e.find("closed its output"), std::string::npos) << e;
  EXPECT_EQ(e.find("closed its output"), e.rfind("closed its output")) << e;
}

// An engine exiting as `true` does may be gone before the checker writes its first request (the
// write then finds no reader) or after (the answer then finds the end of its output), as the
// machine schedules them. Both must read as an exit. Here the engine has closed its input
// before the request is written, every time, and exits a moment later; one that closed its
// input and stays, silent, does not read its input (and is killed when the checker stops it).
TEST(EngineProcess, EngineGoneBeforeTheRequestIsWrittenReadsAsAnExit) {
  const std::string dir = Scratch() + "/closed_input";
  std::filesystem::create_directories(dir);
  for (const bool exits : {true, false}) {
    const std::string mark = dir + (exits ? "/exits" : "/stays");
    std::filesystem::remove(mark);
    conform::EngineProcess p;
    ASSERT_TRUE(p.Start("exec 0<&-; : > " + mark + (exits ? "; sleep 0.2" : "; exec sleep 60"),
                        exits ? 30 : 0.5)
                    .ok());
    while (!std::filesystem::exists(mark)) usleep(10000);
    auto answer = p.Ask({{"id", 0}, {"cmd", "hello"}, {"protocol", 1}});
    ASSERT_FALSE(answer.ok());
    const std::string& m = answer.status().message();
    EXPECT_NE(m.find(exits ? "closed its output (exited?)" : "does not read its input"),
              std::string::npos)
        << m;
  }
}

TEST(Conform, NoProgressWhenStderrIsNotATerminal) {
  const std::string err = Scratch() + "/progress.err";
  Result quiet = Sh(kCarc + " conform --root " + kRoot + " --engine '" + kCarc + " engine'", err);
  EXPECT_EQ(quiet.code, 0);
  EXPECT_EQ(Slurp(err), "");
  Result loud =
      Sh(kCarc + " conform --root " + kRoot + " --engine '" + kCarc + " engine' --progress", err);
  EXPECT_EQ(loud.code, 0);
  EXPECT_NE(Slurp(err).find("conform: queries"), std::string::npos) << Slurp(err);
}

TEST(Engine, AnswersUnknownCommandsWithAnError) {
  Result r =
      Sh("printf '%s\\n' '{\"id\": 3, \"cmd\": \"frobnicate\"}' 'not json' | " + kCarc + " engine");
  ASSERT_EQ(r.code, 0);
  std::istringstream lines(r.out);
  std::string a, b;
  std::getline(lines, a);
  std::getline(lines, b);
  json ja = json::parse(a), jb = json::parse(b);
  EXPECT_EQ(ja["id"], 3);
  EXPECT_EQ(ja["ok"], false);
  EXPECT_EQ(ja["error"], "unknown command");
  EXPECT_EQ(jb["ok"], false);
}

// A request is read as strictly as a position file: a repeated key is not taken as its last
// value (here "cmd": "quit" after "cmd": "hello" would otherwise end the engine silently).
TEST(Engine, RefusesARequestWithARepeatedKey) {
  std::istringstream in(
      "{\"id\": 1, \"cmd\": \"hello\", \"cmd\": \"quit\"}\n{\"id\": 2, \"cmd\": \"quit\"}\n");
  std::ostringstream out;
  EXPECT_EQ(conform::RunEngine(in, out, /*mutant=*/-1), 0);
  std::istringstream lines(out.str());
  std::string a, b;
  std::getline(lines, a);
  std::getline(lines, b);
  json ja = json::parse(a), jb = json::parse(b);
  EXPECT_EQ(ja["ok"], false);
  EXPECT_NE(ja["error"].get<std::string>().find("request:/cmd"), std::string::npos) << a;
  EXPECT_EQ(jb["id"], 2);
  EXPECT_EQ(jb["ok"], true);
}

TEST(Export, WritesCasesWithAManifestAndRelativeSources) {
  std::string dir = Scratch() + "/suite";
  std::filesystem::remove_all(dir);
  Result r = Sh(kCarc + " conform export " + dir + " --root " + kRoot);
  ASSERT_EQ(r.code, 0) << r.out;
  json manifest = json::parse(Slurp(dir + "/manifest.json"));
  ASSERT_GT(manifest["cases"].size(), 200u);
  int c1 = 0, phantom = 0;
  for (const json& c : manifest["cases"]) {
    ASSERT_TRUE(std::filesystem::exists(dir + "/" + c["position"].get<std::string>()));
    ASSERT_TRUE(std::filesystem::exists(dir + "/" + c["expected"].get<std::string>()));
    EXPECT_NE(c["source"].get<std::string>().substr(0, 1), "/") << c.dump();
    EXPECT_TRUE(c["rulings"].is_array());
    c1 += c["edition"] == "C1";
    for (const json& e : c["expansions"]) phantom += e == "phantom";
  }
  EXPECT_GT(c1, 0);
  EXPECT_GT(phantom, 0);
  json first = json::parse(Slurp(dir + "/" + manifest["cases"][0]["position"].get<std::string>()));
  EXPECT_EQ(first["meta"]["source"].get<std::string>().rfind("fixtures/", 0), 0u);
  EXPECT_TRUE(std::filesystem::exists(dir + "/README.md"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/compare.py"));
}

// One wrong rule is one group (PROTOCOL.md, which feature a score difference comes from). The
// farm mutant pays 3 more per incomplete city to a farm's owners at the end: the only feature
// whose value differs is the farm, whatever else paid the player (an incomplete city pays the
// same player under BASE-END-CITY, and must not make a second group). A meeple allowed on an
// occupied feature is the free-feature rule (BASE-MEEPLE-FREE), also in Phantom games. With
// random positions over every expansion combination, each is exactly one group.
TEST(Conform, FarmAndOccupiedFeatureMutantsAreOneGroupEach) {
  for (const auto& [mutant, category, ruling] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"farm-incomplete-cities", "scores differ", "BASE-END-FARM"},
           {"meeple-on-occupied-feature", "accepts an illegal action", "BASE-MEEPLE-FREE"}}) {
    Result r = Conform("--mutant " + mutant, "--random 48 --seed 5 --jobs 2");
    ASSERT_EQ(r.code, 1) << mutant << ": " << r.out.substr(0, 2000);
    json j = json::parse(r.out);
    std::string groups;
    for (const json& g : j["groups"]) groups += g["category"].dump() + g["rulings"].dump() + " ";
    ASSERT_EQ(j["groups"].size(), 1u) << mutant << ": " << groups;
    EXPECT_EQ(j["groups"][0]["category"], category) << mutant;
    bool cited = false, city = false;
    for (const json& id : j["groups"][0]["rulings"]) {
      cited |= id == ruling;
      city |= id == "BASE-END-CITY";
    }
    EXPECT_TRUE(cited) << mutant << ": " << groups;
    EXPECT_FALSE(city) << mutant << ": " << groups;
  }
}

// A final score is asked only where final scoring is defined: at game_over, or at a turn
// boundary (step draw, nothing drawn or placed), never mid-turn (PROTOCOL.md, final_score).
TEST(Export, FinalScoreOnlyAtATurnBoundaryOrTheEnd) {
  std::string dir = Scratch() + "/boundary";
  std::filesystem::remove_all(dir);
  Result r = Sh(kCarc + " conform export " + dir + " --root " + kRoot + " --random 40 --seed 3");
  ASSERT_EQ(r.code, 0) << r.out;
  json manifest = json::parse(Slurp(dir + "/manifest.json"));
  int finals = 0, boundaries = 0;
  for (const json& c : manifest["cases"]) {
    json p = json::parse(Slurp(dir + "/" + c["position"].get<std::string>()));
    if (c["kind"] != "final_score") continue;
    ++finals;
    const json& t = p["turn"];
    const std::string step = t.value("step", "");
    ASSERT_TRUE(step == "draw" || step == "game_over") << c["case"] << ": " << t.dump();
    if (step == "draw") {
      ++boundaries;
      EXPECT_FALSE(t.contains("tile")) << c["case"] << ": " << t.dump();
      EXPECT_FALSE(t.contains("placed")) << c["case"] << ": " << t.dump();
    }
  }
  EXPECT_GT(finals, 20);
  EXPECT_GT(boundaries, 10);  // mid-game final scoring is still checked, at turn starts
}

// The phantom placed alone (PH-ALONE) is one answer everywhere: the reference lists it at
// place_figure marked "shortcut": true, and an engine may list it or not.
TEST(Conform, PhantomAloneShortcutIsOptionalToList) {
  const std::string dir = Scratch() + "/shortcut";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/proxy.py") << R"(import json, subprocess, sys
ref = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
mode = sys.argv[1]
for line in sys.stdin:
    ref.stdin.write(line)
    ref.stdin.flush()
    out = json.loads(ref.stdout.readline())
    if "actions" in out:
        if mode == "drop":
            out["actions"] = [a for a in out["actions"] if not a.get("shortcut")]
        else:
            for a in out["actions"]:
                a.pop("shortcut", None)
    print(json.dumps(out), flush=True)
)";
  for (const std::string mode : {"drop", "unmarked"}) {
    Result r = Sh(kCarc + " conform --root " + kRoot + " --random 16 --seed 2 --engine 'python3 " +
                  dir + "/proxy.py " + mode + " " + kCarc + " engine'");
    EXPECT_EQ(r.code, 0) << mode << ": " << r.out.substr(0, 3000);
  }
}

// An answer beyond a limit is an engine failure naming the limit (PROTOCOL.md, Limits), found
// without working through it.
TEST(Conform, AnswersBeyondTheLimitsFailWith74NamingTheLimit) {
  const std::string dir = Scratch() + "/limits";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/engine.py") << R"(import json, sys
mode = sys.argv[1]
for line in sys.stdin:
    req = json.loads(line)
    if req["cmd"] == "hello":
        out = {"ok": True, "protocol": 1, "expansions": []}
        if mode == "deviations":
            out["deviations"] = [{"ruling": "R%d" % i} for i in range(2000)]
    elif req["cmd"] == "legal":
        a = {"type": "place_tile", "x": 5, "y": 5, "rotation": 0}
        out = {"ok": True, "actions": [a] * (1000000 if mode == "huge" else 20000)}
    else:
        out = {"ok": True, "legal": False, "scores": [0, 0]}
    out["id"] = req["id"]
    print(json.dumps(out), flush=True)
)";
  for (const auto& [mode, limit] : std::vector<std::pair<std::string, std::string>>{
           {"huge", "longer than 4 MiB, the limit"},
           {"actions", "20000 actions, more than the limit of 10000"},
           {"deviations", "2000 deviations, more than the limit of 1000"}}) {
    const std::string err = dir + "/" + mode + ".err";
    Result r = Sh(kCarc + " conform --root " + kRoot + " --timeout 120 --engine 'python3 " + dir +
                      "/engine.py " + mode + "'",
                  err);
    EXPECT_EQ(r.code, 74) << mode;
    EXPECT_NE(Slurp(err).find(limit), std::string::npos) << mode << ": " << Slurp(err);
  }
}

// SIGTERM and SIGHUP end the engines' process groups as SIGINT does.
TEST(Conform, TerminationSignalsEndTheEngineProcessGroup) {
  const std::string dir = Scratch() + "/signals";
  std::filesystem::create_directories(dir);
  for (const int sig : {SIGTERM, SIGHUP, SIGINT}) {
    const std::string pidfile = dir + "/sleeper" + std::to_string(sig) + ".pid";
    std::filesystem::remove(pidfile);
    std::ofstream(dir + "/engine.sh") << "sleep 60 &\necho $! > " << pidfile << R"(.tmp
mv )" << pidfile << ".tmp " << pidfile << R"(
read -r hello
echo '{"id": 0, "ok": true, "protocol": 1, "expansions": []}'
wait
)";
    pid_t carc = fork();
    if (carc == 0) {
      execl(kCarc.c_str(), "carc", "conform", "--root", kRoot.c_str(), "--timeout", "120",
            "--engine", ("sh " + dir + "/engine.sh").c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    while (!std::filesystem::exists(pidfile)) usleep(10000);
    const std::string proc = "/proc/" + std::to_string(std::stoi(Slurp(pidfile))) + "/stat";
    const std::string started = StateAndStart(Slurp(proc)).second;
    usleep(300000);  // the checker has sent its first query and waits
    kill(carc, sig);
    int status = 0;
    waitpid(carc, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << sig << " " << status;
    auto [state, start] = StateAndStart(Slurp(proc));
    for (int i = 0; i < 3000 && !state.empty() && state != "Z" && start == started; ++i) {
      usleep(10000);
      std::tie(state, start) = StateAndStart(Slurp(proc));
    }
    EXPECT_TRUE(state.empty() || state == "Z" || start != started) << sig << ": " << Slurp(proc);
  }
}

// A --rerun folder names its case files inside itself: a manifest entry with a path is refused.
TEST(Conform, RerunRefusesCaseFilesOutsideTheFolder) {
  const std::string dir = Scratch() + "/escape";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/manifest.json")
      << R"({"cases": [{"case": "x", "position": "../../etc/passwd"}]})";
  const std::string err = dir + "/stderr";
  Result r = Sh(kCarc + " conform --engine '" + kCarc + " engine' --rerun " + dir, err);
  EXPECT_EQ(r.code, 65);
  EXPECT_NE(Slurp(err).find("/cases/0/position"), std::string::npos) << Slurp(err);
}

// A --rerun folder that checks nothing, or whose manifest says another question than its case
// file asks, is refused: such a rerun would pass without checking what it claims to.
TEST(Conform, RerunRefusesAnEmptyOrMismatchedManifest) {
  const std::string dir = Scratch() + "/hollow";
  std::filesystem::create_directories(dir);
  // A final-scoring case: D alone, C3, nothing to score.
  std::ofstream(dir + "/c.position.json")
      << R"({"rules": {"edition": "C3", "expansions": []}, "players": [{"name": "A"},)"
      << R"( {"name": "B"}], "board": [{"tile": "D", "x": 0, "y": 0}],)"
      << R"( "turn": {"player": 0, "step": "game_over"}, "question": {"ask": "final_score"}})";
  for (const auto& [manifest, want] : std::vector<std::pair<std::string, std::string>>{
           {R"({"cases": []})", "manifest.json:/cases: no case to rerun"},
           {R"({"cases": [{"case": "c", "kind": "apply", "position": "c.position.json"}]})",
            "/cases/0/kind: \"apply\", but c.position.json asks final_score"},
           {R"({"cases": [{"case": "c", "edition": "C1", "position": "c.position.json"}]})",
            "/cases/0/edition: \"C1\", but c.position.json states another edition"},
           {R"({"cases": [{"case": "c", "expansions": ["gifts"], "position": "c.position.json"}]})",
            "/cases/0/expansions: [\"gifts\"], but c.position.json enables []"}}) {
    std::ofstream(dir + "/manifest.json") << manifest;
    const std::string err = dir + "/stderr";
    Result r = Sh(kCarc + " conform --engine '" + kCarc + " engine' --rerun " + dir, err);
    EXPECT_EQ(r.code, 65) << manifest;
    EXPECT_NE(Slurp(err).find(want), std::string::npos) << Slurp(err);
  }
}

// A --rerun manifest is read as --out writes it: a case listed twice (it would be checked and
// counted twice), another format, or a key the rerun does not read is refused, naming it.
TEST(Conform, RerunRefusesARepeatedCaseOrAnUnknownManifest) {
  const std::string dir = Scratch() + "/repeated";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/c.position.json")
      << R"({"rules": {"edition": "C3", "expansions": []}, "players": [{"name": "A"},)"
      << R"( {"name": "B"}], "board": [{"tile": "D", "x": 0, "y": 0}],)"
      << R"( "turn": {"player": 0, "step": "game_over"}, "question": {"ask": "final_score"}})";
  const std::string c = R"({"case": "c", "position": "c.position.json"})";
  for (const auto& [manifest, want] : std::vector<std::pair<std::string, std::string>>{
           {R"({"cases": [)" + c + ", " + c + "]}",
            "manifest.json:/cases/1/position: \"c.position.json\" is already the case of /cases/0"},
           {R"({"format": "carc conformance cases 2", "cases": [)" + c + "]}",
            "manifest.json:/format: expected \"carc conformance cases 1\", got \"carc conformance "
            "cases 2\""},
           {R"({"case": [], "cases": [)" + c + "]}", "manifest.json:/case: unknown field"}}) {
    std::ofstream(dir + "/manifest.json") << manifest;
    const std::string err = dir + "/stderr";
    Result r = Sh(kCarc + " conform --engine '" + kCarc + " engine' --rerun " + dir, err);
    EXPECT_EQ(r.code, 65) << manifest;
    EXPECT_NE(Slurp(err).find(want), std::string::npos) << Slurp(err);
  }
  // The same case once, with the format --out writes: checked.
  std::ofstream(dir + "/manifest.json")
      << R"({"format": "carc conformance cases 1", "cases": [)" + c << "]}";
  Result ok =
      Sh(kCarc + " conform --engine '" + kCarc + " engine' --rerun " + dir, dir + "/stderr");
  EXPECT_EQ(ok.code, 0) << Slurp(dir + "/stderr");
}

// A query given twice in one merge is refused, naming both places: INSERT OR REPLACE kept the
// last of the two outcomes, so a report listing a case twice (or named twice, or two shards
// claiming one query) was merged with one outcome dropped. An unknown kind is refused too.
TEST(ConformMerge, AQueryGivenTwiceOrOfAnUnknownKindIsRefused) {
  const std::string dir = Scratch() + "/merge_twice";
  std::filesystem::create_directories(dir);
  const std::string head =
      R"({"run": {"engine": "e", "hello": "0123456789abcdef", "seed": 1, "random": 0, "cases": 2, "suite": "fedcba9876543210"},
"shard": {"k": 1, "n": 1}, "cases": [)";
  const std::string c0 = R"({"case": 0, "kind": "legal", "source": "s", "expansions": "base",
"findings": []})";
  const std::string c0bad = R"({"case": 0, "kind": "legal", "source": "s", "expansions": "base",
"findings": [{"category": "scores differ", "rulings": [], "deviation": false}]})";
  std::ofstream(dir + "/twice.json") << head << c0 << ", " << c0bad << "]}";
  std::ofstream(dir + "/once.json") << head << c0 << "]}";
  std::ofstream(dir + "/kind.json") << head << R"({"case": 0, "kind": "legl", "source": "s",
"expansions": "base", "findings": []}]})";
  for (const auto& [files, want] : std::vector<std::pair<std::string, std::string>>{
           {"twice.json", "twice.json: /cases/1: case 0 of this run is given twice (first at "},
           {"once.json " + dir + "/once.json",
            "once.json: /cases/0: case 0 of this run is given twice (first at "},
           {"kind.json",
            "/cases/0/kind: expected legal, apply or final_score, found the string "
            "\"legl\""}}) {
    const std::string err = dir + "/stderr";
    Result r = Sh(kCarc + " conform merge --db " + dir + "/db.sqlite " + dir + "/" + files, err);
    EXPECT_EQ(r.code, 65) << files;
    EXPECT_NE(Slurp(err).find(want), std::string::npos) << Slurp(err);
  }
  // Once, it merges (and merging it again later replaces its rows, as documented).
  for (int k = 0; k < 2; ++k) {
    Result r = Sh(kCarc + " conform merge --db " + dir + "/db.sqlite " + dir + "/once.json",
                  dir + "/stderr");
    EXPECT_EQ(r.code, 0) << Slurp(dir + "/stderr");
  }
}

// A report's cases are read as the checker writes them: a query skipped and checked at once (its
// findings were dropped unread, stored as skipped), an empty reason, a field or category the
// checker never writes, a ruling named twice in one finding (a group of its own for one rule).
TEST(ConformMerge, ASkippedCaseWithFindingsOrAnUnknownCategoryIsRefused) {
  const std::string dir = Scratch() + "/merge_cases";
  std::filesystem::create_directories(dir);
  const std::string head =
      R"({"run": {"engine": "e", "hello": "0123456789abcdef", "seed": 1, "random": 0, "cases": 1, "suite": "fedcba9876543210"},
"shard": {"k": 1, "n": 1}, "cases": [{"case": 0, "kind": "legal", "source": "s", "expansions": "base", )";
  const std::string finding =
      R"({"category": "scores differ", "rulings": ["BASE-SCORE-CITY"], "deviation": false})";
  for (
      const auto& [c, want] : std::vector<std::pair<std::string, std::string>>{
          {R"("skipped": "expansion gifts", "findings": [)" + finding + "]",
           "/cases/0: both skipped and findings"},
          {R"("skipped": "")", "/cases/0/skipped: empty"},
          {R"("findings": [], "note": 1)", "/cases/0/note: unknown field"},
          {R"("findings": [{"category": "scores differs", "rulings": [], "deviation": false}])",
           "/cases/0/findings/0/category: unknown category the string \"scores differs\""},
          {R"("findings": [{"category": "scores differ", "rulings": ["BASE-SCORE-CITY", "BASE-SCORE-CITY"],
"deviation": false}])",
           "/cases/0/findings/0/rulings/1: ruling BASE-SCORE-CITY given twice"},
          {R"("findings": [{"category": "scores differ", "rulings": [], "deviation": false, "x": 1}])",
           "/cases/0/findings/0/x: unknown field"}}) {
    std::ofstream(dir + "/r.json") << head << c << "}]}";
    const std::string err = dir + "/stderr";
    Result r = Sh(kCarc + " conform merge --db " + dir + "/db.sqlite " + dir + "/r.json", err);
    EXPECT_EQ(r.code, 65) << c;
    EXPECT_NE(Slurp(err).find(want), std::string::npos) << Slurp(err);
  }
  // Each of the checker's own shapes merges: skipped with a reason, checked with its findings.
  for (const std::string& c :
       {std::string(R"("skipped": "expansion gifts")"), R"("findings": [)" + finding + "]"}) {
    std::ofstream(dir + "/r.json") << head << c << "}]}";
    Result r =
        Sh(kCarc + " conform merge --db " + dir + "/db.sqlite " + dir + "/r.json", dir + "/stderr");
    EXPECT_EQ(r.code, 0) << c << Slurp(dir + "/stderr");
  }
}

// conform merge names what is wrong and where, not a library's type error.
TEST(ConformMerge, WrongTypesAreNamedWithTheirPointer) {
  const std::string dir = Scratch() + "/merge_types";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/r.json")
      << R"({"run": {"engine": "e", "hello": "0123456789abcdef", "seed": 1, "random": 0, "cases": 3, "suite": "fedcba9876543210"},
"shard": {"k": 1, "n": 1}, "cases": [{"case": 0, "kind": 5, "source": "s", "expansions": "base",
"findings": []}]})";
  std::ofstream(dir + "/r2.json")
      << R"({"run": {"engine": "e", "hello": "0123456789abcdef", "seed": "one", "random": 0, "cases": 3, "suite": "fedcba9876543210"},
"shard": {"k": 1, "n": 1}, "cases": []})";
  for (const auto& [file, want] : std::vector<std::pair<std::string, std::string>>{
           {"r.json", "/cases/0/kind: expected a string, found 5"},
           {"r2.json", "/run/seed: expected a count, found the string \"one\""}}) {
    const std::string err = dir + "/stderr";
    Result r = Sh(kCarc + " conform merge --db " + dir + "/db.sqlite " + dir + "/" + file, err);
    EXPECT_EQ(r.code, 65) << file;
    EXPECT_NE(Slurp(err).find(want), std::string::npos) << Slurp(err);
    EXPECT_EQ(Slurp(err).find("type_error"), std::string::npos) << Slurp(err);
  }
}

// --trace records every request and answer; --only reruns a random query by its name and finds
// the same; groups are listed largest first, and the sources list says when it is cut.
TEST(Conform, TraceOnlyAndGroupOrder) {
  const std::string trace = Scratch() + "/trace.jsonl";
  // A root with no fixtures: every query is a random one.
  const std::string root = Scratch() + "/random_only";
  std::filesystem::create_directories(root + "/fixtures");
  auto run = [&](const std::string& extra) {
    return Sh(kCarc + " conform --root " + root + " --engine \"" + kCarc +
              " engine --mutant farm-incomplete-cities\" --random 60 --seed 4 " + extra);
  };
  Result r = run("--trace " + trace + " --jobs 2");
  ASSERT_EQ(r.code, 1) << r.out.substr(0, 2000);
  json j = json::parse(r.out);
  int sent = 0, received = 0;
  std::istringstream lines(Slurp(trace));
  for (std::string line; std::getline(lines, line);) {
    json t = json::parse(line);
    sent += t.contains("sent");
    received += t.contains("received");
  }
  EXPECT_GT(sent, j["summary"]["checked"].get<int>());  // hello, queries, shrinking, quit
  EXPECT_EQ(sent, received);
  int last = 1 << 30;
  std::string random_source;
  for (const json& g : j["groups"]) {
    EXPECT_LE(g["count"].get<int>(), last);
    last = g["count"].get<int>();
    EXPECT_TRUE(g["queries_cut"].is_boolean());
    if (g["queries"].size() < 20) {
      EXPECT_FALSE(g["queries_cut"].get<bool>()) << g.dump();
    }
    for (const json& q : g["queries"])
      if (q.get<std::string>().rfind("random seed", 0) == 0) random_source = q;
  }
  ASSERT_FALSE(random_source.empty()) << r.out.substr(0, 2000);
  Result one = run("--only '" + random_source + "'");
  ASSERT_EQ(one.code, 1) << one.out.substr(0, 2000);
  json jo = json::parse(one.out);
  EXPECT_LE(jo["summary"]["queries"].get<int>(), 6);
  for (const json& g : jo["groups"]) EXPECT_EQ(g["example"]["source"], random_source);
}

}  // namespace

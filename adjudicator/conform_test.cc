// Conformance checker end to end: the reference adapter agrees with itself, every mutant is
// caught with the ruling it breaks and a small position, declared options are honoured, and
// broken engines fail cleanly with one message.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "adjudicator/conform/checker.h"
#include "adjudicator/conform/engine.h"

namespace {

namespace conform = carc::adjudicator::conform;
using nlohmann::json;
const std::string kCarc = CARC_BINARY;
const std::string kRoot = CARC_SOURCE_DIR;

struct Result {
  int code = -1;
  std::string out;
};

Result Sh(const std::string& cmd, const std::string& err = "/dev/null") {
  Result r;
  FILE* p = popen((cmd + " 2>" + err).c_str(), "r");
  std::array<char, 65536> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
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
  if (m.ruling.rfind("BASE-", 0) == 0) EXPECT_LE(players, 2u) << m.name;
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
  const std::string dir = testing::TempDir() + "/c3only";
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

// A wrong-typed answer field is an engine failure (74), with one message naming the field.
TEST(Conform, WrongTypedAnswerFieldFailsWith74) {
  const std::string dir = testing::TempDir() + "/wrongtype";
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

TEST(Conform, SilentEngineTimesOutWith74AndItsProcessGroupIsKilled) {
  const std::string pidfile = testing::TempDir() + "/sleeper.pid";
  std::filesystem::remove(pidfile);
  const std::string err = testing::TempDir() + "/timeout.err";
  Result r = Sh(kCarc + " conform --root " + kRoot +
                    " --timeout 0.5 --engine 'sleep 60 & echo $! > " + pidfile + "; wait'",
                err);
  EXPECT_EQ(r.code, 74);
  EXPECT_NE(Slurp(err).find("did not answer within 0.5 s"), std::string::npos) << Slurp(err);
  int pid = std::stoi(Slurp(pidfile));
  // The engine's child (the sleep) is gone too, or at most a zombie waiting for init.
  std::string stat = Slurp("/proc/" + std::to_string(pid) + "/stat");
  EXPECT_TRUE(stat.empty() || stat.find(") Z") != std::string::npos) << stat;
}

TEST(Conform, GarbageEngineFailsWith74) {
  Result r = Sh(kCarc + " conform --root " + kRoot + " --engine 'yes hello'");
  EXPECT_EQ(r.code, 74);
}

TEST(Conform, ExitingEngineFailsWith74AndSaysSoOnce) {
  const std::string err = testing::TempDir() + "/exit.err";
  Result r = Sh(kCarc + " conform --root " + kRoot + " --engine 'true' --format text", err);
  EXPECT_EQ(r.code, 74);
  EXPECT_EQ(r.out, "");
  std::string e = Slurp(err);
  EXPECT_NE(e.find("closed its output"), std::string::npos) << e;
  EXPECT_EQ(e.find("closed its output"), e.rfind("closed its output")) << e;
}

TEST(Conform, NoProgressWhenStderrIsNotATerminal) {
  const std::string err = testing::TempDir() + "/progress.err";
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

TEST(Export, WritesCasesWithAManifestAndRelativeSources) {
  std::string dir = testing::TempDir() + "/suite";
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

}  // namespace

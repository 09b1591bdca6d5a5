// Verdicts that argue the point in dispute: the evidence in score events and
// legality reasons, names instead of player numbers, the cited rulings quoted, claims about one
// feature, and text on a terminal. The golden verdicts are in verdict_golden_test.cc.
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include "adjudicator/adjudicate.h"
#include "adjudicator/rulings_catalog.h"
#include "adjudicator/test_scratch.h"
#include "adjudicator/verdict_text.h"
#include "model/core/position_io.h"

namespace carc::adjudicator {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kRoot = CARC_SOURCE_DIR;
const std::string kCarc = CARC_BINARY;

std::string Fixture(const std::string& rel) { return kRoot + "/fixtures/" + rel; }

json Load(const std::string& path) {
  auto j = model::ReadJsonFile(path);
  EXPECT_TRUE(j.ok()) << path;
  return j.ok() ? *j : json();
}

// Runs a command line; stdout and the exit code.
std::pair<int, std::string> Shell(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// A position file written from a fixture with the question replaced.
std::string WithQuestion(const std::string& fixture, const json& question,
                         const std::string& name) {
  json doc = Load(Fixture(fixture));
  doc["question"] = question;
  std::string path =
      ::carc::testing_support::ScratchDir("verdict_test") + "/" + name + ".position.json";
  std::ofstream(path) << doc.dump(2);
  return path;
}

// --- names, never numbers ------------------------------------------------------------------

TEST(Names, NamePlayersReplacesNumbersOfKnownPlayersOnly) {
  json r = {{"actions",
             {{{"description", "a figure of player 1 and player 0"},
               {"action", {{"note", "player 1"}}}}}},
            {"violations", {{{"text", "no player 7"}}}}};
  NamePlayers(r, {"Anna", "Ben"});
  EXPECT_EQ(r["actions"][0]["description"], "a figure of Ben and Anna");
  EXPECT_EQ(r["actions"][0]["action"]["note"], "player 1");  // the echoed input stays
  EXPECT_EQ(r["violations"][0]["text"], "no player 7");      // no such player: no name
}

// Every fixture's verdict, as text and as JSON (without the echoed position), names its players:
// no "player N" although every player has a name (position files default to P0, P1, ...), and no
// "citys"; a figure placed or standing is named by its role ("place a thief", not "place meeple";
// "Anna's knight at", not "Anna's meeple at"), and a pass
// says what it declined (no "pass: declines step <name>", the fallback for a step not tabled).
TEST(Names, VerdictTextsNamePlayersRolesAndWhatAPassDeclined) {
  static const std::regex kNumbered("\\bplayer [0-9]+\\b");
  // "the meeple on city:N of the tile at ...", "the phantom on road:EW ...": a kind, not a role.
  static const std::regex kKindOnFeature(
      "\\b(meeple|phantom) on (road:|city:|field:|monastery of)");
  int checked = 0;
  for (const auto& e : fs::recursive_directory_iterator(kRoot + "/fixtures")) {
    const std::string p = e.path().string();
    if (p.size() < 14 || p.substr(p.size() - 14) != ".position.json") continue;
    const json spec = Load(p.substr(0, p.size() - 14) + ".ruling.json");
    Options opts;
    const std::string mode = spec.value("mode", "adjudicate");
    opts.mode = mode == "validate" ? Mode::kValidate
                : mode == "legal"  ? Mode::kLegal
                : mode == "score"  ? Mode::kScore
                                   : Mode::kAdjudicate;
    Outcome o = RunFile(p, opts);
    if (!o.error.empty()) continue;  // input errors name the JSON location, not a player
    json r = o.ruling;
    r.erase("position");
    const std::string text = RulingText(o.ruling) + r.dump();
    std::smatch m;
    EXPECT_FALSE(std::regex_search(text, m, kNumbered)) << p << ": " << m.str(0);
    EXPECT_EQ(text.find("citys"), std::string::npos) << p;
    EXPECT_EQ(text.find("place meeple"), std::string::npos) << p;
    // A figure on the board is named by its role there ("Anna's knight at (0, 0)", "the thief
    // on road:EW"), in every sentence: its feature always gives one.
    EXPECT_EQ(text.find("'s meeple at ("), std::string::npos) << p;
    EXPECT_FALSE(std::regex_search(text, m, kKindOnFeature)) << p << ": " << m.str(0);
    EXPECT_EQ(text.find("pass: declines step"), std::string::npos) << p;
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

// The core's reasons name the figure met and the tiles the feature runs through
// (BASE-MEEPLE-FREE): Anna's thief on D's road at (0,0); Ben's U at (2,0) continues that road
// through U at (1,0) (f02's hand calculation).
TEST(Evidence, OccupiedRoadNamesTheFigureAndTheTiles) {
  Outcome o = RunFile(Fixture("base/figures/f02_road_claimed_two_tiles_away.position.json"), {});
  ASSERT_TRUE(o.error.empty()) << o.error;
  const std::string text = RulingText(o.ruling);
  EXPECT_NE(text.find("already holds Anna's thief at (0, 0)"), std::string::npos) << text;
  EXPECT_EQ(text.find("player 0"), std::string::npos) << text;
}

// --- the rulings inline --------------------------------------------------------------------

TEST(Rulings, EveryCitedRulingIsQuotedInJsonAndText) {
  Outcome o = RunFile(Fixture("base/disputes/d04_tie_half_points.position.json"), {});
  ASSERT_TRUE(o.error.empty()) << o.error;
  const json& r = o.ruling;
  ASSERT_TRUE(r.contains("rulings"));
  const std::string text = RulingText(r);
  ASSERT_FALSE(r["cited"].empty());
  for (const json& id : r["cited"]) {
    const std::string k = id.get<std::string>();
    ASSERT_TRUE(r["rulings"].contains(k)) << k;
    const json& q = r["rulings"][k];
    for (const char* key : {"title", "summary", "source", "status"})
      EXPECT_FALSE(q.value(key, "").empty()) << k << " has no " << key;
    // The text ends with each ruling's title (after the verdict's own lines).
    const size_t at = text.find("\n  " + k + ": " + q.value("title", "") + " (");
    EXPECT_NE(at, std::string::npos) << k << "\n" << text;
    EXPECT_GT(at, text.find("Rulings:\n")) << k;
  }
  // The summary of the ruling that decides the dispute (ties pay in full) is in the text.
  const auto& all = EmbeddedRulings();
  ASSERT_TRUE(all.count("BASE-MAJORITY"));
  EXPECT_EQ(r["rulings"]["BASE-MAJORITY"]["title"], all.at("BASE-MAJORITY").title);
}

// The ruling texts are compiled in: the binary quotes them from any working folder.
TEST(Rulings, QuotedFromAnyFolder) {
  auto [code, out] =
      Shell("cd / && " + kCarc + " adjudicate " +
            Fixture("base/disputes/d04_tie_half_points.position.json") + " 2>/dev/null");
  EXPECT_EQ(code, 1);
  json r = json::parse(out, nullptr, false);
  ASSERT_FALSE(r.is_discarded()) << out.substr(0, 300);
  EXPECT_FALSE(r["rulings"]["BASE-MAJORITY"].value("summary", "").empty());
}

// --- text on a terminal, JSON when piped ---------------------------------------------------

// Runs carc with its stdout on a pseudo-terminal; returns what it printed.
std::string OnTerminal(const std::string& args) {
  int master = -1;
  pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    std::string cmd = kCarc + " " + args;
    execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  std::string out;
  std::array<char, 4096> buf{};
  ssize_t n;
  while ((n = read(master, buf.data(), buf.size())) > 0) out.append(buf.data(), n);
  int status = 0;
  waitpid(pid, &status, 0);
  close(master);
  return out;
}

TEST(Format, TextOnATerminalJsonWhenPiped) {
  const std::string file = Fixture("base/disputes/d04_tie_half_points.position.json");
  const std::string tty = OnTerminal("adjudicate " + file + " 2>/dev/null");
  EXPECT_NE(tty.find("Verdict:  rejected"), std::string::npos) << tty.substr(0, 300);
  EXPECT_NE(tty.find("Rulings:"), std::string::npos);
  // --format json on a terminal is JSON.
  const std::string tty_json = OnTerminal("adjudicate " + file + " --format json 2>/dev/null");
  EXPECT_EQ(tty_json.substr(0, 1), "{") << tty_json.substr(0, 300);
  // Piped: JSON, as scripts read it.
  auto [code, piped] = Shell(kCarc + " adjudicate " + file + " 2>/dev/null");
  EXPECT_EQ(code, 1);
  EXPECT_FALSE(json::parse(piped, nullptr, false).is_discarded()) << piped.substr(0, 300);
}

// --- claims about one feature --------------------------------------------------------------

// d04: U at (1,0) completes the road (-1,0)..(2,0) of 4 tiles with one thief each of Anna and
// Ben: each scores the full 4 (BASE-SCORE-ROAD, BASE-MAJORITY).
json D04Question(json events) {
  return {{"ask", "apply"},
          {"actions",
           {{{"type", "place_tile"}, {"x", 1}, {"y", 0}, {"rotation", 0}, {"tile", "U"}},
            {{"type", "pass"}}}},
          {"claim", {{"events", std::move(events)}}}};
}

TEST(Claim, EventOfOneFeatureUpheld) {
  std::string path = WithQuestion(
      "base/disputes/d04_tie_half_points.position.json",
      D04Question({{{"feature", "road"}, {"at", {0, 0}}, {"points", 4}, {"to", {"Ben", "Anna"}}}}),
      "claim_upheld");
  Outcome o = RunFile(path, {});
  ASSERT_TRUE(o.error.empty()) << o.error;
  EXPECT_EQ(o.exit_code, 0);
  EXPECT_EQ(o.ruling["verdict"], "upheld");
  EXPECT_TRUE(o.ruling["claim"]["upheld"].get<bool>());
}

TEST(Claim, EventWithTheWrongPointsRejectedSayingWhatTheRulesGive) {
  // Anna's claim of half points: 2 each. The road's tiles are given from end to end.
  std::string path = WithQuestion(
      "base/disputes/d04_tie_half_points.position.json",
      D04Question({{{"feature", "road"}, {"points", 2}, {"to", {"Anna", "Ben"}}}}), "claim_half");
  Outcome o = RunFile(path, {});
  ASSERT_TRUE(o.error.empty()) << o.error;
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.ruling["verdict"], "rejected");
  ASSERT_EQ(o.ruling["claim"]["differences"].size(), 1u);
  EXPECT_EQ(o.ruling["claim"]["differences"][0],
            "claimed road worth 2 to [\"Anna\",\"Ben\"], but the rules give road (completed) on "
            "[[-1,0],[0,0],[1,0],[2,0]]: 4 to [\"Anna\",\"Ben\"] = 1 x 4 tiles");
}

TEST(Claim, EventOfAFeatureNotScoredRejected) {
  // Only the road is completed; no city scores.
  std::string path =
      WithQuestion("base/disputes/d04_tie_half_points.position.json",
                   D04Question({{{"feature", "city"}, {"points", 4}}}), "claim_city");
  Outcome o = RunFile(path, {});
  ASSERT_TRUE(o.error.empty()) << o.error;
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.ruling["claim"]["differences"][0],
            "claimed city worth 4, but no such city is scored");
}

TEST(Claim, MalformedEventsNameTheJsonLocation) {
  struct Case {
    json events;
    std::string where;
  };
  for (const Case& c : std::vector<Case>{
           {json::array(), "/question/claim/events: expected a non-empty array"},
           {{{{"feature", "castle"}, {"points", 1}}}, "/question/claim/events/0/feature"},
           {{{{"feature", "road"}, {"to", {"Zed"}}}}, "/question/claim/events/0/to/0"},
           {{{{"feature", "road"}, {"points", "4"}}}, "/question/claim/events/0/points"},
           {{{{"feature", "road"}}}, "/question/claim/events/0: states neither"},
           {{{{"feature", "road"}, {"points", 4}, {"who", 1}}}, "/question/claim/events/0/who"},
       }) {
    std::string path = WithQuestion("base/disputes/d04_tie_half_points.position.json",
                                    D04Question(c.events), "claim_bad");
    Outcome o = RunFile(path, {});
    EXPECT_EQ(o.exit_code, 65) << c.events.dump();
    EXPECT_NE(o.error.find(path + ":" + c.where), std::string::npos) << o.error;
  }
}

}  // namespace
}  // namespace carc::adjudicator

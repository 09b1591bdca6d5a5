// Corruption properties: a legal position corrupted in one targeted way is rejected by
// `carc validate` with exactly the corruption's ruling IDs (exit 2), or as malformed (exit 65,
// the message naming the JSON location) when it cannot even be read.
#include <gtest/gtest.h>

#include <set>

#include "adjudicator/adjudicate.h"
#include "model/core/position_io.h"
#include "property-tests/gen_corruption.h"
#include "property-tests/rc_support.h"

namespace carc::prop {
namespace {

using nlohmann::json;

// `carc validate` itself (adjudicator::RunJson), besides the model calls of CheckCorruption.
std::optional<std::string> CheckWithValidate(const Corruption& c) {
  adjudicator::Outcome o =
      adjudicator::RunJson(c.position, "corrupt.json", {adjudicator::Mode::kValidate, 0});
  if (o.exit_code != c.exit_code)
    return "carc validate exits " + std::to_string(o.exit_code) + ", expected " +
           std::to_string(c.exit_code) + " " + o.error + o.ruling.dump();
  if (c.exit_code == 65)
    return o.error.find(c.message_contains) == std::string::npos
               ? std::optional<std::string>("message lacks " + c.message_contains + ": " + o.error)
               : std::nullopt;
  std::set<std::string> got;
  for (const json& v : o.ruling["violations"]) got.insert(v["ruling"].get<std::string>());
  if (got != c.rulings) return "carc validate cites " + json(got).dump();
  return std::nullopt;
}

void ReportCorruption(const Corruption& c, const std::optional<std::string>& problem,
                      const GameSpec& spec) {
  if (!problem) return;
  Failure f{"corruption-" + c.kind, c.what + ": " + *problem, c.position, json()};
  Report(f, spec);
}

std::vector<std::vector<std::string>> CombosFor(const CorruptionKind& k) {
  std::vector<std::vector<std::string>> out;
  for (const auto& c : ExpansionCombinations()) {
    bool ok = true;
    for (const auto& r : k.needs) ok &= std::find(c.begin(), c.end(), r) != c.end();
    if (ok) out.push_back(c);
  }
  // A kind of an expansion whose games are not yet covered by the game properties (see
  // kCovered in gen_game.cc) still runs, on games of that expansion alone.
  if (out.empty()) out.push_back(k.needs);
  return out;
}

// One property per corruption kind: a random legal position (any step of a random game of an
// expansion combination the kind needs), corrupted, is rejected with exactly the kind's ruling.
void CorruptionIsRejected(const std::string& name) {
  const CorruptionKind& kind = *FindCorruption(name);
  const GameSpec spec = *GenSpec(CombosFor(kind));
  const int step = *GenStep();
  const uint64_t seed = *rc::gen::arbitrary<uint32_t>();
  const Game g = PlayOrFail(spec);
  const int n = g.decisions() + 1;  // the game's positions and its end
  const model::Position& pos = step % n == g.decisions() ? g.final_pos : g.before[step % n];
  std::mt19937_64 rng(seed);
  auto c = kind.make(pos, model::DumpPosition(pos), rng);
  RC_PRE(c.has_value());  // e.g. no completed city in this position
  ReportCorruption(*c, CheckCorruption(*c), spec);
  ReportCorruption(*c, CheckWithValidate(*c), spec);
}

#define CARC_CORRUPTION_PROP(Name, kind) \
  RC_GTEST_PROP(Corruption, Name, ()) { CorruptionIsRejected(kind); }

CARC_CORRUPTION_PROP(MismatchedEdgeIsPlaceEdge, "mismatched-edge")
CARC_CORRUPTION_PROP(DetachedTileIsPlaceAdj, "detached-tile")
CARC_CORRUPTION_PROP(OverlapIsMalformedAtBoard, "overlap")
CARC_CORRUPTION_PROP(FigureOnMissingFeatureIsMalformed, "figure-on-missing-feature")
CARC_CORRUPTION_PROP(TooManyCopiesIsSetup, "too-many-copies")
CARC_CORRUPTION_PROP(TooManyMeeplesIsMeepleSupply, "too-many-meeples")
CARC_CORRUPTION_PROP(FigureOnCompletedCityIsReturn, "figure-on-completed-city")
CARC_CORRUPTION_PROP(NegativeScoreIsTrack, "negative-score")
CARC_CORRUPTION_PROP(TwoPhantomsIsPhSetup, "two-phantoms")
CARC_CORRUPTION_PROP(PhantomOnMeepleIsMeepleFree, "phantom-on-meeple")
CARC_CORRUPTION_PROP(TracksOffScoreIsMsgChoose, "tracks-off-score")
CARC_CORRUPTION_PROP(MessageInHandIsMsgResolve, "message-in-hand")
CARC_CORRUPTION_PROP(GiftCardCountIsGiftSetup, "gift-card-count")
CARC_CORRUPTION_PROP(XmasThirdCopyIsXmasSetup, "xmas-third-copy")
CARC_CORRUPTION_PROP(XmasHandOverLimitIsXmasHand, "xmas-hand-over-limit")

// Every kind of the table, with the property above that runs it. A kind added to the table
// needs its line here and its CARC_CORRUPTION_PROP line.
const std::set<std::string> kKindsWithAProperty = {
    "mismatched-edge",           "detached-tile",    "overlap",
    "figure-on-missing-feature", "too-many-copies",  "too-many-meeples",
    "figure-on-completed-city",  "negative-score",   "two-phantoms",
    "phantom-on-meeple",         "tracks-off-score", "message-in-hand",
    "gift-card-count",           "xmas-third-copy",  "xmas-hand-over-limit"};

TEST(Corruption, EveryKindHasAProperty) {
  std::set<std::string> table;
  for (const CorruptionKind& k : CorruptionKinds()) table.insert(k.name);
  EXPECT_EQ(table, kKindsWithAProperty);
  EXPECT_EQ(CorruptionKinds().size(), kKindsWithAProperty.size());
  // Every covered expansion has at least one kind of its own ("an impossible message, gift or
  // card state").
  for (const std::string& id : CoveredExpansions()) {
    bool own = false;
    for (const CorruptionKind& k : CorruptionKinds())
      own |= std::find(k.needs.begin(), k.needs.end(), id) != k.needs.end();
    EXPECT_TRUE(own) << id << " has no corruption kind of its own";
  }
}

// Each corruption kind is proven to be caught: deterministic games (fixed seed), at least 10
// instances of every kind, each rejected with exactly its ruling by `carc validate`.
TEST(Corruption, EveryKindIsCaught) {
  std::mt19937_64 rng(20240607);
  for (const CorruptionKind& kind : CorruptionKinds()) {
    int caught = 0, tried = 0;
    for (int game = 0; game < 200 && caught < 20; ++game) {
      const auto combos = CombosFor(kind);
      GameSpec spec = RandomSpec(rng, combos[game % combos.size()]);
      Game g = Playout(spec);
      ASSERT_TRUE(g.error.empty()) << g.error;
      for (int i = 0; i < 6; ++i) {
        const int k = std::uniform_int_distribution<int>(g.decisions() / 2, g.decisions())(rng);
        const model::Position& pos = k == g.decisions() ? g.final_pos : g.before[k];
        auto c = kind.make(pos, model::DumpPosition(pos), rng);
        if (!c) continue;
        ++tried;
        auto p1 = CheckCorruption(*c);
        auto p2 = CheckWithValidate(*c);
        EXPECT_FALSE(p1) << kind.name << ": " << c->what << ": " << *p1 << "\n"
                         << c->position.dump();
        EXPECT_FALSE(p2) << kind.name << ": " << c->what << ": " << *p2;
        if (!p1 && !p2) ++caught;
        if (p1 || p2) return;
      }
    }
    EXPECT_GE(caught, 10) << kind.name << ": only " << caught << " of " << tried
                          << " instances caught";
    std::cout << kind.name << ": " << caught << " instances rejected with exactly their ruling\n";
  }
}

}  // namespace
}  // namespace carc::prop

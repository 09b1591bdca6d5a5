// A fifth expansion in a test: everything a module adds is declared in its Load, so a
// new module is its own code plus one line in a registry (here a test-only registry next to the
// real modules). The toy "bell" module adds a figure kind placed at a step of its own after the
// meeple step, one action ("ring": a feature and a count) and a slice with a JSON codec.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "model/core/json_reader.h"
#include "model/core/position.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "model/render/svg.h"
#include "property-tests/brute_force.h"

namespace carc::exp {
namespace {

using model::Action;
using model::ApplyResult;
using model::Position;
using nlohmann::json;

class BellStep final : public model::Step {
 public:
  std::string_view Name() const override { return "place_bell"; }
  bool NeedsDecision(const Position&) const override { return false; }
  void Legal(const Position&, std::vector<Action>&) const override {}
  bool Handles(const Position&, const Action&) const override { return false; }
  ApplyResult Apply(Position&, const Action&) const override { return {}; }
  model::Reason OutOfStep(const Position&, const Action&) const override {
    return {"BASE-SCORE-TIMING", "the bell step takes no decision"};
  }
};

struct BellState final : model::ExpansionState {
  int rung = 0;
  std::unique_ptr<model::ExpansionState> Clone() const override {
    return std::make_unique<BellState>(*this);
  }
  bool Equals(const model::ExpansionState& o) const override {
    return rung == static_cast<const BellState&>(o).rung;
  }
};

// The ring action's arguments, read and written through typed slots (model::ActionArg).
inline constexpr model::ActionArg<int> kAtArg{0};
inline constexpr model::ActionArg<int> kTimesArg{1};

class Bell final : public model::Expansion {
 public:
  Bell() : Expansion("bell", /*slot=*/4) {}
  void Load(model::ModuleLoader& loader) const override {
    loader.AddFigure({"bell",
                      /*per_player=*/1,
                      /*strength=*/0,
                      "BASE-MEEPLE-SUPPLY",
                      {.follower = false, .counts_for_majority = false, .own_step = "place_bell"},
                      // Its picture: a disc with a gold ring, and a line in the picture's key.
                      {.shape = model::FigureArt::Shape::kDisc,
                       .look = "bell",
                       .css = "stroke:#b8860b;stroke-width:2.5",
                       .key = "gold ring: a bell"}});
    static const BellStep step;
    loader.AddStep(model::kPlaceFigure, model::Place::kAfter, &step);
    loader.SetState({[] { return std::make_unique<BellState>(); },
                     [this](const json& j, const std::string& where, Position& pos) {
                       if (auto s = model::CheckKeys(j, where, {"rung"}); !s.ok()) return s;
                       auto n = model::ReadInt(j.value("rung", json(0)), where + "/rung", 0, 9);
                       if (!n.ok()) return n.status();
                       static_cast<BellState*>(pos.slice(this))->rung = *n;
                       return model::Status::Ok();
                     },
                     [this](const Position& pos, json& j) {
                       const int n = static_cast<const BellState*>(pos.slice(this))->rung;
                       if (n) j["rung"] = n;
                     }});
    loader.AddAction(
        {.type = "ring",
         .code = 1,
         .args = {{"at", model::ArgType::kFeature},
                  {.key = "times", .type = model::ArgType::kInt, .lo = 1, .hi = 3}},
         .summary = "ring the bell on a feature",
         .parse = [this](const json& j, const Position& pos,
                         const std::string& where) -> model::StatusOr<Action> {
           if (auto s = model::CheckKeys(j, where, {"at", "times"}, true); !s.ok()) return s;
           auto node = model::ReadFeatureRef(j.value("at", json()), pos, where + "/at");
           if (!node.ok()) return node.status();
           auto times = model::ReadInt(j.value("times", json()), where + "/times", 1, 3);
           if (!times.ok()) return times.status();
           Action a{.type = model::ActionType::kExpansion, .expansion = this, .code = 1};
           kAtArg.Set(a, *node);
           kTimesArg.Set(a, *times);
           return a;
         },
         .dump =
             [](const Position& pos, const Action& a, json& j) {
               j["times"] = kTimesArg(a), j["at"] = model::FeatureRefJson(pos, kAtArg(a));
             },
         .describe =
             [](const Position& pos, const Action& a) {
               return "ring the bell " + model::Plural(kTimesArg(a), "time") + " on " +
                      model::FeatureAt(pos, kAtArg(a));
             }});
  }
};

const Bell kBell;

// The test-only registry: the four real modules and one line for the toy.
std::vector<const model::Expansion*> Registry() {
  std::vector<const model::Expansion*> all = All();
  all.push_back(&kBell);
  return all;
}

model::IoContext Ctx() {
  model::IoContext ctx;
  ctx.source = "toy";
  ctx.lookup = [](std::string_view id) -> const model::Expansion* {
    for (const model::Expansion* e : Registry())
      if (e->Id() == id) return e;
    return nullptr;
  };
  ctx.known = [] {
    std::vector<std::string> ids;
    for (const model::Expansion* e : Registry()) ids.emplace_back(e->Id());
    return ids;
  };
  return ctx;
}

json Doc() {
  return json::parse(R"({"rules": {"edition": "C3", "expansions": ["phantom", "bell"]},
    "players": [{"name": "Anna"}, {"name": "Ben"}],
    "board": [{"tile": "D", "x": 0, "y": 0, "rotation": 0}],
    "supply": {"draw_order": ["E"]}, "turn": {"player": 0, "step": "draw"},
    "expansions": {"bell": {"rung": 2}}})");
}

TEST(ToyModule, ItsDeclarationsAssembleWithTheRealModules) {
  auto pos = model::ParsePosition(Doc(), Ctx());
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  const model::GameConfig& cfg = pos->cfg();
  // Steps: kAfter goes right after the anchor, so the bell's step (registered later) comes
  // before Phantom's, which also follows place_figure (with its reuse step, anchored before it).
  std::vector<std::string> names;
  for (const model::Step* s : cfg.pipeline) names.emplace_back(s->Name());
  EXPECT_EQ(names, (std::vector<std::string>{
                       "draw", "phantom_at_draw", "place_tile", "place_figure", "place_bell",
                       "phantom_reuse", "place_phantom", "score", "phantom_end_turn", "end_turn"}));
  EXPECT_EQ(cfg.StepOwner(4), &kBell);
  // Figures: meeple, phantom, bell, with the traits other modules ask.
  ASSERT_EQ(cfg.figure_kinds.size(), 3u);
  EXPECT_EQ(cfg.figure_kinds[2].name, "bell");
  EXPECT_FALSE(cfg.figure_kinds[2].traits.follower);
  EXPECT_TRUE(cfg.figure_kinds[1].traits.follower);
  EXPECT_EQ(cfg.figure_kinds[1].traits.own_step, "place_phantom");
  // Hooks: the bell declared none; Phantom only JudgeOutOfStep.
  EXPECT_TRUE(cfg.hooks.validate.empty());
  ASSERT_EQ(cfg.hooks.judge_out_of_step.size(), 1u);
  EXPECT_EQ(cfg.hooks.judge_out_of_step[0].module->Id(), "phantom");
  // The slice round-trips through the declared codec.
  EXPECT_EQ(model::DumpPosition(*pos)["expansions"]["bell"]["rung"], 2);
}

TEST(ToyModule, ItsActionIsReadWrittenAndDescribedByTheCore) {
  auto pos = model::ParsePosition(Doc(), Ctx());
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  const json ring = {
      {"type", "ring"}, {"at", {{"x", 0}, {"y", 0}, {"feature", "city:N"}}}, {"times", 2}};
  auto a = model::ParseAction(ring, *pos, "/question/actions/0", Ctx());
  ASSERT_TRUE(a.ok()) << a.status().message();
  EXPECT_EQ(a->expansion, &kBell);
  EXPECT_EQ(model::DumpAction(*pos, *a), ring);
  EXPECT_EQ(model::Describe(*pos, *a), "ring the bell 2 times on city:N of the tile at (0, 0)");
  // Its keys and ranges are checked by the core's reader, naming the JSON pointer.
  json bad = ring;
  bad["times"] = 5;
  auto b = model::ParseAction(bad, *pos, "/question/actions/0", Ctx());
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(),
            "toy:/question/actions/0/times: expected an integer from 1 to 3, got 5");
  bad = ring;
  bad["loud"] = true;
  b = model::ParseAction(bad, *pos, "/question/actions/0", Ctx());
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(), "toy:/question/actions/0/loud: not a field of ring");
}

// The property tests' brute force enumerates it from its declaration alone (brute_force.cc knows
// no module): "at" over the 4 segments of tile D (city N, the road, the two fields) times "times"
// over its declared range 1..3: 12 candidates, each read back by the module's own reader.
TEST(ToyModule, ItsActionIsEnumeratedFromItsDeclaration) {
  auto pos = model::ParsePosition(Doc(), Ctx());
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  const std::vector<json> cands = prop::ExpansionCandidates(*pos);
  ASSERT_EQ(cands.size(), 12u);
  std::map<int, int> per_times;
  std::set<std::string> features;
  for (const json& c : cands) {
    EXPECT_EQ(c["type"], "ring") << c.dump();
    auto a = model::ParseAction(c, *pos, "/brute", Ctx());
    ASSERT_TRUE(a.ok()) << c.dump() << ": " << a.status().message();
    EXPECT_EQ(model::DumpAction(*pos, *a), c);
    ++per_times[c["times"].get<int>()];
    features.insert(c["at"]["feature"].get<std::string>());
  }
  EXPECT_EQ(per_times, (std::map<int, int>{{1, 4}, {2, 4}, {3, 4}}));
  EXPECT_EQ(features.size(), 4u);
  EXPECT_TRUE(features.count("city:N"));
  const json ring = {
      {"type", "ring"}, {"at", {{"x", 0}, {"y", 0}, {"feature", "city:N"}}}, {"times", 2}};
  EXPECT_NE(std::find(cands.begin(), cands.end(), ring), cands.end());
}

// Its figure is drawn from its art declaration (FigureArt), render/ knowing nothing of it: a disc
// in Anna's colour (player 0: #d62728) with the initial "b", the look "bell" added to the style
// sheet after the registered modules' looks (Phantom's), and the key's line for it.
TEST(ToyModule, ItsFigureIsDrawnFromItsDeclaration) {
  json doc = Doc();
  doc["figures"] =
      json::parse(R"([{"owner": 0, "x": 0, "y": 0, "feature": "city:N", "kind": "bell"}])");
  auto pos = model::ParsePosition(doc, Ctx());
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  const std::string svg = render::RenderSvg(*pos, {});
  EXPECT_NE(svg.find(".phantom{fill-opacity:.5;stroke-width:2.2;stroke-dasharray:3 2}"
                     ".bell{stroke:#b8860b;stroke-width:2.5}</style>"),
            std::string::npos)
      << svg;
  // Named by its role on the city, as a verdict names a figure of another kind than the meeple.
  EXPECT_NE(svg.find("<title>Anna: bell knight on city:N at (0, 0)"), std::string::npos);
  EXPECT_NE(svg.find("<circle class=\"fig bell\" r=\"10\" fill=\"#d62728\"/><text x=\"-4\" "
                     "y=\"4\">b</text>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find(">gold ring: a bell</text>"), std::string::npos);
  // Without a bell on the board, the key has no line for it (the style sheet still has its look).
  auto bare = model::ParsePosition(Doc(), Ctx());
  ASSERT_TRUE(bare.ok()) << bare.status().message();
  EXPECT_EQ(render::RenderSvg(*bare, {}).find("a bell</text>"), std::string::npos);
}

// A step name already in the pipeline is refused when the config is assembled (exit 70).
class Clash final : public model::Expansion {
 public:
  Clash() : Expansion("clash", /*slot=*/5) {}
  void Load(model::ModuleLoader& loader) const override {
    static const BellStep step;  // "place_bell" again
    loader.AddStep(model::kEndTurn, model::Place::kBefore, &step);
  }
};

// A module that shares the bell's slot: it may never be enabled together with the bell.
class Twin final : public model::Expansion {
 public:
  Twin() : Expansion("twin", /*slot=*/4) {}
  void Load(model::ModuleLoader&) const override {}
};

// A module's slot leads to its own slice only: a module that is not enabled finds none, even
// where its slot is the enabled bell's.
TEST(ToyModule, ASliceIsFoundByItsModuleNotByItsSlotAlone) {
  auto pos = model::ParsePosition(Doc(), Ctx());
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  static const Twin twin;
  const auto* bell = static_cast<const BellState*>(pos->slice(&kBell));
  ASSERT_NE(bell, nullptr);
  EXPECT_EQ(bell->rung, 2);  // the file's "rung": 2
  EXPECT_EQ(pos->slice(&twin), nullptr);
  EXPECT_EQ(pos->slice(ByName("messengers")), nullptr);  // not enabled in the file
}

TEST(ToyModuleDeathTest, TwoEnabledModulesWithOneSlotAreRefusedAtAssembly) {
  static const Twin twin;
  EXPECT_EXIT(model::MakeConfig({}, {&kBell, &twin}), ::testing::ExitedWithCode(70),
              "two enabled modules with one slot");
}

TEST(ToyModuleDeathTest, DuplicateStepNameIsRefusedAtAssembly) {
  static const Clash clash;
  EXPECT_EXIT(model::MakeConfig({}, {&kBell, &clash}), ::testing::ExitedWithCode(70),
              "step \"place_bell\" twice");
}

}  // namespace
}  // namespace carc::exp

// Guards for the module structure: the assembled turn pipeline of each of the 16
// expansion combinations, step by step with the module that contributes it, must equal the
// golden file model/expansions/pipeline_golden.txt. The golden file records the pipelines as they
// were before the modules were declared (a regression guard for the refactor, not a rule
// expectation); a change to it must be deliberate and reviewed.
#include "model/expansions/registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <type_traits>

#include "model/core/position.h"
#include "model/core/position_io.h"
#include "model/expansions/christmas_present/christmas_present.h"
#include "model/expansions/gifts/gifts.h"
#include "model/expansions/messengers/messengers.h"

#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

namespace carc::exp {
namespace {

// "draw core", "place_phantom phantom", ...: each step of the pipeline and its module.
std::string Pipeline(const std::vector<const model::Expansion*>& exps) {
  auto cfg = model::MakeConfig(model::RuleOptions{}, exps);
  std::string out;
  for (size_t i = 0; i < cfg->pipeline.size(); ++i) {
    const model::Expansion* owner = cfg->StepOwner(static_cast<int>(i));
    out += std::string(cfg->pipeline[i]->Name()) + " " +
           (owner ? std::string(owner->Id()) : std::string("core")) + "\n";
  }
  return out;
}

std::string AllCombinations() {
  const auto& all = All();
  std::string out;
  for (unsigned mask = 0; mask < (1u << all.size()); ++mask) {
    std::vector<const model::Expansion*> exps;
    std::string title;
    for (size_t i = 0; i < all.size(); ++i)
      if (mask & (1u << i)) {
        exps.push_back(all[i]);
        title += (title.empty() ? "" : "+") + std::string(all[i]->Id());
      }
    out += "# " + (title.empty() ? std::string("base") : title) + "\n" + Pipeline(exps);
  }
  return out;
}

TEST(ModuleGuards, PipelineOfEveryCombinationMatchesGolden) {
  std::ifstream in(std::string(CARC_SOURCE_DIR) + "/model/expansions/pipeline_golden.txt");
  ASSERT_TRUE(in) << "missing model/expansions/pipeline_golden.txt";
  std::string golden, line;
  while (std::getline(in, line))
    if (line.rfind("//", 0) != 0) golden += line + "\n";  // "//" lines: the file's own notes
  const std::string actual = AllCombinations();
  EXPECT_EQ(actual, golden) << "assembled pipelines now:\n" << actual;
}

// Each module's slot is its place in the registry (registry.cc), and in every combination a
// configuration resolves each enabled module's slot to its own index, which Position::slices
// follows; the slots of the modules left out lead nowhere.
TEST(ModuleGuards, EachEnabledModuleFindsItsOwnSliceIndex) {
  const auto& all = All();
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i]->Slot(), static_cast<int>(i));
  for (unsigned mask = 0; mask < (1u << all.size()); ++mask) {
    std::vector<const model::Expansion*> exps;
    for (size_t i = 0; i < all.size(); ++i)
      if (mask & (1u << i)) exps.push_back(all[i]);
    auto cfg = model::MakeConfig(model::RuleOptions{}, exps);
    for (size_t i = 0; i < all.size(); ++i) {
      const auto at = std::find(exps.begin(), exps.end(), all[i]);
      const int expected = at == exps.end() ? -1 : static_cast<int>(at - exps.begin());
      const size_t slot = static_cast<size_t>(all[i]->Slot());
      EXPECT_EQ(slot < cfg->slice_of.size() ? cfg->slice_of[slot] : -1, expected)
          << all[i]->Id() << " in combination " << mask;
    }
  }
}

// with every expansion enabled no two steps share a name (a step is found by its name:
// anchors, Decided, position files).
TEST(ModuleGuards, StepNamesAreUniqueWithAllExpansions) {
  auto cfg = model::MakeConfig(model::RuleOptions{}, All());
  for (size_t i = 0; i < cfg->pipeline.size(); ++i)
    EXPECT_EQ(cfg->StepIndex(cfg->pipeline[i]->Name()), static_cast<int>(i))
        << cfg->pipeline[i]->Name() << " twice";
}

// A two-player position with module `id` enabled and `variants` in its section.
model::StatusOr<model::Position> WithVariants(std::string_view id, const nlohmann::json& v) {
  nlohmann::json j = {{"rules", {{"edition", "C3"}, {"expansions", {std::string(id)}}}},
                      {"players", {{{"name", "Ann"}}, {{"name", "Bob"}}}},
                      {"board", {{{"tile", "D"}, {"x", 0}, {"y", 0}}}},
                      {"turn", {{"player", 0}, {"step", "draw"}}},
                      {"expansions", {{std::string(id), {{"variants", v}}}}}};
  return model::ParsePosition(j, Context("test.json"));
}

// The one variant format, for every module the core reads it for: each declared
// reading, keyed by its ruling ID, is set (get) and written back only when not the adopted one;
// an unknown reading and an unknown ruling ID exit 69 listing the readings.
TEST(ModuleGuards, EveryModuleReadsVariantsByRulingId) {
  for (const model::Expansion* e : All()) {
    auto cfg = model::MakeConfig(model::RuleOptions{}, {e});
    const model::ModuleDecl& m = *cfg->Module(e);
    SCOPED_TRACE(std::string(e->Id()));
    for (const model::VariantDecl& d : m.variants) {
      std::string listed;
      for (size_t r = 0; r < d.readings.size(); ++r) {
        listed += (r ? ", " : "") + d.readings[r];
        auto pos = WithVariants(e->Id(), {{d.ruling, d.readings[r]}});
        ASSERT_TRUE(pos.ok()) << pos.status().message();
        EXPECT_EQ(d.get(*pos), static_cast<int>(r)) << d.ruling << " " << d.readings[r];
        const nlohmann::json out = model::DumpPosition(*pos)["expansions"];
        const bool written = out.contains(e->Id()) && out[e->Id()].contains("variants") &&
                             out[e->Id()]["variants"].contains(d.ruling);
        EXPECT_EQ(written, static_cast<int>(r) != d.adopted) << d.ruling << " " << d.readings[r];
        if (written) {
          EXPECT_EQ(out[e->Id()]["variants"][d.ruling], d.readings[r]);
        }
      }
      auto bad = WithVariants(e->Id(), {{d.ruling, "no-such-reading"}});
      ASSERT_FALSE(bad.ok());
      EXPECT_EQ(bad.status().code(), model::ErrorCode::kUnknownRules);
      EXPECT_NE(bad.status().message().find("(readings: " + listed + ")"), std::string::npos)
          << bad.status().message();
    }
    auto unknown = WithVariants(e->Id(), {{"NO-SUCH-RULING", "x"}});
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(unknown.status().code(), model::ErrorCode::kUnknownRules);
    for (const model::VariantDecl& d : m.variants)
      EXPECT_NE(unknown.status().message().find(d.ruling + " (" + d.readings[0]), std::string::npos)
          << unknown.status().message();
    auto not_string = WithVariants(e->Id(), {{"NO-SUCH-RULING", 1}});
    EXPECT_EQ(not_string.status().code(), model::ErrorCode::kUnknownRules);
  }
}

// Score causes are typed: compared by kind, module and code, never by spelling, and
// cheap (no heap: copied as plain bytes). The spellings are the output contract of position files
// and verdicts (each module's README), unchanged from when the cause was a string.
TEST(ModuleGuards, ScoreCausesAreTypedAndKeepTheirSpelling) {
  static_assert(std::is_trivially_copyable_v<model::ScoreCause>);
  using model::CauseName;
  using model::ScoreCause;
  EXPECT_EQ(CauseName(ScoreCause{}), "");
  EXPECT_EQ(CauseName(ScoreCause::Completed()), "completed");
  EXPECT_EQ(CauseName(ScoreCause::Final()), "final");
  // GIFT-END's points are final scoring given by The Gifts: "final", and final to every reader.
  EXPECT_EQ(CauseName(ScoreCause::Final(gifts::kId)), "final");
  EXPECT_TRUE(ScoreCause::Final(gifts::kId).IsFinal());
  EXPECT_NE(ScoreCause::Final(gifts::kId), ScoreCause::Final());
  namespace msg = messengers;
  namespace xmas = christmas_present;
  EXPECT_EQ(CauseName(msg::MakeCause(msg::Cause::kMessage)), "message");
  EXPECT_EQ(CauseName(msg::MakeCause(msg::Cause::kSeal)), "message-seal");
  EXPECT_EQ(CauseName(msg::MakeCause(msg::Cause::kFinalSum)), "messengers-final-sum");
  EXPECT_EQ(CauseName(gifts::MakeCause(gifts::Cause::kGift)), "gift");
  EXPECT_EQ(CauseName(xmas::MakeCause(xmas::Cause::kCard)), "xmas-card");
  EXPECT_EQ(CauseName(xmas::MakeCause(xmas::Cause::kEnd)), "xmas-end");
  EXPECT_EQ(CauseName(xmas::MakeCause(xmas::Cause::kDeferred)), "xmas-deferred");
  // The same code in two modules is two causes; the spelling takes no part in the comparison.
  EXPECT_NE(msg::MakeCause(msg::Cause::kMessage), gifts::MakeCause(gifts::Cause::kGift));
  EXPECT_NE(msg::MakeCause(msg::Cause::kMessage), msg::MakeCause(msg::Cause::kSeal));
  EXPECT_EQ(ScoreCause::Module(msg::kId, 1, "another spelling"), msg::MakeCause(msg::Cause::kSeal));
  EXPECT_FALSE(msg::MakeCause(msg::Cause::kFinalSum).IsFinal());
}

// A partial board (board_partial) is judged only with modules whose rules look at the placed
// tile's features alone: Phantom (PH-SCORE: placed and scored like a meeple). The Messengers
// (MSG-1/2: the smallest road or city anywhere), The Gifts (GIFT-GET: the features others hold)
// and Christmas Present (cards scoring features anywhere) look further.
TEST(ModuleGuards, OnlyPhantomDeclaresItJudgesPartialBoards) {
  for (const model::Expansion* e : All()) {
    auto cfg = model::MakeConfig(model::RuleOptions{}, {e});
    EXPECT_EQ(cfg->Module(e)->judges_partial_board, e->Id() == "phantom") << e->Id();
  }
}

}  // namespace
}  // namespace carc::exp

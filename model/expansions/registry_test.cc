// Guards for the module structure (issue 20): the assembled turn pipeline of each of the 16
// expansion combinations, step by step with the module that contributes it, must equal the
// golden file model/expansions/pipeline_golden.txt. The golden file records the pipelines as they
// were before the modules were declared (a regression guard for the refactor, not a rule
// expectation); a change to it must be deliberate and reviewed.
#include "model/expansions/registry.h"

#include <gtest/gtest.h>

#include <fstream>

#include "model/core/position.h"

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

}  // namespace
}  // namespace carc::exp

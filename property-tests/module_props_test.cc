// The property tests know every registered module: module_props.cc has one row per module of
// the registry, in registry order, so that a new module cannot be enabled in the random games
// without its corruptions, oracle exclusions and seeding being stated.

#include "property-tests/module_props.h"

#include <gtest/gtest.h>

#include "model/expansions/registry.h"

namespace carc::prop {
namespace {

TEST(ModuleProps, OneRowPerRegisteredModuleInRegistryOrder) {
  const std::vector<const model::Expansion*>& modules = exp::All();
  const std::vector<ModuleProps>& rows = ModuleTable();
  ASSERT_EQ(rows.size(), modules.size());
  for (size_t i = 0; i < modules.size(); ++i) {
    EXPECT_EQ(rows[i].module, modules[i]) << "row " << i << " is not " << modules[i]->Id();
    EXPECT_EQ(PropsOf(modules[i]->Id()), &rows[i]) << modules[i]->Id();
  }
  EXPECT_EQ(PropsOf("no-such-module"), nullptr);
}

}  // namespace
}  // namespace carc::prop

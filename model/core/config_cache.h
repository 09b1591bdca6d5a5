#pragma once
// Rule configurations shared while a scope is open (issue 21). ParsePosition assembles a
// GameConfig from the rules a file states (MakeConfig: every module's declarations, ~130 k
// instructions); the soak reads hundreds of files of one game, all with the same rules. Inside a
// SharedConfigsScope, ParsePosition on this thread hands out one configuration per (options,
// expansions): configurations are immutable and already shared by copies of a position.
//
// Only for callers whose expansions outlive the scope (the registry's, exp::All()): the cache is
// keyed by Expansion pointers, so a module created later at a dead one's address would get the
// dead one's configuration. The cache is emptied when the outermost scope closes.
#include <memory>
#include <vector>

#include "model/core/options.h"

namespace carc::model {

class Expansion;
struct GameConfig;

class SharedConfigsScope {
 public:
  SharedConfigsScope();
  ~SharedConfigsScope();
  SharedConfigsScope(const SharedConfigsScope&) = delete;
  SharedConfigsScope& operator=(const SharedConfigsScope&) = delete;
};

// MakeConfig, or inside a scope the configuration made for the same options and expansions.
std::shared_ptr<const GameConfig> SharedConfig(RuleOptions options,
                                               const std::vector<const Expansion*>& expansions);

}  // namespace carc::model

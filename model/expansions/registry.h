#pragma once
// The only list of expansions (one line each in registry.cc), in the order their steps and
// hooks run.

#include <string>
#include <string_view>
#include <vector>

#include "model/core/expansion.h"
#include "model/core/position_io.h"

namespace carc::exp {

const std::vector<const model::Expansion*>& All();
const model::Expansion* ByName(std::string_view id);
std::vector<std::string> Ids();

// An IoContext for position files that knows every registered expansion.
model::IoContext Context(std::string source);

}  // namespace carc::exp

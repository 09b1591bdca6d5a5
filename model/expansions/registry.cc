#include "model/expansions/registry.h"

#include "model/expansions/christmas_present/christmas_present.h"
#include "model/expansions/gifts/gifts.h"
#include "model/expansions/messengers/messengers.h"
#include "model/expansions/phantom/phantom.h"

namespace carc::exp {

// Each module's Expansion::Slot() is its place in this list (registry_test checks).
const std::vector<const model::Expansion*>& All() {
  static const std::vector<const model::Expansion*> all = {
      &phantom::Get(),
      &messengers::Get(),
      &gifts::Get(),
      &christmas_present::Get(),
  };
  return all;
}

const model::Expansion* ByName(std::string_view id) {
  for (const model::Expansion* e : All())
    if (e->Id() == id) return e;
  return nullptr;
}

std::vector<std::string> Ids() {
  std::vector<std::string> out;
  for (const model::Expansion* e : All()) out.emplace_back(e->Id());
  return out;
}

model::IoContext Context(std::string source) {
  model::IoContext ctx;
  ctx.source = std::move(source);
  ctx.lookup = &ByName;
  ctx.known = &Ids;
  return ctx;
}

}  // namespace carc::exp

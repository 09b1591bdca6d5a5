#pragma once
// The ruling files (database/rulings/*.json) and the fixtures that cover them.

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "model/core/status.h"

namespace carc::adjudicator {

struct RulingEntry {
  std::string id;
  std::string expansion;
  std::string status;
  std::string title;
  nlohmann::json data;
};

struct Catalog {
  std::vector<RulingEntry> rulings;
  std::map<std::string, std::set<std::string>> fixtures_by_id;  // id -> fixture paths
};

// Reads ROOT/database/rulings/*.json and ROOT/fixtures/**/*.ruling.json.
model::StatusOr<Catalog> LoadCatalog(const std::string& root);

// In scope: the base game and every registered (modelled) expansion, and not needs-expansion.
bool InScope(const RulingEntry& r);

}  // namespace carc::adjudicator

#pragma once
// Replays games recorded by JCloisterZone (.jcz, the subset described in
// fixtures/peer-games/README.md) through the model and compares the scores after every turn.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/core/status.h"

namespace carc::adjudicator {

struct JczReport {
  std::string file;
  int players = 0;
  int turns = 0;
  bool agree = true;
  std::string first_difference;  // empty when every turn agrees
  std::vector<int> final_model;
  std::vector<int> final_engine;
};

model::StatusOr<JczReport> CheckJcz(const std::string& path);
nlohmann::json JczReportJson(const JczReport& r);

}  // namespace carc::adjudicator

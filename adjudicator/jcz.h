#pragma once
// Replays games recorded by JCloisterZone (.jcz, the subset described in
// database/GAME_RECORD_FORMAT.md) through the model and compares the scores after every turn:
// the reader and the replay of `carc games import` (database/jcz_record.h, database/replay.h),
// so both commands refuse the same files with the same messages.

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

#pragma once
// The adjudication log: `carc adjudicate FILE --db DB` stores each ruling it gives (input hash,
// verdict, cited ruling IDs, model version, time); `carc db adjudications` lists them.

#include <nlohmann/json.hpp>
#include <string>

#include "database/db.h"

namespace carc::database {

struct AdjudicationEntry {
  std::string file;
  std::string input_sha256;  // of the file's bytes
  int exit_code = 0;
  nlohmann::json ruling;  // as printed by `carc adjudicate` (verdict, cited, model, ...)
};

// One transaction; returns the new adjudication_id.
StatusOr<int64_t> RecordAdjudication(Connection& conn, const AdjudicationEntry& e);

// Newest first; `input_sha256` filters when not empty.
StatusOr<nlohmann::json> ListAdjudications(Connection& conn, const std::string& input_sha256,
                                           int limit);

}  // namespace carc::database

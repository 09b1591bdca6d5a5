#pragma once
// Sharded conformance runs (`carc conform --shard K/N --report FILE`) and their merge into the
// database (`carc conform merge --db FILE REPORT...`, adjudicator/cmd_conform_merge.cc).

#include <string>
#include <vector>

#include "adjudicator/shard.h"

namespace carc::adjudicator::conform {

// Stores the queries of conform reports in the database `db` (tables conform_runs and
// conform_queries, one row per run and suite index: merging a report again replaces its rows)
// and prints, as JSON on stdout, the summary of each run the reports belong to, computed from
// every row stored for it. Returns an exit code (0, 64/65/66 for the reports, 74 database).
int MergeReports(const std::string& db, const std::vector<std::string>& reports);

}  // namespace carc::adjudicator::conform

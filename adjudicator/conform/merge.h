#pragma once
// Sharded conformance runs (`carc conform --shard K/N --report FILE`) and their merge into the
// database (`carc conform merge --db FILE REPORT...`, adjudicator/cmd_conform_merge.cc).

#include <stdexcept>
#include <string>
#include <vector>

namespace carc::adjudicator::conform {

// "K/N" with 1 <= K <= N into k, n; returns "" or the message (same words as `carc fuzz`).
inline std::string ParseShard(const std::string& s, int& k, int& n) {
  const size_t slash = s.find('/');
  try {
    size_t used = 0;
    if (slash == std::string::npos) throw std::invalid_argument(s);
    k = std::stoi(s.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument(s);
    n = std::stoi(s.substr(slash + 1), &used);
    if (used != s.size() - slash - 1) throw std::invalid_argument(s);
  } catch (const std::exception&) {
    return "--shard: expected K/N (e.g. 2/4), got \"" + s + "\"";
  }
  if (n < 1 || k < 1 || k > n) return "--shard: K/N needs 1 <= K <= N, got " + s;
  return "";
}

// Stores the queries of conform reports in the database `db` (tables conform_runs and
// conform_queries, one row per run and suite index: merging a report again replaces its rows)
// and prints, as JSON on stdout, the summary of each run the reports belong to, computed from
// every row stored for it. Returns an exit code (0, 64/65/66 for the reports, 74 database).
int MergeReports(const std::string& db, const std::vector<std::string>& reports);

}  // namespace carc::adjudicator::conform

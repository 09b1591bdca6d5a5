#pragma once
// `--shard K/N` of `carc fuzz` and `carc conform`: one parser, one wording of its errors.

#include <stdexcept>
#include <string>

namespace carc::adjudicator {

// "K/N" with 1 <= K <= N into k, n; returns "" or the message (the caller
// exits 64 with it).
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

}  // namespace carc::adjudicator

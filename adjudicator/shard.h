#pragma once
// `--shard K/N` of `carc fuzz` and `carc conform`: one parser, one wording of its errors.

#include <stdexcept>
#include <string>

namespace carc::adjudicator {

// "K/N" with 1 <= K <= N into k, n; returns "" or the message (the caller
// exits 64 with it).
inline std::string ParseShard(const std::string& s, int& k, int& n) {
  const size_t slash = s.find('/');
  // Each number in decimal as the other options are (limits.md): std::stoi alone also took
  // "01/2", " 1/2" and "+1/+2" as 1/2.
  auto decimal = [](const std::string& part) {
    if (part.empty() || (part[0] == '0' && part.size() > 1)) return false;
    for (char c : part)
      if (c < '0' || c > '9') return false;
    return true;
  };
  if (slash == std::string::npos || !decimal(s.substr(0, slash)) || !decimal(s.substr(slash + 1)))
    return "--shard: expected K/N (e.g. 2/4), got \"" + s + "\"";
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

#pragma once
// Helpers of the golden verdict tests: a fixture's (or a one-line question's) whole text
// verdict up to the quoted rulings, compared line by line.

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "adjudicator/adjudicate.h"

namespace carc::adjudicator {

inline const std::string kRoot = CARC_SOURCE_DIR;

// The text verdict of a fixture, up to the quoted rulings, lines without trailing newline.
inline std::vector<std::string> Verdict(const std::string& rel, int want_exit) {
  // A fixture's path, or a question in the one-line notation (it has a ';').
  const bool line_arg = rel.find(';') != std::string::npos;
  Outcome o = RunFile(line_arg ? rel : kRoot + "/fixtures/" + rel, {});
  EXPECT_TRUE(o.error.empty()) << o.error;
  EXPECT_EQ(o.exit_code, want_exit) << rel;
  std::vector<std::string> out;
  std::istringstream in(RulingText(o.ruling));
  for (std::string line; std::getline(in, line) && line != "Rulings:";) {
    if (line.rfind("File:     ", 0) == 0 && !line_arg)
      line = "File:     " + line.substr(10 + kRoot.size() + 10);
    out.push_back(line);
  }
  return out;
}

inline void ExpectLines(const std::vector<std::string>& got, const std::vector<std::string>& want) {
  for (size_t i = 0; i < std::max(got.size(), want.size()); ++i)
    EXPECT_EQ(i < got.size() ? got[i] : "<missing>", i < want.size() ? want[i] : "<extra>")
        << "line " << i + 1;
}

}  // namespace carc::adjudicator

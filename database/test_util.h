#pragma once
// Helpers shared by the database tests: a temporary folder removed at the end, file writing,
// and one-value queries.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "database/db.h"

namespace carc::database::testing {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "carcdb-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  std::string File(const std::string& name) const {
    return (std::filesystem::path(path_) / name).string();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline void WriteFile(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// The single integer a query returns (test SQL only; no user values).
inline int64_t QueryInt(Connection& c, const std::string& sql) {
  auto st = c.Prepare(sql);
  EXPECT_TRUE(st.ok()) << st.status().message();
  if (!st.ok()) return -1;
  auto row = st->Step();
  EXPECT_TRUE(row.ok() && *row) << sql;
  return row.ok() && *row ? st->Int(0) : -1;
}

inline std::string QueryText(Connection& c, const std::string& sql) {
  auto st = c.Prepare(sql);
  EXPECT_TRUE(st.ok()) << st.status().message();
  if (!st.ok()) return "";
  auto row = st->Step();
  EXPECT_TRUE(row.ok() && *row) << sql;
  return row.ok() && *row ? st->Text(0) : "";
}

}  // namespace carc::database::testing

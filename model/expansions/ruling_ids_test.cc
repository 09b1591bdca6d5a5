// Guard: every ruling-ID string literal in model/ ("PH-SECOND", "MSG-1", ...) is the
// id of a ruling in database/rulings/*.json, so that no verdict cites a ruling a reader cannot
// look up. Comments may name families ("XMAS-CARD-*"); only quoted literals are checked.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

namespace carc::exp {
namespace {

namespace fs = std::filesystem;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::set<std::string> KnownIds() {
  std::set<std::string> ids;
  for (const auto& f : fs::directory_iterator(fs::path(CARC_SOURCE_DIR) / "database/rulings")) {
    if (f.path().extension() != ".json") continue;
    auto j = nlohmann::json::parse(Slurp(f.path()));
    for (const auto& r : j.at("rulings")) ids.insert(r.at("id").get<std::string>());
  }
  return ids;
}

TEST(ModuleGuards, EveryRulingIdLiteralInModelExists) {
  const std::set<std::string> ids = KnownIds();
  ASSERT_GT(ids.size(), 100u);  // five files of rulings, 177 when this test was written
  const std::regex literal("\"((BASE|PH|MSG|GIFT|XMAS)-[A-Z0-9][A-Z0-9-]*)\"");
  int seen = 0;
  for (const auto& f : fs::recursive_directory_iterator(fs::path(CARC_SOURCE_DIR) / "model")) {
    const std::string ext = f.path().extension().string();
    if (ext != ".cc" && ext != ".h") continue;
    if (f.path().filename() == "ruling_ids_test.cc") continue;  // its own examples
    const std::string text = Slurp(f.path());
    for (std::sregex_iterator it(text.begin(), text.end(), literal), end; it != end; ++it) {
      ++seen;
      EXPECT_TRUE(ids.count((*it)[1].str()))
          << f.path().string() << " cites " << (*it)[1] << ", which database/rulings lacks";
    }
  }
  EXPECT_GT(seen, 100);  // the model cites rulings everywhere; a broken scan finds none
}

// The scan itself: a made-up id in a literal is caught, a family in a comment is not scanned.
TEST(ModuleGuards, RulingIdScanSeesLiteralsOnly) {
  const std::regex literal("\"((BASE|PH|MSG|GIFT|XMAS)-[A-Z0-9][A-Z0-9-]*)\"");
  const std::string code = "// XMAS-CARD-* family\nVerdict::Illegal(\"PH-NOPE\", \"x\");";
  std::smatch m;
  ASSERT_TRUE(std::regex_search(code, m, literal));
  EXPECT_EQ(m[1].str(), "PH-NOPE");
  EXPECT_FALSE(KnownIds().count("PH-NOPE"));
}

}  // namespace
}  // namespace carc::exp

// EmbeddedRuling (one ruling object parsed out of the compiled-in file text) against
// EmbeddedRulings (every file parsed whole): the same entry for every ID (start-up).
#include "adjudicator/rulings_catalog.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "adjudicator/run_carc.h"
#include "adjudicator/verdict_text.h"

namespace carc::adjudicator {
namespace {

TEST(EmbeddedRuling, SameEntryAsTheWholeFileParse) {
  const auto& all = EmbeddedRulings();
  ASSERT_GT(all.size(), 100u);
  for (const auto& [id, want] : all) {
    const RulingEntry* got = EmbeddedRuling(id);
    ASSERT_NE(got, nullptr) << id;
    EXPECT_EQ(got->id, want.id);
    EXPECT_EQ(got->expansion, want.expansion) << id;
    EXPECT_EQ(got->status, want.status) << id;
    EXPECT_EQ(got->title, want.title) << id;
    EXPECT_EQ(got->data, want.data) << id;
    EXPECT_EQ(EmbeddedRuling(id), got) << id << ": a second lookup gives the same entry";
  }
}

TEST(EmbeddedRuling, KnownRulingsAndUnknownIds) {
  // database/rulings/gifts.json ("expansion": "gifts") defines GIFT-FN9; base.json BASE-MAJORITY.
  const RulingEntry* fn9 = EmbeddedRuling("GIFT-FN9");
  ASSERT_NE(fn9, nullptr);
  EXPECT_EQ(fn9->expansion, "gifts");
  EXPECT_EQ(fn9->data["id"], "GIFT-FN9");
  const RulingEntry* majority = EmbeddedRuling("BASE-MAJORITY");
  ASSERT_NE(majority, nullptr);
  EXPECT_EQ(majority->expansion, "base");
  EXPECT_EQ(EmbeddedRuling("NO-SUCH-RULING"), nullptr);
  EXPECT_EQ(EmbeddedRuling("GIFT"), nullptr);  // a prefix of IDs, not an ID
  EXPECT_EQ(EmbeddedRuling(""), nullptr);
}

}  // namespace
}  // namespace carc::adjudicator

// The build-time quote table (rulings_index_gen.cc) against the whole-file parse: the same title,
// summary, source and status for every ID, as QuoteRulings quoted them before the table.
namespace carc::adjudicator {
namespace {

nlohmann::json QuoteFromEntry(const RulingEntry& e) {
  const nlohmann::json& d = e.data;
  std::string source;
  if (d.contains("source") && d["source"].is_object()) {
    const nlohmann::json& s = d["source"];
    source = s.value("page", "");
    if (s.contains("section") && s["section"].is_string())
      source += ", " + s["section"].get<std::string>();
    if (s.contains("footnote") && s["footnote"].is_number_integer())
      source += ", footnote " + std::to_string(s["footnote"].get<int>());
  }
  return {{"title", e.title},
          {"summary", d.value("summary", "")},
          {"source", source},
          {"status", e.status}};
}

TEST(EmbeddedQuote, SameFieldsAsTheWholeFileParse) {
  const auto& all = EmbeddedRulings();
  const size_t n = EmbeddedQuoteRows().size();
  EXPECT_EQ(n, all.size()) << "every ruling file entry has string fields today";
  for (size_t i = 1; i < n; ++i)
    EXPECT_LT(std::string_view(EmbeddedQuoteAt(i - 1).id), std::string_view(EmbeddedQuoteAt(i).id))
        << "sorted";
  nlohmann::json cited = nlohmann::json::array();
  for (const auto& [id, want] : all) {
    const auto q = FindEmbeddedQuote(id);
    ASSERT_TRUE(q.has_value()) << id;
    EXPECT_EQ(q->id, id);
    EXPECT_EQ(q->expansion, want.expansion) << id;
    EXPECT_EQ(q->status, want.status) << id;
    EXPECT_EQ(q->title, want.title) << id;
    cited.push_back(id);
  }
  // QuoteRulings (verdict_text.cc) reads the table: the same quote as from the parsed entry.
  nlohmann::json ruling = {{"cited", cited}};
  QuoteRulings(ruling);
  ASSERT_EQ(ruling["rulings"].size(), all.size());
  for (const auto& [id, want] : all) EXPECT_EQ(ruling["rulings"][id], QuoteFromEntry(want)) << id;
}

TEST(EmbeddedQuote, KnownRulingsAndUnknownIds) {
  // gifts.json: GIFT-GET "Receiving a gift", source footnote 1, section with UTF-8 letters;
  // base.json: BASE-MAJORITY "Majority and ties", section "3. Scoring: several meeples in a
  // feature", footnote null (not an integer: no footnote).
  const auto get = FindEmbeddedQuote("GIFT-GET");
  ASSERT_TRUE(get.has_value());
  EXPECT_STREQ(get->title, "Receiving a gift");
  EXPECT_STREQ(get->expansion, "gifts");
  EXPECT_EQ(get->footnote, 1);
  ASSERT_NE(get->section, nullptr);
  EXPECT_NE(std::string_view(get->section).find("(Receiving a gift)"), std::string_view::npos);
  const auto majority = FindEmbeddedQuote("BASE-MAJORITY");
  ASSERT_TRUE(majority.has_value());
  EXPECT_STREQ(majority->title, "Majority and ties");
  EXPECT_STREQ(majority->section, "3. Scoring: several meeples in a feature");
  EXPECT_EQ(majority->footnote, -1);
  EXPECT_FALSE(FindEmbeddedQuote("NO-SUCH-RULING").has_value());
  EXPECT_FALSE(FindEmbeddedQuote("GIFT").has_value());  // a prefix of IDs, not an ID
  EXPECT_FALSE(FindEmbeddedQuote("").has_value());
}

}  // namespace
}  // namespace carc::adjudicator

// LoadCatalog (`carc rulings coverage`, the fixture runner) reads the files as `carc db build`
// does: a fixture whose covers is misspelt "cover" was read as covering nothing, and its rulings
// were reported as uncovered; a misspelt link kind was passed over.
namespace carc::adjudicator {
namespace {

namespace fs = std::filesystem;

class CatalogCopy : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/carc-catalog-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    fs::create_directories(root_ / "database");
    fs::copy(fs::path(CARC_SOURCE_DIR) / "database/rulings", root_ / "database/rulings",
             fs::copy_options::recursive);
    fs::create_directories(root_ / "fixtures/base/cities");
    for (const char* ext : {".position.json", ".ruling.json"})
      fs::copy(fs::path(CARC_SOURCE_DIR) / (std::string(kFixture) + ext),
               root_ / (std::string(kFixture) + ext));
  }
  void TearDown() override { fs::remove_all(root_); }
  // Replaces the first `from` of the file with `to`; returns the file's path.
  std::string Replace(const std::string& file, const std::string& from, const std::string& to) {
    const fs::path path = root_ / file;
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    std::ofstream(path, std::ios::trunc) << text;
    return path.string();
  }
  static constexpr const char* kFixture = "fixtures/base/cities/c01_city_with_arms";
  fs::path root_;
};

TEST_F(CatalogCopy, ReadsTheCopyWithItsCovers) {
  auto cat = LoadCatalog(root_.string());
  ASSERT_TRUE(cat.ok()) << cat.status().message();
  EXPECT_GT(cat->rulings.size(), 100u);
  EXPECT_EQ(cat->fixtures_by_id.count("BASE-SCORE-CITY"), 1u);
  EXPECT_EQ(cat->fixtures_by_id.count("BASE-RETURN"), 1u);
}

TEST_F(CatalogCopy, MisspeltCoversIsRefusedNamingThePointer) {
  const std::string file =
      Replace(std::string(kFixture) + ".ruling.json", "\"covers\"", "\"cover\"");
  auto cat = LoadCatalog(root_.string());
  ASSERT_FALSE(cat.ok());
  EXPECT_EQ(cat.status().code(), model::ErrorCode::kMalformed);
  EXPECT_EQ(cat.status().message().rfind(file + ":/cover: unknown field", 0), 0u)
      << cat.status().message();
}

TEST_F(CatalogCopy, MisspeltLinkKindIsRefusedNamingThePointer) {
  const std::string file = Replace("database/rulings/phantom.json", "\"see_also\"", "\"sea_also\"");
  auto cat = LoadCatalog(root_.string());
  ASSERT_FALSE(cat.ok());
  EXPECT_EQ(cat.status().code(), model::ErrorCode::kMalformed);
  EXPECT_EQ(cat.status().message().rfind(file + ":/rulings/0/links/sea_also: unknown field", 0), 0u)
      << cat.status().message();
}

TEST_F(CatalogCopy, CoverNamedTwiceIsRefused) {
  const std::string file = Replace(std::string(kFixture) + ".ruling.json", "\"BASE-RETURN\"",
                                   "\"BASE-RETURN\", \"BASE-RETURN\"");
  auto cat = LoadCatalog(root_.string());
  ASSERT_FALSE(cat.ok());
  EXPECT_EQ(cat.status().message().rfind(file + ":/covers/2: \"BASE-RETURN\" given twice", 0), 0u)
      << cat.status().message();
}

TEST_F(CatalogCopy, CoverageCommandExits65) {
  const std::string file =
      Replace(std::string(kFixture) + ".ruling.json", "\"covers\"", "\"cover\"");
  auto r = carc::testing::Carc("rulings coverage --root '" + root_.string() + "'", true);
  EXPECT_EQ(r.code, 65) << r.out;
  EXPECT_NE(r.out.find(file + ":/cover: unknown field"), std::string::npos) << r.out;
}

TEST(Catalog, ShippedTreeLoadsEveryRulingAndCover) {
  auto cat = LoadCatalog(CARC_SOURCE_DIR);
  ASSERT_TRUE(cat.ok()) << cat.status().message();
  EXPECT_EQ(cat->rulings.size(), EmbeddedRulings().size());
  EXPECT_FALSE(cat->fixtures_by_id.empty());
}

}  // namespace
}  // namespace carc::adjudicator

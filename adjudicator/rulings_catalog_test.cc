// EmbeddedRuling (one ruling object parsed out of the compiled-in file text) against
// EmbeddedRulings (every file parsed whole): the same entry for every ID (issue 21, start-up).
#include "adjudicator/rulings_catalog.h"

#include <gtest/gtest.h>

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

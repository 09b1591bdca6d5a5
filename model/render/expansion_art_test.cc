// The expansions' state drawn beside the board: gift and Christmas cards named per player with
// the count the table sees, decks and the message stack as piles with their counts, laid-down
// figures on their side. Every expected value is worked out from the position file and the seed
// pages (000 Gifts, 002 Christmas Present, 003 The Messengers), not read from the output.
#include "model/render/expansion_art.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "model/core/position_io.h"
#include "model/core/state_picture.h"
#include "model/render/svg.h"

namespace carc::render {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kRoot = CARC_SOURCE_DIR;

json Doc(const std::string& rel) {
  auto doc = model::ReadJsonFile((kRoot / rel).string());
  EXPECT_TRUE(doc.ok()) << rel;
  return doc.ok() ? *doc : json();
}

std::string Position(const std::string& rel) {
  auto svg = RenderPositionFile(Doc(rel), rel);
  EXPECT_TRUE(svg.ok()) << svg.status().message();
  return svg.ok() ? *svg : "";
}

size_t Count(const std::string& svg, const std::string& needle) {
  size_t n = 0;
  for (size_t p = svg.find(needle); p != std::string::npos; p = svg.find(needle, p + 1)) ++n;
  return n;
}

// The words of the picture: every <text> element's content, joined by spaces, so that a legend
// line wrapped over several elements reads whole again; entities decoded.
std::string Words(const std::string& svg) {
  static const std::regex kText("<text[^>]*>([^<]*)</text>");
  std::string out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), kText); it != std::sregex_iterator();
       ++it)
    out += (*it)[1].str() + " ";
  for (auto [from, to] : {std::pair{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}})
    for (size_t p = out.find(from); p != std::string::npos; p = out.find(from, p + 1))
      out.replace(p, std::string(from).size(), to);
  return out;
}

// The tooltips of the cards drawn face up, in drawing order.
std::vector<std::string> CardTips(const std::string& svg) {
  static const std::regex kCard("<g class=\"card\"><title>([^<]*)</title>");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), kCard); it != std::sregex_iterator();
       ++it)
    out.push_back((*it)[1].str());
  return out;
}

TEST(PictureTitle, ReadableNames) {
  EXPECT_EQ(model::PictureTitle("road_sweeper"), "Road sweeper");
  EXPECT_EQ(model::PictureTitle("3-per-arms"), "3 per arms");
  EXPECT_EQ(model::PictureTitle("take_2"), "Take 2");
}

// g30: Red holds Synod, Cash Out and Take 2, Blue holds Synod; Road Sweeper is on the discards.
// No deck is stated, so the deck is the 25 cards (GIFT-SETUP) less the 4 in hands and the 1
// discarded: 20, order unknown. Gifts lie face down (GIFT-GET): the count is what the table sees.
TEST(GiftsPicture, HandsNamedPerPlayerAndTheDeckCounted) {
  const std::string svg = Position("fixtures/gifts/g30_final_unopened_gifts.position.json");
  EXPECT_EQ(CardTips(svg), (std::vector<std::string>{
                               "discarded: Road sweeper",
                               "Red's gift (face down): Synod",
                               "Red's gift (face down): Cash out",
                               "Red's gift (face down): Take 2",
                               "Blue's gift (face down): Synod",
                           }));
  EXPECT_EQ(Count(svg, ">Red: 3 gifts<"), 1u);
  EXPECT_EQ(Count(svg, ">Blue: 1 gift<"), 1u);
  EXPECT_EQ(Count(svg, ">20<"), 1u);  // the number on the deck's back
  EXPECT_EQ(Count(Words(svg), "Deck: 20 cards face down, order unknown"), 1u);
  EXPECT_EQ(Count(Words(svg), "face down (GIFT-GET): the others see how many"), 1u);
  EXPECT_EQ(Count(svg, "gifts.hands"), 0u);  // drawn, not dumped as JSON
}

// gifts/d01 states the whole deck in order: 25 cards, Synod on top; both hands empty.
TEST(GiftsPicture, DeckInKnownOrderShowsItsTop) {
  const std::string svg =
      Position("fixtures/gifts/d01_completing_blue_city_earns_gift.position.json");
  EXPECT_EQ(Count(Words(svg), "Deck: 25 cards face down; order known to the judge, top: Synod"),
            1u);
  EXPECT_EQ(Count(svg, ">Red: no gifts<"), 1u);
  EXPECT_EQ(Count(svg, ">Blue: no gifts<"), 1u);
  EXPECT_TRUE(CardTips(svg).empty());
}

// x20: Alena holds 3 points (monastery deck, lightning) and 2 per figure in supply (monastery
// deck, Carcassonne symbol: game end); Boris none. Both decks are stated empty, so the discard
// pile ("rest") holds the other 64 - 2 = 62 cards (XMAS-SETUP: 32 kinds x 2), counted in text.
TEST(ChristmasPicture, HandsNamedWithTimingMarks) {
  const std::string svg =
      Position("fixtures/christmas_present/x20_end_card_during_game_illegal.position.json");
  EXPECT_EQ(CardTips(svg),
            (std::vector<std::string>{"Alena's card (hidden): 3 points",
                                      "Alena's card (hidden): 2 per figure in supply"}));
  EXPECT_EQ(Count(svg, ">Alena: 2 cards in hand<"), 1u);
  EXPECT_EQ(Count(svg, ">Boris: no cards in hand<"), 1u);
  EXPECT_EQ(Count(svg, "fill=\"#e0a000\""), 1u);  // one lightning bolt: 3 points
  EXPECT_EQ(Count(svg, "class=\"ct\" text-anchor=\"middle\">end<"), 1u);  // one end-of-game card
  EXPECT_EQ(Count(Words(svg), "The monastery deck: empty"), 1u);
  EXPECT_EQ(Count(Words(svg), "The road deck: empty"), 1u);
  EXPECT_EQ(Count(Words(svg), "Discard pile: 62 cards"), 1u);
  // Its kinds, on the pile's tooltip: one copy of each card in Alena's hand, two of the others.
  EXPECT_EQ(Count(svg, "<title>3 points, Double road x2, City plus one x2,"), 1u);
  EXPECT_EQ(Count(svg, "Return figure x2, 2 per figure in supply, Field lead bonus x2,"), 1u);
  EXPECT_EQ(Count(Words(svg), "Hands are hidden (XMAS-HAND"), 1u);
}

// x13: the road deck holds one card, advantage field, in known order; Alena holds five cards.
TEST(ChristmasPicture, FiveCardHandAndAKnownDeck) {
  const std::string svg =
      Position("fixtures/christmas_present/x13_hand_limit_holder_discards.position.json");
  EXPECT_EQ(CardTips(svg).size(), 5u);
  EXPECT_EQ(Count(svg, "Alena's card (hidden): Cancel attack"), 2u);
  EXPECT_EQ(Count(svg, ">Alena: 5 cards in hand<"), 1u);
  EXPECT_EQ(
      Count(Words(svg),
            "The road deck: 1 card face down; order known to the judge, top: Advantage field"),
      1u);
  // Nothing is lightning or end in that hand: cancel attack, double loop road, 3 per arms and 3
  // per tile without arms are played any time in one's own turn.
  EXPECT_EQ(Count(svg, "fill=\"#e0a000\""), 0u);
}

// x90: Boris's thief stands on the road at (0, 0), a feature laid down (XMAS-FN11), its value 3
// deferred to game end (XMAS-FN12): the thief is drawn on its side.
TEST(ChristmasPicture, LaidDownFigureLies) {
  const std::string svg =
      Position("fixtures/christmas_present/x90_laid_down_figure_stays.position.json");
  const std::regex kLying(
      "rotate\\(90\\)\"><title>Boris: thief lying \\(laid down\\) on road:EW at \\(0, 0\\)");
  EXPECT_TRUE(std::regex_search(svg, kLying));
  EXPECT_EQ(Count(Words(svg), "Laid down (its figures lie, XMAS-FN11): road:EW at (0, 0)"), 1u);
  EXPECT_EQ(Count(Words(svg), "3 points for road:EW at (0, 0) to Boris, paid at game end"), 1u);
  EXPECT_EQ(Count(Words(svg), "laid down, lies"), 1u);  // the key
  EXPECT_EQ(Count(svg, "christmas_present."), 0u);
}

// x44: Alena's thief lies on the laid-down road through (0, 0); Boris's stands at (2, 0). U at
// (1, 0) joins the roads, and the lay-down belongs to the feature (XMAS-FN11): in the ruling's
// picture (after the tile) both lie.
TEST(ChristmasPicture, LayDownSpreadsWhenRoadsJoin) {
  const std::string rel = "fixtures/christmas_present/x44_lay_down_spreads_on_join.position.json";
  const std::string before = Position(rel);
  EXPECT_EQ(Count(before, "Alena: thief lying (laid down) on road:EW at (0, 0)"), 1u);
  EXPECT_EQ(Count(before, "Boris: thief on road:W at (2, 0)"), 1u);
  auto after = RenderRuling(Doc(rel), {{"question", "apply"}, {"verdict", "upheld"}}, rel);
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(Count(*after, "Alena: thief lying (laid down) on road:EW at (0, 0)"), 1u);
  EXPECT_EQ(Count(*after, "Boris: thief lying (laid down) on road:W at (2, 0)"), 1u);
}

// christmas_present/d01: Alena plays the monastery card on her monastery at (0, 1); the card
// scores it at once and its figures go back to their owners (seed 002 fn. 4 and 6). The picture,
// drawn after the actions, still shows her meeple where it stood, faded; Boris's monk at (1, 1)
// is untouched and drawn as usual.
TEST(RulingPicture, FigureReturnedByACardDrawnFaded) {
  const std::string rel =
      "fixtures/christmas_present/d01_monastery_card_counts_its_tile.position.json";
  auto svg = RenderRuling(Doc(rel), {{"question", "apply"}, {"verdict", "rejected"}}, rel);
  ASSERT_TRUE(svg.ok());
  EXPECT_EQ(Count(*svg, "<g opacity=\".4\"><g transform=\"translate("), 2u);  // figure + key
  EXPECT_EQ(Count(*svg, "Alena: monk on monastery at (0, 1), returned by the ruling"), 1u);
  EXPECT_EQ(Count(*svg, "<title>Boris: monk on monastery at (1, 1)</title>"), 1u);
  EXPECT_EQ(Count(Words(*svg), "faded: returned to its owner in the ruling"), 1u);
}

// A farmer lies in the base game too, but is no laid-down figure: who_scores_the_city has none
// laid down, so no figure says so and the key does not show.
TEST(ChristmasPicture, NoLaidDownKeyWithoutLaidDownFigures) {
  const std::string svg = Position("fixtures/examples/who_scores_the_city.position.json");
  EXPECT_EQ(Count(svg, "laid down"), 0u);
}

// v02b: seven messages on the stack in known order (knights on top: message 6, 2 points per
// knight, in the HiG numbering), message 4 (extra tile) in Anna's hand, two messages taken this
// turn part.
TEST(MessengersPicture, StackInHandAndTaken) {
  const std::string svg =
      Position("fixtures/messengers/v02b_third_message_chain_variant.position.json");
  EXPECT_EQ(Count(Words(svg),
                  "Messages: 7 messages face down; order known to the judge, top: message 6 (2 "
                  "points per knight)"),
            1u);
  EXPECT_EQ(CardTips(svg), std::vector<std::string>{"Anna holds, face up: Message 4 (extra tile)"});
  EXPECT_EQ(Count(Words(svg), "Anna (to play) 2, the others none (MSG-ACTIVE)"), 1u);
  EXPECT_EQ(Count(svg, "messengers.stack"), 0u);
}

// f43: order unknown and no message in hand, so all 8 (MSG-SETUP) lie on the stack; knights was
// used and lies under it; one message taken this turn.
TEST(MessengersPicture, UnknownStackCountsAllEight) {
  const std::string svg =
      Position("fixtures/messengers/f43_unknown_stack_used_message_not_drawn.position.json");
  EXPECT_EQ(Count(Words(svg), "Messages: 8 messages face down, order unknown"), 1u);
  EXPECT_EQ(Count(Words(svg),
                  "Used, under the stack (cannot come up first): message 6 (2 points per knight)"),
            1u);
  EXPECT_EQ(Count(Words(svg), "Anna (to play) 1, the others none"), 1u);
  EXPECT_TRUE(CardTips(svg).empty());
}

}  // namespace
}  // namespace carc::render

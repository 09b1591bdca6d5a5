// The Gifts' state beside the board (seed 000): the deck face down, the discards face up, each
// player's cards face down in front of them (GIFT-GET), this turn's gift and tiles. Gift cards
// lie face down, so at the table the others see only how many; a position file is a judge's
// statement of the table, so the picture names the cards it states, says they are hidden, and
// always shows the count the players see.
#include "model/expansions/gifts/picture.h"

#include <nlohmann/json.hpp>

#include "model/core/json_reader.h"  // Plural

namespace carc::exp::gifts {

using model::PictureCard;
using model::PictureTitle;
using model::Position;
using nlohmann::json;

namespace {

const model::CardLook kGift = {"#fbe1e5", "#b0213b"};

std::string Plural(size_t n, std::string_view word) {
  return model::Plural(static_cast<int>(n), word);
}

// Gift cards face up, `whose` starting each tooltip.
std::vector<PictureCard> GiftCards(const std::vector<std::string>& names,
                                   const std::string& whose) {
  std::vector<PictureCard> out;
  for (const std::string& n : names)
    out.push_back({.title = PictureTitle(n), .look = kGift, .tip = whose + PictureTitle(n)});
  return out;
}

// The deck, the discards and each player's gifts.
void Cards(const Position& pos, const json& s, model::StatePicture& out) {
  const json deck = s.value("deck", json());
  const std::vector<std::string> in_deck = model::CardNames(deck);
  std::string about = "Deck: " + Plural(in_deck.size(), "card") + " face down";
  if (deck.is_array() && !in_deck.empty())
    about += "; order known to the judge, top: " + PictureTitle(in_deck[0]);
  else if (!in_deck.empty())
    about += ", order unknown";
  out.Pile(static_cast<int>(in_deck.size()), kGift.stroke, about);
  const std::vector<std::string> discards = model::CardNames(s.value("discards", json()));
  if (discards.size() > 8) {
    out.Pile(static_cast<int>(discards.size()), kGift.stroke,
             "Discards: " + Plural(discards.size(), "card") + " face up",
             model::CountedCards(discards));
  } else if (!discards.empty()) {
    out.Line("Discards, face up:");
    out.Cards(GiftCards(discards, "discarded: "));
  }
  out.Line("Gifts lie face down (GIFT-GET): the others see how many; names as the file states");
  const json hands = s.value("hands", json::array());
  for (size_t p = 0; p < pos.players.size(); ++p) {
    const std::vector<std::string> hand =
        p < hands.size() ? model::CardNames(hands[p]) : std::vector<std::string>{};
    const std::string& name = pos.players[p].name;
    out.Line(name + ": " + (hand.empty() ? "no gifts" : Plural(hand.size(), "gift")));
    if (hand.size() > 8)
      out.Line("  " + model::CountedCards(hand));
    else if (!hand.empty())
      out.Cards(GiftCards(hand, name + "'s gift (face down): "));
  }
}

}  // namespace

void DescribeState(const Position& pos, const json& section, model::StatePicture& out) {
  json s = section;
  out.Heading("The Gifts");
  Cards(pos, s, out);
  json turn = s.value("turn", json::object());
  const std::string who = pos.turn.player < static_cast<int>(pos.players.size())
                              ? pos.players[pos.turn.player].name
                              : "?";
  if (turn.contains("opened"))
    out.Line(who + " opened " + PictureTitle(turn["opened"].get<std::string>()) +
             " this turn (on the discards)");
  if (turn.contains("held_tiles")) {
    std::string t;
    for (const json& e : turn["held_tiles"]) t += (t.empty() ? "" : ", ") + e.get<std::string>();
    out.Line(who + " holds tile" + (turn["held_tiles"].size() > 1 ? "s " : " ") + t);
  }
  if (turn.value("take2_drawing", false)) out.Line("Take 2: the second tile is still to be drawn");
  if (turn.contains("change_figure"))
    out.Line("Change Position: " + who + "'s " + turn["change_figure"].value("kind", "figure") +
             " on " + model::FeatureAt(turn["change_figure"]) + " moves");
  for (const char* k : {"deck", "discards", "hands", "turn"}) s.erase(k);
  model::FlattenInto(s, "gifts", out);
}

}  // namespace carc::exp::gifts

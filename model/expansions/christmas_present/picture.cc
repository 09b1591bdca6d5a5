// Christmas Present's state beside the board (seed 002): both decks face down, hidden hands of at
// most 5 (XMAS-HAND), the discard pile, cards attached to features, laid-down features
// (XMAS-FN11). Hands are hidden at the table, so the others see only how many; a position file is
// a judge's statement of the table, so the picture names the cards it states, says they are
// hidden, and always shows the count the players see.
#include "model/expansions/christmas_present/picture.h"

#include <nlohmann/json.hpp>

#include "model/core/json_reader.h"  // Plural
#include "model/expansions/christmas_present/cards.h"
#include "model/expansions/christmas_present/state.h"

namespace carc::exp::christmas_present {

using model::FeatureAt;
using model::PictureCard;
using model::PictureTitle;
using model::PlayerNameOf;
using model::Position;
using nlohmann::json;

namespace {

const model::CardLook kMonasteryCard = {"#efe3c8", "#5a3d20"};
const model::CardLook kRoadCard = {"#e6e6e6", "#555555"};

std::string Plural(size_t n, std::string_view word) {
  return model::Plural(static_cast<int>(n), word);
}

// Cards face up, each in its deck's colours with its timing at its foot (lightning: at once;
// end: at game end), `whose` starting each tooltip.
std::vector<PictureCard> FaceUp(const std::vector<std::string>& names, const std::string& whose) {
  std::vector<PictureCard> out;
  for (const std::string& n : names) {
    PictureCard c{.title = PictureTitle(n), .look = kRoadCard, .tip = whose + PictureTitle(n)};
    if (const auto card = ParseCard(n)) {
      const CardInfo& info = Info(*card);
      c.look = info.deck == Deck::kMonastery ? kMonasteryCard : kRoadCard;
      c.lightning = info.timing == Timing::kImmediate;
      if (info.timing == Timing::kEndOfGame) c.foot = "end";
    }
    out.push_back(std::move(c));
  }
  return out;
}

// The decks, the hands and the discard pile.
void Cards(const Position& pos, const json& s, model::StatePicture& out) {
  const State* st = Slice(pos);
  for (Deck d : {Deck::kMonastery, Deck::kRoad}) {
    const std::string id(DeckName(d));
    const json deck = s.value("decks", json::object()).value(id, json());
    const size_t n =
        st ? st->decks[static_cast<int>(d)].cards.size() : model::CardNames(deck).size();
    std::string about = "The " + id + " deck: " + (n ? Plural(n, "card") + " face down" : "empty");
    if (deck.is_array() && !deck.empty())
      about += "; order known to the judge, top: " + PictureTitle(deck[0].get<std::string>());
    else if (n > 0)
      about += ", order unknown";
    out.Pile(static_cast<int>(n), (d == Deck::kMonastery ? kMonasteryCard : kRoadCard).stroke,
             about);
  }
  out.Line("Hands are hidden (XMAS-HAND): the others see how many; names as the file states");
  out.Line("At a card's foot: lightning = play at once, end = game end");
  const json hands = s.value("hands", json::array());
  for (size_t p = 0; p < pos.players.size(); ++p) {
    const std::vector<std::string> hand =
        p < hands.size() ? model::CardNames(hands[p]) : std::vector<std::string>{};
    const std::string& name = pos.players[p].name;
    out.Line(name + ": " + (hand.empty() ? "no cards" : Plural(hand.size(), "card")) + " in hand");
    if (!hand.empty()) out.Cards(FaceUp(hand, name + "'s card (hidden): "));
  }
  const std::vector<std::string> discard = model::CardNames(s.value("discard", json()));
  if (discard.size() > 8) {
    out.Pile(static_cast<int>(discard.size()), kRoadCard.stroke,
             "Discard pile: " + Plural(discard.size(), "card"), model::CountedCards(discard));
  } else if (!discard.empty()) {
    out.Line("Discard pile:");
    out.Cards(FaceUp(discard, "discarded: "));
  }
}

// Cards lying on features, points deferred to the game's end, forced placements.
void OnTheBoard(const Position& pos, const json& s, model::StatePicture& out) {
  for (const json& a : s.value("attached", json::array()))
    out.Line(PlayerNameOf(pos, a.value("player", json())) + "'s " +
             PictureTitle(a.value("card", "?")) + " lies on " + FeatureAt(a) +
             " until it is scored");
  for (const json& a : s.value("laid_down", json::array()))
    out.Line("Laid down (its figures lie, XMAS-FN11): " + FeatureAt(a));
  for (const json& d : s.value("deferred", json::array())) {
    std::string to;
    for (const json& p : d.value("players", json::array()))
      to += (to.empty() ? "" : " and ") + PlayerNameOf(pos, p);
    out.Line(d.value("points", json()).dump() + " points for " + FeatureAt(d) + " to " +
             (to.empty() ? "nobody" : to) + ", paid at game end (XMAS-FN12)");
  }
  for (const json& f : s.value("forces", json::array()))
    out.Line(PlayerNameOf(pos, f.value("holder", json())) +
             "'s force placement: " + PlayerNameOf(pos, f.value("target", json())) +
             "'s next tile goes to (" + f.value("x", json()).dump() + ", " +
             f.value("y", json()).dump() + ") if it fits (XMAS-Q-FORCE)");
}

// What the turn in progress holds: an attack waiting for answers, two tiles, field choices.
void ThisTurn(const Position& pos, const json& s, model::StatePicture& out) {
  if (s.contains("pending_attack")) {
    const json& pa = s["pending_attack"];
    std::string waiting;
    for (const json& p : pa.value("waiting", json::array()))
      waiting += (waiting.empty() ? "" : ", ") + PlayerNameOf(pos, p);
    const json& act = pa.value("action", json::object());
    out.Line("Attack waiting: " + PlayerNameOf(pos, act.value("player", json())) + " plays " +
             PictureTitle(act.value("card", "?")) + "; " + waiting +
             " may answer with Cancel attack (XMAS-FN8)");
  }
  if (s.contains("two_tiles")) {
    std::string t;
    for (const json& e : s["two_tiles"]) t += (t.empty() ? "" : ", ") + e.get<std::string>();
    out.Line("Take two tiles: " + t + " in hand, one to keep");
  }
  for (const json& f : s.value("field_choices", json::array()))
    out.Line("Advantage field: " + PlayerNameOf(pos, f.value("player", json())) +
             (f.value("none", false) ? " names no field" : " chose " + FeatureAt(f)));
  if (s.contains("card_figures_this_turn"))
    out.Line("Figures placed by cards this turn: " + s["card_figures_this_turn"].dump());
}

}  // namespace

void DescribeState(const Position& pos, const json& section, model::StatePicture& out) {
  out.Heading("Christmas Present");
  Cards(pos, section, out);
  OnTheBoard(pos, section, out);
  ThisTurn(pos, section, out);
  json rest = section;
  for (const char* k : {"decks", "hands", "discard", "attached", "laid_down", "deferred", "forces",
                        "pending_attack", "two_tiles", "field_choices", "card_figures_this_turn"})
    rest.erase(k);
  model::FlattenInto(rest, "christmas_present", out);
}

}  // namespace carc::exp::christmas_present

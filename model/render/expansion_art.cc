// The expansions' state beside the board. Hidden information follows the seed pages: gift cards
// lie face down in front of their owner (seed 000, GIFT-GET) and Christmas cards are held hidden
// in the hand (seed 002, XMAS-HAND), so at the table the others see only how many; the message
// stack lies face down (seed 003, MSG-SETUP). A position file is a judge's statement of the
// table, so the picture names the cards it states and says they are hidden, and always shows the
// count the players see.
#include "model/render/expansion_art.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "model/core/core_steps.h"   // LaidDownByExpansion
#include "model/core/json_reader.h"  // Plural
#include "model/core/position_io.h"
#include "model/expansions/christmas_present/cards.h"
#include "model/expansions/christmas_present/state.h"
#include "model/expansions/messengers/state.h"
#include "model/expansions/registry.h"
#include "model/render/svg_parts.h"
#include "model/render/tile_art.h"

namespace carc::render {

using model::Position;
using nlohmann::json;

namespace {

constexpr double kCardW = 68, kCardH = 48, kCardGap = 6;
constexpr int kCardsPerRow = 4;  // 4 x 68 + 3 x 6 = 290 px, inside the 300 px column
constexpr size_t kWrap = 40;     // characters per legend line, as svg.cc's

struct CardLook {
  const char* fill;
  const char* stroke;
};
constexpr CardLook kGift = {"#fbe1e5", "#b0213b"};
constexpr CardLook kMonasteryCard = {"#efe3c8", "#5a3d20"};
constexpr CardLook kRoadCard = {"#e6e6e6", "#555555"};
constexpr CardLook kMessage = {"#fff6d6", "#8a6d1d"};

std::string PlayerName(const Position& pos, const json& index) {
  if (!index.is_number_integer()) return index.dump();
  const int p = index.get<int>();
  return p >= 0 && p < static_cast<int>(pos.players.size()) ? pos.players[p].name : "?";
}

// "road:EW at (1, 0)" from a dumped feature reference {x, y, feature}.
std::string Where(const json& ref) {
  return ref.value("feature", "?") + " at (" + ref.value("x", json()).dump() + ", " +
         ref.value("y", json()).dump() + ")";
}

// A card's name in lines of at most 12 characters, broken at spaces (a longer word stays whole).
std::vector<std::string> CardLines(const std::string& title) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < title.size()) {
    size_t end = title.find(' ', at);
    if (end == std::string::npos) end = title.size();
    const std::string word = title.substr(at, end - at);
    if (!lines.empty() && lines.back().size() + 1 + word.size() <= 12)
      lines.back() += " " + word;
    else
      lines.push_back(word);
    at = end + 1;
  }
  return lines;
}

// The state's lines and drawings, appended in the legend column.
struct Column {
  double x;
  double& y;
  std::string svg;
  void Line(const std::string& s, const std::string& cls = "") {
    for (const std::string& part : Wrap(s, kWrap)) {
      const size_t indent = std::min(part.find_first_not_of(' '), part.size());
      svg += Text(x + (indent ? 14 : 0), y, part.substr(indent), cls);
      y += kLine;
    }
  }
  // One card, face up, its name written on it; `tag` is a timing mark (lightning, end).
  void Card(double cx, double cy, const std::string& name, CardLook look, const std::string& tag,
            const std::string& tip) {
    svg += "<g class=\"card\"><title>" + Esc(tip) + "</title><rect x=\"" + Num(cx) + "\" y=\"" +
           Num(cy) + "\" width=\"" + Num(kCardW) + "\" height=\"" + Num(kCardH) +
           "\" rx=\"4\" fill=\"" + look.fill + "\" stroke=\"" + look.stroke +
           "\" stroke-width=\"1.5\"/>\n";
    std::vector<std::string> lines = CardLines(CardTitle(name));
    double ty = cy + 12 + (3 - std::min<size_t>(lines.size(), 3)) * 5;
    for (const std::string& l : lines) {
      svg += Text(cx + kCardW / 2, ty, l, "cn", " text-anchor=\"middle\"");
      ty += 10;
    }
    // The timing symbol sits at the foot of the card, as printed (seed 002).
    if (tag == "lightning")
      svg += "<path fill=\"#e0a000\" stroke=\"#7a5200\" stroke-width=\".6\" d=\"M" +
             Num(cx + kCardW / 2 + 2) + " " + Num(cy + kCardH - 14) +
             " l-5 7 h4 l-3 6 l7 -8 h-4 l3 -5 z\"/>\n";
    else if (!tag.empty())
      svg += Text(cx + kCardW / 2, cy + kCardH - 4, tag, "ct", " text-anchor=\"middle\"");
    svg += "</g>\n";
  }
  // Cards in rows of four from the current line; y advanced past them.
  template <typename LookOf>
  void Cards(const std::vector<std::string>& names, LookOf look_of, const std::string& whose) {
    for (size_t i = 0; i < names.size(); ++i) {
      const auto [look, tag] = look_of(names[i]);
      Card(x + (i % kCardsPerRow) * (kCardW + kCardGap),
           y - 8 + (i / kCardsPerRow) * (kCardH + kCardGap), names[i], look, tag,
           whose + CardTitle(names[i]));
    }
    if (!names.empty()) y += ((names.size() - 1) / kCardsPerRow + 1) * (kCardH + kCardGap) + 6;
  }
  // A face-down pile of `count` with the count written on its back, and a line beside it.
  void Pile(int count, CardLook look, const std::string& caption, const std::string& tip = "") {
    const double px = x, py = y - 8;
    if (!tip.empty()) svg += "<g><title>" + Esc(tip) + "</title>";
    for (int k = std::min(count, 3) - 1; k >= 0; --k)
      svg += "<rect x=\"" + Num(px + 3 * k) + "\" y=\"" + Num(py + 3 * k) + "\" width=\"" +
             Num(kCardW * 0.6) + "\" height=\"" + Num(kCardH * 0.8) + "\" rx=\"3\" fill=\"" +
             look.stroke + "\" stroke=\"#fff\" stroke-width=\"1\"/>\n";
    if (count == 0)
      svg += "<rect x=\"" + Num(px) + "\" y=\"" + Num(py) + "\" width=\"" + Num(kCardW * 0.6) +
             "\" height=\"" + Num(kCardH * 0.8) + "\" rx=\"3\" fill=\"none\" stroke=\"#999\" " +
             "stroke-dasharray=\"3 2\"/>\n";
    svg += Text(px + kCardW * 0.3 + (count > 1 ? 3 : 0), py + kCardH * 0.5, std::to_string(count),
                "pc", " text-anchor=\"middle\"");
    if (!tip.empty()) svg += "</g>\n";
    const double y0 = y;
    const double save_x = x;
    x += kCardW * 0.6 + 14;
    for (const std::string& part : Wrap(caption, kWrap - 8)) {
      svg += Text(x, y, part.substr(std::min(part.find_first_not_of(' '), part.size())));
      y += kLine - 2;
    }
    x = save_x;
    y = std::max(y, y0 + kCardH * 0.8 + 4) + 6;
  }
};

// Names of an array of card names, or of a {name: count} object (an unordered pile).
std::vector<std::string> CardNames(const json& j) {
  std::vector<std::string> out;
  if (j.is_array()) {
    for (const json& e : j)
      if (e.is_string()) out.push_back(e.get<std::string>());
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      for (int k = 0; it.value().is_number_integer() && k < it.value().get<int>(); ++k)
        out.push_back(it.key());
  }
  return out;
}

// "synod x2, cash out" for a long pile; the cards themselves when at most eight.
std::string Counted(const std::vector<std::string>& names) {
  std::vector<std::pair<std::string, int>> kinds;
  for (const std::string& n : names) {
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == n; });
    if (it == kinds.end())
      kinds.push_back({n, 1});
    else
      ++it->second;
  }
  std::string v;
  for (const auto& [n, c] : kinds)
    v += (v.empty() ? "" : ", ") + CardTitle(n) + (c > 1 ? " x" + std::to_string(c) : "");
  return v;
}

// "3 cards": the core's plural, with a container's size.
std::string Plural(size_t n, std::string_view word) {
  return model::Plural(static_cast<int>(n), word);
}

// "key: value" lines of what is left of a section, nested keys joined with dots.
void Flatten(const json& j, const std::string& prefix, Column& col) {
  if (j.is_object()) {  // an empty object: nothing left to say
    for (auto it = j.begin(); it != j.end(); ++it)
      Flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), col);
    return;
  }
  std::string v = j.is_string() ? j.get<std::string>() : j.dump();
  if (!j.is_string())  // room to wrap long lists
    for (size_t p = v.find(','); p != std::string::npos; p = v.find(',', p + 2))
      v.insert(p + 1, " ");
  col.Line(prefix + ": " + v);
}

// The Gifts (seed 000): the deck face down, the discards face up, each player's cards face down
// in front of them (GIFT-GET), this turn's gift and tiles.
void Gifts(const Position& pos, json s, Column& col) {
  col.Line("The Gifts", "h");
  const json deck = s.value("deck", json());
  const std::vector<std::string> in_deck = CardNames(deck);
  std::string about = "Deck: " + Plural(in_deck.size(), "card") + " face down";
  if (deck.is_array() && !in_deck.empty())
    about += "; order known to the judge, top: " + CardTitle(in_deck[0]);
  else if (!in_deck.empty())
    about += ", order unknown";
  col.Pile(static_cast<int>(in_deck.size()), kGift, about);
  const std::vector<std::string> discards = CardNames(s.value("discards", json()));
  if (discards.size() > 8) {
    col.Pile(static_cast<int>(discards.size()), kGift,
             "Discards: " + Plural(discards.size(), "card") + " face up", Counted(discards));
  } else if (!discards.empty()) {
    col.Line("Discards, face up:");
    col.Cards(
        discards,
        [](const std::string&) {
          return std::pair{kGift, std::string()};
        },
        "discarded: ");
  }
  col.Line("Gifts lie face down (GIFT-GET): the others see how many; names as the file states");
  const json hands = s.value("hands", json::array());
  for (size_t p = 0; p < pos.players.size(); ++p) {
    const std::vector<std::string> hand =
        p < hands.size() ? CardNames(hands[p]) : std::vector<std::string>{};
    const std::string& name = pos.players[p].name;
    col.Line(name + ": " + (hand.empty() ? "no gifts" : Plural(hand.size(), "gift")));
    if (hand.size() > 8)
      col.Line("  " + Counted(hand));
    else
      col.Cards(
          hand,
          [](const std::string&) {
            return std::pair{kGift, std::string()};
          },
          name + "'s gift (face down): ");
  }
  json turn = s.value("turn", json::object());
  const std::string who = pos.turn.player < static_cast<int>(pos.players.size())
                              ? pos.players[pos.turn.player].name
                              : "?";
  if (turn.contains("opened"))
    col.Line(who + " opened " + CardTitle(turn["opened"].get<std::string>()) +
             " this turn (on the discards)");
  if (turn.contains("held_tiles")) {
    std::string t;
    for (const json& e : turn["held_tiles"]) t += (t.empty() ? "" : ", ") + e.get<std::string>();
    col.Line(who + " holds tile" + (turn["held_tiles"].size() > 1 ? "s " : " ") + t);
  }
  if (turn.value("take2_drawing", false)) col.Line("Take 2: the second tile is still to be drawn");
  if (turn.contains("change_figure"))
    col.Line("Change Position: " + who + "'s " + turn["change_figure"].value("kind", "figure") +
             " on " + Where(turn["change_figure"]) + " moves");
  if (turn.value("phantom_returned", false))
    col.Line("a gift returned " + who + "'s phantom this turn");
  for (const char* k : {"deck", "discards", "hands", "turn"}) s.erase(k);
  Flatten(s, "gifts", col);
}

// Christmas Present (seed 002): both decks face down, hidden hands of at most 5 (XMAS-HAND), the
// discard pile, cards attached to features, laid-down features (XMAS-FN11).
void Christmas(const Position& pos, json s, Column& col) {
  namespace xp = exp::christmas_present;
  col.Line("Christmas Present", "h");
  auto look = [](const std::string& name) {
    const auto card = xp::ParseCard(name);
    if (!card) return std::pair{kRoadCard, std::string()};
    const xp::CardInfo& info = xp::Info(*card);
    return std::pair{info.deck == xp::Deck::kMonastery ? kMonasteryCard : kRoadCard,
                     std::string(info.timing == xp::Timing::kImmediate   ? "lightning"
                                 : info.timing == xp::Timing::kEndOfGame ? "end"
                                                                         : "")};
  };
  const xp::State* st = xp::Slice(pos);
  for (xp::Deck d : {xp::Deck::kMonastery, xp::Deck::kRoad}) {
    const std::string id(xp::DeckName(d));
    const json deck = s.value("decks", json::object()).value(id, json());
    const size_t n = st ? st->decks[static_cast<int>(d)].cards.size() : CardNames(deck).size();
    std::string about = "The " + id + " deck: " + (n ? Plural(n, "card") + " face down" : "empty");
    if (deck.is_array() && !deck.empty())
      about += "; order known to the judge, top: " + CardTitle(deck[0].get<std::string>());
    else if (n > 0)
      about += ", order unknown";
    col.Pile(static_cast<int>(n), d == xp::Deck::kMonastery ? kMonasteryCard : kRoadCard, about);
  }
  col.Line("Hands are hidden (XMAS-HAND): the others see how many; names as the file states");
  col.Line("At a card's foot: lightning = play at once, end = game end");
  const json hands = s.value("hands", json::array());
  for (size_t p = 0; p < pos.players.size(); ++p) {
    const std::vector<std::string> hand =
        p < hands.size() ? CardNames(hands[p]) : std::vector<std::string>{};
    const std::string& name = pos.players[p].name;
    col.Line(name + ": " + (hand.empty() ? "no cards" : Plural(hand.size(), "card")) + " in hand");
    col.Cards(hand, look, name + "'s card (hidden): ");
  }
  const std::vector<std::string> discard = CardNames(s.value("discard", json()));
  if (discard.size() > 8) {
    col.Pile(static_cast<int>(discard.size()), kRoadCard,
             "Discard pile: " + Plural(discard.size(), "card"), Counted(discard));
  } else if (!discard.empty()) {
    col.Line("Discard pile:");
    col.Cards(discard, look, "discarded: ");
  }
  for (const json& a : s.value("attached", json::array()))
    col.Line(PlayerName(pos, a.value("player", json())) + "'s " + CardTitle(a.value("card", "?")) +
             " lies on " + Where(a) + " until it is scored");
  for (const json& a : s.value("laid_down", json::array()))
    col.Line("Laid down (its figures lie, XMAS-FN11): " + Where(a));
  for (const json& d : s.value("deferred", json::array())) {
    std::string to;
    for (const json& p : d.value("players", json::array()))
      to += (to.empty() ? "" : " and ") + PlayerName(pos, p);
    col.Line(d.value("points", json()).dump() + " points for " + Where(d) + " to " +
             (to.empty() ? "nobody" : to) + ", paid at game end (XMAS-FN12)");
  }
  for (const json& f : s.value("forces", json::array()))
    col.Line(PlayerName(pos, f.value("holder", json())) +
             "'s force placement: " + PlayerName(pos, f.value("target", json())) +
             "'s next tile goes to (" + f.value("x", json()).dump() + ", " +
             f.value("y", json()).dump() + ") if it fits (XMAS-Q-FORCE)");
  if (s.contains("pending_attack")) {
    const json& pa = s["pending_attack"];
    std::string waiting;
    for (const json& p : pa.value("waiting", json::array()))
      waiting += (waiting.empty() ? "" : ", ") + PlayerName(pos, p);
    const json& act = pa.value("action", json::object());
    col.Line("Attack waiting: " + PlayerName(pos, act.value("player", json())) + " plays " +
             CardTitle(act.value("card", "?")) + "; " + waiting +
             " may answer with Cancel attack (XMAS-FN8)");
  }
  if (s.contains("two_tiles")) {
    std::string t;
    for (const json& e : s["two_tiles"]) t += (t.empty() ? "" : ", ") + e.get<std::string>();
    col.Line("Take two tiles: " + t + " in hand, one to keep");
  }
  for (const json& f : s.value("field_choices", json::array()))
    col.Line("Advantage field: " + PlayerName(pos, f.value("player", json())) +
             (f.value("none", false) ? " names no field" : " chose " + Where(f)));
  if (s.contains("card_figures_this_turn"))
    col.Line("Figures placed by cards this turn: " + s["card_figures_this_turn"].dump());
  for (const char* k : {"decks", "hands", "discard", "attached", "laid_down", "deferred", "forces",
                        "pending_attack", "two_tiles", "field_choices", "card_figures_this_turn"})
    s.erase(k);
  Flatten(s, "christmas_present", col);
}

// The Messengers scoring track (MSG-DARK): spaces 0..49, the multiples of 5 dark, each player's
// dame (D) and meeple (M) on the space of its points mod 50.
void Track(const json& tracks, const Position& pos, Column& col) {
  constexpr double kCell = 30;
  const double x = col.x, y = col.y;
  std::string& o = col.svg;
  for (int sp = 0; sp < 50; ++sp) {
    const double cx = x + (sp % 10) * kCell, cy = y + (sp / 10) * kCell;
    const bool dark = sp % 5 == 0;
    o += "<rect x=\"" + Num(cx) + "\" y=\"" + Num(cy) + "\" width=\"" + Num(kCell) +
         "\" height=\"" + Num(kCell) + "\" fill=\"" + (dark ? "#555" : "#f4efe2") +
         "\" stroke=\"#999\"/>\n";
    o += "<text x=\"" + Num(cx + 2) + "\" y=\"" + Num(cy + 9) +
         "\" style=\"font-size:8px;fill:" + (dark ? "#fff" : "#666") + "\">" + std::to_string(sp) +
         "</text>\n";
  }
  for (size_t p = 0; p < tracks.size(); ++p) {
    if (!tracks[p].is_object()) continue;
    int slot = 0;
    for (const char* kind : {"dame", "meeple"}) {
      const int k = slot++;
      if (!tracks[p].value(kind, json()).is_number_integer()) continue;
      const int points = tracks[p][kind].get<int>();
      const int sp = ((points % 50) + 50) % 50;
      const int i = static_cast<int>(p) * 2 + k;  // four places in a space
      const double fx = x + (sp % 10) * kCell + 9 + (i % 2) * 12;
      const double fy = y + (sp / 10) * kCell + 15 + (i / 2 % 2) * 9;
      const std::string name = p < pos.players.size() ? pos.players[p].name : "";
      o += "<g><title>" + Esc(name + "'s " + kind + ": " + std::to_string(points) + " points") +
           "</title><circle cx=\"" + Num(fx) + "\" cy=\"" + Num(fy) + "\" r=\"5.5\" fill=\"" +
           kPalette[p % 6] + "\" stroke=\"#000\" stroke-width=\"0.8\"/>" + "<text x=\"" + Num(fx) +
           "\" y=\"" + Num(fy + 3) +
           "\" style=\"font-size:8px;font-weight:bold;fill:#fff\" text-anchor=\"middle\">" +
           (k == 0 ? "D" : "M") + "</text></g>\n";
    }
  }
  col.y += 5 * kCell + 20;
}

// The Messengers (seed 003): both scoring figures of each player on the track, the stack of 8
// messages face down (MSG-SETUP), the message drawn, the messages taken this turn part (only the
// active player takes one, MSG-ACTIVE) and points waiting for their figure (MSG-CHOOSE).
void Messengers(const Position& pos, json s, Column& col) {
  namespace ms = exp::messengers;
  col.Line("The Messengers", "h");
  const auto numbering =
      ms::ParseNumbering(s.value("numbering", "hig")).value_or(ms::Numbering::kHig);
  auto title = [&](const json& m) {
    const auto msg = m.is_string() ? ms::ParseMessageName(m.get<std::string>()) : std::nullopt;
    if (!msg) return m.is_string() ? m.get<std::string>() : m.dump();
    return "message " + std::to_string(ms::MessageNumber(numbering, *msg)) + " (" +
           std::string(ms::MessageTitle(*msg)) + ")";
  };
  const json tracks = s.value("tracks", json());
  for (size_t p = 0; p < pos.players.size(); ++p) {
    const json t = p < tracks.size() ? tracks[p] : json{{"meeple", 0}, {"dame", 0}};
    col.Line(pos.players[p].name + ": dame " +
             (t.contains("dame") ? t["dame"].dump() + " points" : "off the track (final sum)") +
             ", meeple " + t.value("meeple", json(0)).dump() + " points");
  }
  col.Line("Scoring track (dark: multiples of 5; D dame, M meeple)");
  col.y -= 8;
  Track(tracks.is_array() ? tracks : json::array(), pos, col);

  constexpr int kMessages = 8;  // MSG-SETUP
  const json stack = s.value("stack", json());
  const bool in_hand = s.contains("in_hand");
  const int n = stack.is_array() ? static_cast<int>(stack.size()) : kMessages - (in_hand ? 1 : 0);
  std::string about = "Messages: " + Plural(n, "message") + " face down";
  if (stack.is_array() && !stack.empty())
    about += "; order known to the judge, top: " + title(stack[0]);
  else if (!stack.is_array())
    about += ", order unknown (the question states each one drawn)";
  col.Pile(n, kMessage, about);
  if (s.contains("used")) {
    std::string u;
    for (const json& m : s["used"]) u += (u.empty() ? "" : ", ") + title(m);
    col.Line("Used, under the stack (cannot come up first): " + u);
  }
  const std::string who = pos.turn.player < static_cast<int>(pos.players.size())
                              ? pos.players[pos.turn.player].name
                              : "?";
  const json part = s.value("turn_part", json::object());
  const int taken = part.value("messages_taken", 0);
  col.Line("Messages taken so far this turn" +
           std::string(part.contains("part") ? " part " + part["part"].dump() : "") + ": " + who +
           " (to play) " + std::to_string(taken) + ", the others none (MSG-ACTIVE)");
  if (in_hand) {
    col.Line(who + " holds, face up:");
    const json m = s["in_hand"];
    col.Cards(
        {title(m)},
        [](const std::string&) {
          return std::pair{kMessage, std::string()};
        },
        who + " holds, face up: ");
  }
  for (const json& p : s.value("pending", json::array()))
    col.Line(PlayerName(pos, p.value("player", json())) + ": " + p.value("points", json()).dump() +
             " points wait for a scoring figure" +
             (p.contains("source") ? " (" + p["source"].get<std::string>() + ")" : ""));
  // The active player's scoring figures moved this turn part (MSG-DARK counts only those).
  for (const auto& [k, what] : {std::pair{"moved", "moved by this part's scoring"},
                                {"dark_stops", "stopped on a dark space"},
                                {"message_moved", "moved by the last message's points"},
                                {"message_dark_stops", "stopped on a dark space by them"}})
    if (part.contains(k)) {
      std::string f;
      for (const json& e : part[k]) f += (f.empty() ? "" : " and ") + e.get<std::string>();
      col.Line(who + "'s " + f + ": " + what);
    }
  if (s.contains("turn_figures")) {
    std::string f;
    for (size_t p = 0; p < s["turn_figures"].size() && p < pos.players.size(); ++p)
      if (s["turn_figures"][p].is_string())
        f += (f.empty() ? "" : ", ") + pos.players[p].name + " " +
             s["turn_figures"][p].get<std::string>();
    col.Line("Figure moved this turn: " + (f.empty() ? "none" : f));
  }
  for (const char* k :
       {"tracks", "stack", "used", "in_hand", "turn_part", "pending", "turn_figures", "numbering"})
    s.erase(k);
  Flatten(s, "messengers", col);
}

}  // namespace

std::string CardTitle(const std::string& name) {
  std::string t = name;
  for (char& c : t)
    if (c == '_' || c == '-') c = ' ';
  if (!t.empty() && t[0] >= 'a' && t[0] <= 'z') t[0] = static_cast<char>(t[0] - 'a' + 'A');
  return t;
}

std::set<int> LaidDownRoots(const Position& pos) {
  std::set<int> roots;
  for (size_t f = 0; f < pos.figures.size(); ++f)
    if (model::LaidDownByExpansion(pos, static_cast<int>(f)))
      roots.insert(pos.board.Find(pos.figures[f].node));
  return roots;
}

std::string ExpansionLegend(const Position& pos, double x, double& y) {
  Column col{x, y, ""};
  const json dumped = model::DumpPosition(pos);
  for (const auto* e : pos.cfg().expansions) {
    const std::string id(e->Id());
    const json state =
        dumped.contains("expansions") ? dumped["expansions"].value(id, json()) : json();
    if (state.is_null() || state.empty()) {
      col.Line(id + ": (no state of its own)");
    } else if (id == "gifts") {
      Gifts(pos, state, col);
    } else if (id == "christmas_present") {
      Christmas(pos, state, col);
    } else if (id == "messengers") {
      Messengers(pos, state, col);
    } else {
      Flatten(state, id, col);
    }
    y += 4;
  }
  return col.svg;
}

}  // namespace carc::render

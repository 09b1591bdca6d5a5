// Corruptions of the expansions' own state ("an impossible message/gift/card state"),
// each constructed so that only the rule it cites is broken. Rows of the table in
// gen_corruption.cc; the rulings are those each module's Validate reports.
#include "property-tests/gen_corruption_exp.h"

#include "model/core/module_loader.h"
#include "model/expansions/christmas_present/cards.h"
#include "model/expansions/christmas_present/christmas_present.h"
#include "model/expansions/christmas_present/state.h"
#include "model/expansions/gifts/gifts.h"
#include "model/expansions/messengers/messengers.h"
#include "model/expansions/phantom/phantom.h"

namespace carc::prop {

using model::Position;
using nlohmann::json;

namespace {

int Uniform(int lo, int hi, std::mt19937_64& rng) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}
int Pick(const std::vector<int>& v, std::mt19937_64& rng) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}

// The names an enum argument of a declared action takes (ArgDecl::names): the messages of
// draw_message, the gift cards of gift_draw.
std::vector<std::string_view> DeclaredNames(const Position& pos, std::string_view type,
                                            std::string_view key) {
  for (const auto& [module, decl] : pos.cfg().actions)
    if (decl.type == type)
      for (const model::ArgDecl& a : decl.args)
        if (a.key == key) return a.names;
  return {};
}

// One of them at random ("" when the module is off).
std::string AnyName(const Position& pos, std::string_view type, std::string_view key,
                    std::mt19937_64& rng) {
  const std::vector<std::string_view> names = DeclaredNames(pos, type, key);
  if (names.empty()) return "";
  return std::string(names[Uniform(0, static_cast<int>(names.size()) - 1, rng)]);
}

}  // namespace

// BASE-MEEPLE-FREE: a player's phantom put on the very segment a meeple stands on. Where an
// enabled module's rules let the phantom share that segment (the excuse hook,
// Excuse::kOccupiedFeature: The Gifts' Change Position, GIFT-COMBO; a figure-occupied card of the
// feature's kind once played, XMAS-CARD-FIGURE-OCCUPIED-*), the meeple is no candidate.
std::optional<Corruption> PhantomOnMeeple(const Position& pos, const json& j,
                                          std::mt19937_64& rng) {
  const int ph = pos.cfg().FigureKind(exp::phantom::kFigure);
  if (ph < 0) return std::nullopt;
  Position probe = pos;
  probe.figures.push_back({.owner = 0, .kind = ph});
  const int probe_figure = static_cast<int>(probe.figures.size()) - 1;
  std::vector<int> cands;
  for (size_t f = 0; f < pos.figures.size(); ++f) {
    const model::Figure& fig = pos.figures[f];
    if (fig.kind != model::kMeeple) continue;
    probe.figures[probe_figure].node = fig.node;
    if (ExcusedByModule(probe, probe_figure, model::Excuse::kOccupiedFeature)) continue;
    const int tile = model::Board::TileOf(fig.node);
    bool tile_has_phantom = false;
    for (const model::Figure& g : pos.figures)
      tile_has_phantom |= g.kind == ph && model::Board::TileOf(g.node) == tile;
    if (!tile_has_phantom) cands.push_back(static_cast<int>(f));
  }
  std::vector<int> players;
  for (size_t p = 0; p < pos.players.size(); ++p)
    if (pos.players[p].supply[ph] > 0) players.push_back(static_cast<int>(p));
  if (cands.empty() || players.empty()) return std::nullopt;
  const int f = Pick(cands, rng);
  const int p = Pick(players, rng);
  json fig = j["figures"][f];
  fig["owner"] = p;
  fig["kind"] = exp::phantom::kFigure;
  Corruption out{"phantom-on-meeple",
                 "the phantom of player " + std::to_string(p) + " on the segment of figure " +
                     std::to_string(f),
                 j,
                 {"BASE-MEEPLE-FREE"}};
  out.position["figures"].push_back(fig);
  out.position["players"][p]["supply"][exp::phantom::kFigure] = 0;
  return out;
}

// MSG-CHOOSE: the scoring meeple of one player moved on by 1-4 points the score does not show
// (the two figures plus the points waiting for a figure always make the score).
std::optional<Corruption> TracksOffScore(const Position& pos, const json& j, std::mt19937_64& rng) {
  const int n = static_cast<int>(pos.players.size());
  const int p = Uniform(0, n - 1, rng), k = Uniform(1, 4, rng);
  Corruption out{"tracks-off-score",
                 "player " + std::to_string(p) + "'s scoring meeple " + std::to_string(k) +
                     " points further than the score",
                 j,
                 {"MSG-CHOOSE"}};
  json& m = out.position["expansions"][exp::messengers::kId];
  if (!m.contains("tracks")) {  // everyone on 0
    m["tracks"] = json::array();
    for (int q = 0; q < n; ++q) m["tracks"].push_back({{"meeple", 0}, {"dame", 0}});
  }
  m["tracks"][p]["meeple"] = m["tracks"][p].value("meeple", 0) + k;
  return out;
}

// MSG-RESOLVE: a message in hand outside the step `message` (a drawn message is carried out or
// sealed in that step). With a known stack the message is its top one, so all 8 stay once each.
std::optional<Corruption> MessageInHandOutsideStep(const Position& pos, const json& j,
                                                   std::mt19937_64& rng) {
  if (pos.turn.game_over || pos.current_step().Name() == "message") return std::nullopt;
  Corruption out{"message-in-hand", "", j, {"MSG-RESOLVE"}};
  json& m = out.position["expansions"][exp::messengers::kId];
  if (m.contains("in_hand")) return std::nullopt;
  if (m.contains("stack")) {
    if (m["stack"].empty()) return std::nullopt;
    m["in_hand"] = m["stack"][0];
    m["stack"].erase(0);
  } else {
    const std::string msg = AnyName(pos, "draw_message", "kind", rng);
    if (msg.empty()) return std::nullopt;
    m["in_hand"] = msg;
  }
  out.what = "message " + m["in_hand"].dump() + " in hand at step " +
             std::string(pos.current_step().Name());
  return out;
}

// GIFT-SETUP: a sixth card of one kind, in a player's hand or in the deck's count.
std::optional<Corruption> GiftCardCount(const Position& pos, const json& j, std::mt19937_64& rng) {
  const int p = Uniform(0, static_cast<int>(pos.players.size()) - 1, rng);
  const std::string card = AnyName(pos, "gift_draw", "card", rng);
  if (card.empty()) return std::nullopt;
  Corruption out{"gift-card-count", "", j, {"GIFT-SETUP"}};
  json& g = out.position["expansions"][exp::gifts::kId];
  if (g.contains("deck") && g["deck"].is_object() && Uniform(0, 1, rng) == 0) {
    // Raise the count above 5 minus the copies elsewhere: at least 6 in all.
    g["deck"][card] = g["deck"].value(card, 0) + Uniform(1, 3, rng);
    out.what = "the deck count of " + card + " raised to " + g["deck"][card].dump();
    return out;
  }
  if (!g.contains("hands")) g["hands"] = json::array();
  while (static_cast<int>(g["hands"].size()) <= p) g["hands"].push_back(json::array());
  g["hands"][p].push_back(card);
  // The deck keeps its count: the card is one copy too many.
  if (!g.contains("deck")) return std::nullopt;  // the deck would absorb it
  out.what = "a sixth " + card + " in the hand of player " + std::to_string(p);
  return out;
}

// XMAS-SETUP: a third copy of a card kind, added to its deck (written out as a list).
std::optional<Corruption> XmasThirdCopy(const Position& pos, const json& j, std::mt19937_64& rng) {
  namespace xp = exp::christmas_present;
  const xp::State* s = xp::Slice(pos);
  if (!s) return std::nullopt;
  const auto card = static_cast<xp::Card>(Uniform(0, xp::kCardKinds - 1, rng));
  const int d = static_cast<int>(xp::DeckOf(card));
  json list = json::array();
  for (xp::Card c : s->decks[d].cards) list.push_back(xp::Info(c).name);
  list.insert(list.begin() + Uniform(0, static_cast<int>(list.size()), rng), xp::Info(card).name);
  Corruption out{"xmas-third-copy",
                 std::string("a third ") + xp::Info(card).name + " in the " +
                     std::string(xp::DeckName(xp::DeckOf(card))) + " deck",
                 j,
                 {"XMAS-SETUP"}};
  out.position["expansions"][exp::christmas_present::kId]["decks"]
              [std::string(xp::DeckName(xp::DeckOf(card)))] = list;
  return out;
}

// XMAS-HAND: six cards in the hand of a player outside their own turn (after the tile: the
// holder's turn may hold more until the end-of-turn discard), the extra cards taken from the
// decks and none of them a lightning card (XMAS-Q-LIGHTNING is not broken).
std::optional<Corruption> XmasHandOverLimit(const Position& pos, const json& j,
                                            std::mt19937_64& rng) {
  namespace xp = exp::christmas_present;
  const xp::State* s = xp::Slice(pos);
  if (!s) return std::nullopt;
  std::vector<int> players;
  for (int p = 0; p < static_cast<int>(pos.players.size()); ++p)
    if (!(p == pos.turn.player && pos.turn.placed >= 0) && !pos.turn.game_over)
      players.push_back(p);
  if (players.empty()) return std::nullopt;
  const int p = players[Uniform(0, static_cast<int>(players.size()) - 1, rng)];
  std::vector<xp::Card> hand =
      p < static_cast<int>(s->hands.size()) ? s->hands[p] : std::vector<xp::Card>{};
  std::vector<xp::Card> decks[2] = {s->decks[0].cards, s->decks[1].cards};
  while (hand.size() < 6) {
    std::vector<std::pair<int, size_t>> cands;  // (deck, index) of a card that is no lightning
    for (int d = 0; d < 2; ++d)
      for (size_t i = 0; i < decks[d].size(); ++i)
        if (xp::TimingOf(decks[d][i]) != xp::Timing::kImmediate) cands.push_back({d, i});
    if (cands.empty()) return std::nullopt;
    auto [d, i] = cands[Uniform(0, static_cast<int>(cands.size()) - 1, rng)];
    hand.push_back(decks[d][i]);
    decks[d].erase(decks[d].begin() + static_cast<long>(i));
  }
  Corruption out{"xmas-hand-over-limit",
                 "player " + std::to_string(p) + " holds 6 cards at step " +
                     std::string(pos.current_step().Name()),
                 j,
                 {"XMAS-HAND"}};
  json& x = out.position["expansions"][exp::christmas_present::kId];
  for (int d = 0; d < 2; ++d) {
    json list = json::array();
    for (xp::Card c : decks[d]) list.push_back(xp::Info(c).name);
    x["decks"][std::string(xp::DeckName(static_cast<xp::Deck>(d)))] = list;
  }
  json h = json::array();
  for (xp::Card c : hand) h.push_back(xp::Info(c).name);
  while (static_cast<int>(x["hands"].size()) <= p) x["hands"].push_back(json::array());
  x["hands"][p] = h;
  return out;
}

}  // namespace carc::prop

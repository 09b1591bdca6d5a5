#include "model/expansions/christmas_present/state.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "model/core/input_file.h"
#include "model/core/json_reader.h"
#include "model/core/module_loader.h"
#include "model/core/position_io.h"
#include "model/expansions/christmas_present/actions.h"
#include "model/expansions/christmas_present/christmas_present.h"
#include "model/expansions/christmas_present/logic.h"

namespace carc::exp::christmas_present {

using model::FeatureKind;
using model::Status;
using nlohmann::json;

namespace {

const std::array<DisputeInfo, kDisputes> kDisputeTable = {{
    {"XMAS-DRAW-MONASTERY",
     {"eight-around-opponent-monk", "orthogonal-opponent-monk", "eight-around-not-own"}},
    {"XMAS-DRAW-ROAD",
     {"road-without-city-or-monastery", "plain-road-tiles", "any-road-tile", "every-edge-road"}},
    {"XMAS-FN4", {"exclude-monastery-tile", "include-monastery-tile"}},
    {"XMAS-Q-SHARE", {"full-value-each", "split-value"}},
    {"XMAS-Q-ANYTIME", {"own-turn-any-step", "any-players-turn"}},
    {"XMAS-Q-LIGHTNING", {"drawn-turn-only", "keep-for-later-own-turn"}},
    {"XMAS-Q-SUPPLY", {"before-final-scoring", "after-final-scoring"}},
    {"XMAS-Q-TIEDFIELD", {"any-tied-field", "holder-must-be-tied"}},
    {"XMAS-Q-RETURN", {"own-figure", "opponent-attack"}},
    {"XMAS-Q-ADVANTAGE",
     {"test-when-played-ties-only", "test-when-scored", "field-any-shared-presence"}},
    {"XMAS-Q-LOOP", {"endless-loop-only", "geometric-loop"}},
    {"XMAS-Q-FORCE", {"own-turn-next-tile", "opponent-turn-on-draw"}},
    {"XMAS-Q-EXTRA", {"extra-figure", "replaces-normal"}},
    {"XMAS-Q-HANDLIMIT", {"holder-chooses", "random-discard"}},
    {"XMAS-Q-TIEDSCORING", {"card-player-only", "all-tied-leaders", "tied-leaders-normal-rate"}},
    {"XMAS-FN9", {"literal-rate", "plus-one"}},
    {"XMAS-FN10", {"literal-rate", "plus-one"}},
    {"XMAS-FN12", {"fixed-now-paid-at-end", "paid-now"}},
}};

Status ReadCard(const json& j, const std::string& where, Card& out) {
  if (!j.is_string())
    return model::JsonError(where, "expected a card name, got " + std::string(j.type_name()));
  auto c = ParseCard(j.get_ref<const std::string&>());
  if (!c) return model::JsonError(where, "unknown card \"" + j.get<std::string>() + "\"");
  out = *c;
  return Status::Ok();
}

Status ReadCards(const json& j, const std::string& where, std::vector<Card>& out) {
  if (!j.is_array()) return model::JsonError(where, "expected an array of card names");
  out.reserve(out.size() + j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    const json& x = j[i];
    // A card name: read without building the location (only an error names it).
    std::optional<Card> known;
    if (x.is_string()) known = ParseCard(x.get_ref<const std::string&>());
    Card c;
    if (known)
      c = *known;
    else if (Status s = ReadCard(x, where + "/" + std::to_string(i), c); !s.ok())
      return s;
    out.push_back(c);
  }
  return Status::Ok();
}

Status ReadInt(const json& j, const std::string& where, int& out) {
  auto v = model::ReadInt(j, where, -model::kMaxJsonInt, model::kMaxJsonInt);
  if (!v.ok()) return v.status();
  out = *v;
  return Status::Ok();
}

Status ReadPlayer(const json& j, const std::string& where, const model::Position& pos, int& out) {
  if (Status s = ReadInt(j, where, out); !s.ok()) return s;
  if (out < 0 || out >= static_cast<int>(pos.players.size()))
    return model::JsonError(where, "no player " + std::to_string(out));
  return Status::Ok();
}

// An object whose keys are all among `keys` (model::CheckKeys).
Status Keys(const json& j, const std::string& where, std::initializer_list<std::string_view> keys) {
  if (!j.is_object()) return model::JsonError(where, "expected an object");
  return model::CheckKeys(j, where, keys);
}

json Names(const std::vector<Card>& cards) {
  json a = json::array();
  auto& arr = a.get_ref<json::array_t&>();
  arr.reserve(cards.size());
  for (Card c : cards) arr.emplace_back(Info(c).name);
  return a;
}

}  // namespace

const DisputeInfo& Disputes(Dispute d) { return kDisputeTable[static_cast<int>(d)]; }

const model::Expansion* Self() { return &Get(); }

std::array<int, kCardKinds> CardCounts(const State& s) {
  std::array<int, kCardKinds> n{};
  auto add = [&](Card c) { n[static_cast<int>(c)]++; };
  for (const DeckState& d : s.decks)
    for (Card c : d.cards) add(c);
  for (const auto& h : s.hands)
    for (Card c : h) add(c);
  for (Card c : s.discard) add(c);
  for (const Attached& a : s.attached) add(a.card);
  for (size_t i = 0; i < s.forces.size(); ++i) add(Card::kForcePlacement);
  if (s.pending) add(DecodePlay(s.pending->action).card);
  return n;
}

model::StatusOr<int> ReadTarget(const json& j, const model::Position& pos,
                                const std::string& where) {
  if (!j.is_object()) return model::JsonError(where, "expected {\"x\", \"y\", \"feature\"}");
  for (const char* k : {"x", "y", "feature"})
    if (!j.contains(k)) return model::JsonError(where + "/" + k, "missing");
  if (Status s = model::CheckKeys(j, where, {"x", "y", "feature"}); !s.ok()) return s;
  return model::ReadFeatureRef(j, pos, where);
}

json FeatureRef(const model::Position& pos, int node) { return model::FeatureRefJson(pos, node); }

// The feature an entry names by its own x, y and feature keys (its other keys left out).
model::StatusOr<int> ReadEntryTarget(const json& e, const model::Position& pos,
                                     const std::string& where) {
  json ref = {{"x", e.value("x", json())},
              {"y", e.value("y", json())},
              {"feature", e.value("feature", json())}};
  return ReadTarget(ref, pos, where);
}

// hands, discard and decks; `discard_rest`, `deck_rest`: "rest" is filled in at the end.
Status ReadCardPlaces(const json& j, const std::string& w, const model::Position& pos, State& s,
                      bool& discard_rest, std::array<bool, 2>& deck_rest) {
  const int np = static_cast<int>(pos.players.size());
  s.hands.assign(np, {});
  if (j.contains("hands")) {
    const json& jh = j["hands"];
    if (!jh.is_array() || static_cast<int>(jh.size()) != np)
      return model::JsonError(
          w + "/hands", "expected one array of cards per player (" + std::to_string(np) + ")");
    for (int p = 0; p < np; ++p)
      if (Status st = ReadCards(jh[p], w + "/hands/" + std::to_string(p), s.hands[p]); !st.ok())
        return st;
  }
  if (j.contains("discard")) {
    if (j["discard"].is_string() && j["discard"].get<std::string>() == "rest")
      discard_rest = true;
    else if (Status st = ReadCards(j["discard"], w + "/discard", s.discard); !st.ok())
      return st;
  }
  if (j.contains("decks")) {
    const json& jd = j["decks"];
    if (Status st = Keys(jd, w + "/decks", {"monastery", "road"}); !st.ok()) return st;
    for (Deck d : {Deck::kMonastery, Deck::kRoad}) {
      std::string name(DeckName(d));
      if (!jd.contains(name)) continue;
      const json& x = jd[name];
      if (x.is_string() && x.get<std::string>() == "rest") continue;
      deck_rest[static_cast<int>(d)] = false;
      std::string wd = w + "/decks/" + name;
      if (Status st = ReadCards(x, wd, s.decks[static_cast<int>(d)].cards); !st.ok()) return st;
      for (size_t i = 0; i < x.size(); ++i)
        if (DeckOf(s.decks[static_cast<int>(d)].cards[i]) != d)
          return model::JsonError(wd + "/" + std::to_string(i),
                                  "the card belongs to the other deck");
    }
  }
  if (discard_rest && (deck_rest[0] || deck_rest[1]))
    return model::JsonError(
        w + "/discard",
        "\"rest\" for the discard pile needs both decks given as lists (\"rest\" can fill "
        "only one place)");
  return Status::Ok();
}

// Each element of the array j[key] (absent: none) read by `read(element, pointer)`.
template <typename F>
Status ForEachEntry(const json& j, const std::string& w, const char* key, F read) {
  if (!j.contains(key)) return Status::Ok();
  const json& ja = j[key];
  const std::string wa = w + "/" + key;
  if (!ja.is_array()) return model::JsonError(wa, "expected an array");
  for (size_t i = 0; i < ja.size(); ++i)
    if (Status st = read(ja[i], wa + "/" + std::to_string(i)); !st.ok()) return st;
  return Status::Ok();
}

Status ReadAttached(const json& e, const std::string& wa, const model::Position& pos, State& s) {
  if (Status st = Keys(e, wa, {"player", "card", "x", "y", "feature"}); !st.ok()) return st;
  Attached a;
  if (!e.contains("player") || !e.contains("card"))
    return model::JsonError(wa, "needs player, card");
  if (Status st = ReadPlayer(e["player"], wa + "/player", pos, a.player); !st.ok()) return st;
  if (Status st = ReadCard(e["card"], wa + "/card", a.card); !st.ok()) return st;
  auto node = ReadEntryTarget(e, pos, wa);
  if (!node.ok()) return node.status();
  a.node = *node;
  s.attached.push_back(a);
  return Status::Ok();
}

// The most a deferred value on feature `root` can be, with a sentence saying why; nullopt when
// the position cannot bound it (a field, which is never laid down: Validate; an unfinished
// feature of a partial board, whose unstated tiles may belong to it).
// A value is fixed when the laid-down feature is scored (XMAS-FN12): on completion, at the usual
// value (BASE-SCORE-ROAD, BASE-SCORE-CITY, BASE-SCORE-MONASTERY) or a modifier card's rate
// (double-loop-road 2/tile XMAS-FN7; 3-per-arms 2/tile + 3/arms XMAS-FN9, 3-per-tile-no-arms
// 3/tile XMAS-FN10, both readings: plus-one adds 1 per arms or per tile to 2/tile + 2/arms, the
// same sums), or unfinished by an immediate card (double-road 2/tile XMAS-FN3, city-plus-one
// 2/tile + 1/arms XMAS-FN5, monastery-bonus the tiles around, or 1 + them under XMAS-FN4's
// include-monastery-tile, XMAS-FN6). No other module of the model changes a feature's value.
// Tied co-leaders (XMAS-Q-TIEDSCORING) and shares (XMAS-Q-SHARE) take the same value or less.
// A completed feature keeps its tiles; an unfinished one only gains tiles, arms and neighbours
// after the card scored it: the feature as it stands now bounds every value it had.
std::optional<std::pair<int, std::string>> MaxDeferred(const model::Position& pos, int root) {
  const model::Board& b = pos.board;
  const model::FeatureInfo& fi = b.Info(root);
  const bool complete = b.IsComplete(root);
  if (fi.kind == FeatureKind::kField || (pos.board_partial && !complete)) return std::nullopt;
  std::vector<int> tiles(fi.tiles.begin(), fi.tiles.end());
  std::sort(tiles.begin(), tiles.end());
  const int n = static_cast<int>(std::unique(tiles.begin(), tiles.end()) - tiles.begin());
  const std::string nt = std::to_string(n) + " tile(s)";
  const int a = fi.shields;
  switch (fi.kind) {
    case FeatureKind::kRoad:
      return std::pair{2 * n, "a road of " + nt +
                                  " is worth at most 2 per tile = " + std::to_string(2 * n) +
                                  " (double-road, double-loop-road: XMAS-FN3, XMAS-FN7)"};
    case FeatureKind::kCity:
      if (!complete)
        return std::pair{2 * n + a, "an unfinished city of " + nt + " and " + std::to_string(a) +
                                        " coat(s) of arms is worth at most 2 per tile + 1 per "
                                        "arms = " +
                                        std::to_string(2 * n + a) + " (city-plus-one: XMAS-FN5)"};
      if (a > 0)
        return std::pair{2 * n + 3 * a, "a completed city of " + nt + " and " + std::to_string(a) +
                                            " coat(s) of arms is worth at most 2 per tile + 3 "
                                            "per arms = " +
                                            std::to_string(2 * n + 3 * a) +
                                            " (3-per-arms: XMAS-FN9)"};
      return std::pair{3 * n, "a completed city of " + nt +
                                  " without arms is worth at most 3 per tile = " +
                                  std::to_string(3 * n) + " (3-per-tile-no-arms: XMAS-FN10)"};
    default: {
      const int around = b.MonasteryNeighbours(model::Board::TileOf(root));
      return std::pair{1 + around, "a monastery with " + std::to_string(around) +
                                       " tile(s) around is worth at most 1 + " +
                                       std::to_string(around) + " = " + std::to_string(1 + around) +
                                       " (BASE-SCORE-MONASTERY; monastery-bonus: XMAS-FN6)"};
    }
  }
}

Status ReadDeferred(const json& e, const std::string& wd, const model::Position& pos, State& s) {
  if (Status st = Keys(e, wd, {"players", "points", "x", "y", "feature"}); !st.ok()) return st;
  Deferred d;
  if (!e.contains("players") || !e["players"].is_array())
    return model::JsonError(wd + "/players", "expected an array of players");
  for (size_t k = 0; k < e["players"].size(); ++k) {
    int p;
    if (Status st = ReadPlayer(e["players"][k], wd + "/players/" + std::to_string(k), pos, p);
        !st.ok())
      return st;
    // XMAS-FN12: a fixed value is paid once to each of its winners.
    if (std::find(d.winners.begin(), d.winners.end(), p) != d.winners.end())
      return model::JsonError(wd + "/players/" + std::to_string(k),
                              "player " + std::to_string(p) + " given twice");
    d.winners.push_back(p);
  }
  // XMAS-FN12: the value fixed when the feature was scored, paid to its winners at game end.
  if (d.winners.empty())
    return model::JsonError(wd + "/players", "a deferred value is paid to at least one player");
  if (Status st = ReadInt(e.value("points", json()), wd + "/points", d.points); !st.ok()) return st;
  auto node = ReadEntryTarget(e, pos, wd);
  if (!node.ok()) return node.status();
  d.node = *node;
  if (d.points < 0)
    return model::JsonError(wd + "/points",
                            "a feature's value is 0 or more, got " + std::to_string(d.points));
  if (auto most = MaxDeferred(pos, pos.board.Find(d.node)); most && d.points > most->first)
    return model::JsonError(wd + "/points",
                            std::to_string(d.points) +
                                " points cannot have been fixed on this feature: " + most->second);
  s.deferred.push_back(d);
  return Status::Ok();
}

Status ReadForce(const json& e, const std::string& wf, const model::Position& pos, State& s) {
  if (Status st = Keys(e, wf, {"holder", "target", "x", "y"}); !st.ok()) return st;
  Force f;
  if (Status st = ReadPlayer(e.value("holder", json()), wf + "/holder", pos, f.holder); !st.ok())
    return st;
  if (Status st = ReadPlayer(e.value("target", json()), wf + "/target", pos, f.target); !st.ok())
    return st;
  if (Status st = ReadInt(e.value("x", json()), wf + "/x", f.square.x); !st.ok()) return st;
  if (Status st = ReadInt(e.value("y", json()), wf + "/y", f.square.y); !st.ok()) return st;
  s.forces.push_back(f);
  return Status::Ok();
}

Status ReadFieldChoice(const json& e, const std::string& wc, const model::Position& pos, State& s) {
  if (Status st = Keys(e, wc, {"player", "x", "y", "feature", "none"}); !st.ok()) return st;
  int p, node = -1;
  if (Status st = ReadPlayer(e.value("player", json()), wc + "/player", pos, p); !st.ok())
    return st;
  // A choice is a field or "none": true, never both, so that which one was meant is not guessed.
  if (e.contains("none") && !e["none"].is_boolean())
    return model::JsonError(wc + "/none", "expected true (no field chosen) or false");
  const bool none = e.value("none", false);
  if (none)
    for (const char* k : {"x", "y", "feature"})
      if (e.contains(k))
        return model::JsonError(wc + "/" + k,
                                "a choice of no field (\"none\": true) names no field; give "
                                "the field or none, not both");
  if (!none) {
    auto n = ReadEntryTarget(e, pos, wc);
    if (!n.ok()) return n.status();
    node = *n;
  }
  // XMAS-CARD-ADVANTAGE-FIELD, XMAS-END: one choice per advantage-field card the player holds.
  int choices = 1;
  for (auto [q, n] : s.field_choices) choices += q == p;
  const int cards =
      p < static_cast<int>(s.hands.size()) ? Copies(s.hands[p], Card::kAdvantageField) : 0;
  if (choices > cards)
    return model::JsonError(wc, "choice " + std::to_string(choices) + " of player " +
                                    std::to_string(p) + ", who holds " + std::to_string(cards) +
                                    " advantage-field card(s): one choice per card");
  s.field_choices.push_back({p, node});
  return Status::Ok();
}

Status ReadTwoTiles(const json& j, const std::string& w, const model::Position& pos, State& s) {
  if (!j.contains("two_tiles")) return Status::Ok();
  const json& jt = j["two_tiles"];
  if (!jt.is_array() || jt.size() != 2)
    return model::JsonError(w + "/two_tiles", "expected two tiles");
  // XMAS-CARD-TAKE-TWO-TILES: the two tiles are held before the draw (one is kept at
  // xmas_turn_start); a tile drawn or placed beside them would be a third.
  if (pos.turn.drawn || pos.turn.placed >= 0)
    return model::JsonError(w + "/two_tiles",
                            "the two tiles of take-two-tiles are held before the draw, but this "
                            "position has a tile drawn or placed this turn (/turn)");
  for (size_t i = 0; i < 2; ++i) {
    auto t = pos.cfg().catalog->Find(jt[i].is_string() ? jt[i].get<std::string>() : "");
    if (!t) return model::JsonError(w + "/two_tiles/" + std::to_string(i), "unknown tile");
    s.two_tiles.push_back(*t);
  }
  return Status::Ok();
}

Status ReadPendingAttack(const json& j, const std::string& w, const model::Position& pos,
                         State& s) {
  if (!j.contains("pending_attack")) return Status::Ok();
  const json& jp = j["pending_attack"];
  std::string wp = w + "/pending_attack";
  if (Status st = Keys(jp, wp, {"action", "waiting"}); !st.ok()) return st;
  if (!jp.contains("action")) return model::JsonError(wp + "/action", "missing");
  // Read as any action is (model::ParseModuleAction checks its fields against its card's form).
  auto a = model::ParseModuleAction(jp["action"], pos, wp + "/action");
  if (!a || !a->ok() || (*a)->expansion != Self() || (*a)->code != kPlay)
    return a && !a->ok() ? a->status()
                         : model::JsonError(wp + "/action", "expected an xmas_play action");
  PendingAttack pa;
  pa.action = **a;
  if (!jp.contains("waiting") || !jp["waiting"].is_array() || jp["waiting"].empty())
    return model::JsonError(wp + "/waiting",
                            "expected the opponents still to decide, in turn order");
  for (size_t i = 0; i < jp["waiting"].size(); ++i) {
    int p;
    if (Status st = ReadPlayer(jp["waiting"][i], wp + "/waiting/" + std::to_string(i), pos, p);
        !st.ok())
      return st;
    // A player answers once (XMAS-FN8): a second entry would have them answer again.
    for (size_t k = 0; k < pa.waiting.size(); ++k)
      if (pa.waiting[k] == p)
        return model::JsonError(wp + "/waiting/" + std::to_string(i),
                                "player " + std::to_string(p) + " is listed twice (first at " + wp +
                                    "/waiting/" + std::to_string(k) + ")");
    pa.waiting.push_back(p);
  }
  s.pending = pa;
  return Status::Ok();
}

// "rest": every copy not found elsewhere (XMAS-SETUP: 2 of each kind).
void FillRest(bool discard_rest, const std::array<bool, 2>& deck_rest, State& s) {
  std::array<int, kCardKinds> have = CardCounts(s);
  for (int k = 0; k < kCardKinds; ++k) {
    Card c = static_cast<Card>(k);
    int missing = kCopies - have[k];
    bool fill = discard_rest || deck_rest[static_cast<int>(DeckOf(c))];
    if (!fill || missing <= 0) continue;
    auto& target = discard_rest ? s.discard : s.decks[static_cast<int>(DeckOf(c))].cards;
    for (int i = 0; i < missing; ++i) target.push_back(c);
  }
  for (int d = 0; d < 2; ++d) s.decks[d].ordered = !deck_rest[d];
}

// Rules: XMAS-SETUP (two decks of 16 kinds x 2; "rest" fills a deck or the discard pile with
// every copy not found elsewhere), XMAS-HAND, XMAS-FN2.
Status ParseSection(const json& j, const std::string& w, model::Position& pos) {
  State& s = *Slice(pos);
  if (Status st = Keys(j, w,
                       {"decks", "hands", "discard", "attached", "laid_down", "deferred", "forces",
                        "pending_attack", "two_tiles", "field_choices", "card_figures_this_turn"});
      !st.ok())
    return st;
  // "variants" is the core's (module_loader.h ReadVariants, declared in ChristmasPresent::Load).
  bool discard_rest = false;
  std::array<bool, 2> deck_rest = {true, true};
  if (Status st = ReadCardPlaces(j, w, pos, s, discard_rest, deck_rest); !st.ok()) return st;
  const auto each = [&](const char* key, auto read) {
    return ForEachEntry(j, w, key,
                        [&](const json& e, const std::string& we) { return read(e, we, pos, s); });
  };
  const auto laid_down = [](const json& e, const std::string& we, const model::Position& p,
                            State& st) {
    auto node = ReadTarget(e, p, we);
    if (!node.ok()) return node.status();
    // XMAS-CARD-LAY-DOWN-*: a feature is laid down once (two entries of one feature are features
    // laid down apart and joined later, each named by its own segment).
    if (std::find(st.laid_down.begin(), st.laid_down.end(), *node) != st.laid_down.end())
      return model::JsonError(we, "this segment is listed twice");
    st.laid_down.push_back(*node);
    return Status::Ok();
  };
  if (Status st = each("attached", ReadAttached); !st.ok()) return st;
  if (Status st = each("laid_down", laid_down); !st.ok()) return st;
  if (Status st = each("deferred", ReadDeferred); !st.ok()) return st;
  if (Status st = each("forces", ReadForce); !st.ok()) return st;
  if (Status st = ReadTwoTiles(j, w, pos, s); !st.ok()) return st;
  if (Status st = each("field_choices", ReadFieldChoice); !st.ok()) return st;
  if (j.contains("card_figures_this_turn"))
    if (Status st = ReadInt(j["card_figures_this_turn"], w + "/card_figures_this_turn",
                            s.card_figures_this_turn);
        !st.ok())
      return st;
  if (s.card_figures_this_turn < 0)
    return model::JsonError(
        w + "/card_figures_this_turn",
        "expected a count of figures, 0 or more, got " + std::to_string(s.card_figures_this_turn));
  if (Status st = ReadPendingAttack(j, w, pos, s); !st.ok()) return st;
  FillRest(discard_rest, deck_rest, s);
  return Status::Ok();
}

void DumpSection(const model::Position& pos, json& j) {
  const State& s = *Slice(pos);
  json decks = json::object();
  for (Deck d : {Deck::kMonastery, Deck::kRoad}) {
    const DeckState& ds = s.decks[static_cast<int>(d)];
    decks[std::string(DeckName(d))] = ds.ordered ? Names(ds.cards) : json("rest");
  }
  j["decks"] = std::move(decks);
  // One hand per player (XMAS-HAND): a slice made without a section holds six empty ones.
  json hands = json::array();
  for (size_t p = 0; p < pos.players.size(); ++p)
    hands.push_back(p < s.hands.size() ? Names(s.hands[p]) : json::array());
  j["hands"] = std::move(hands);
  j["discard"] = Names(s.discard);
  if (!s.attached.empty()) {
    json a = json::array();
    for (const Attached& x : s.attached) {
      json e = FeatureRef(pos, x.node);
      e["player"] = x.player;
      e["card"] = Info(x.card).name;
      a.push_back(std::move(e));
    }
    j["attached"] = std::move(a);
  }
  if (!s.laid_down.empty()) {
    json a = json::array();
    for (int n : s.laid_down) a.push_back(FeatureRef(pos, n));
    j["laid_down"] = std::move(a);
  }
  if (!s.deferred.empty()) {
    json a = json::array();
    for (const Deferred& d : s.deferred) {
      json e = FeatureRef(pos, d.node);
      e["players"] = d.winners;
      e["points"] = d.points;
      a.push_back(std::move(e));
    }
    j["deferred"] = std::move(a);
  }
  if (!s.forces.empty()) {
    json a = json::array();
    for (const Force& f : s.forces)
      a.push_back(
          {{"holder", f.holder}, {"target", f.target}, {"x", f.square.x}, {"y", f.square.y}});
    j["forces"] = std::move(a);
  }
  if (s.pending) {
    json act;
    DumpXmasAction(pos, s.pending->action, act);
    j["pending_attack"] = {{"action", std::move(act)}, {"waiting", s.pending->waiting}};
  }
  if (!s.two_tiles.empty()) {
    json a = json::array();
    for (auto t : s.two_tiles) a.push_back(pos.cfg().catalog->Name(t));
    j["two_tiles"] = std::move(a);
  }
  if (!s.field_choices.empty()) {
    json a = json::array();
    for (auto [p, n] : s.field_choices) {
      json e = n >= 0 ? FeatureRef(pos, n) : json{{"none", true}};
      e["player"] = p;
      a.push_back(std::move(e));
    }
    j["field_choices"] = std::move(a);
  }
  if (s.card_figures_this_turn) j["card_figures_this_turn"] = s.card_figures_this_turn;
}

}  // namespace carc::exp::christmas_present

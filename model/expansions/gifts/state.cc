// The Gifts slice and its position-file section (README.md documents every field).
#include "model/expansions/gifts/state.h"

#include <nlohmann/json.hpp>

#include "model/core/check.h"
#include "model/core/json_reader.h"
#include "model/core/position_io.h"
#include "model/expansions/gifts/cards.h"
#include "model/expansions/gifts/gifts.h"

namespace carc::exp::gifts {

using model::ErrorCode;
using model::Position;
using model::Status;
using nlohmann::json;

namespace {

constexpr std::array<std::string_view, kCardTypes> kNames = {
    "synod", "road_sweeper", "change_position", "cash_out", "take_2"};
constexpr std::array<std::string_view, kCardTypes> kTitles = {
    "Synod", "Road Sweeper", "Change Position", "Cash Out", "Take 2"};

std::string KnownCards() {
  std::string s;
  for (auto n : kNames) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

Status CardAt(const json& j, const std::string& where, Card& out) {
  if (!j.is_string()) return model::JsonError(where, "expected a card name (" + KnownCards() + ")");
  auto c = ParseCard(j.get<std::string>());
  if (!c)
    return model::JsonError(
        where, "unknown gift card \"" + j.get<std::string>() + "\" (" + KnownCards() + ")");
  out = *c;
  return Status::Ok();
}

// A list of card names, or (when `counts_ok`) an object of counts per card name.
Status Cards(const json& j, const std::string& where, CardCounts& counts,
             std::vector<Card>* order) {
  counts = {};
  if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) {
      Card c;
      if (Status s = CardAt(j[i], where + "/" + std::to_string(i), c); !s.ok()) return s;
      counts[static_cast<int>(c)]++;
      if (order) order->push_back(c);
    }
    return Status::Ok();
  }
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      std::string w = where + "/" + it.key();
      auto c = ParseCard(it.key());
      if (!c)
        return model::JsonError(w, "unknown gift card \"" + it.key() + "\" (" + KnownCards() + ")");
      if (!model::JsonInt(it.value(), 0))
        return model::JsonError(w, "expected a count (0 or more)");
      counts[static_cast<int>(*c)] = *model::JsonInt(it.value(), 0);
    }
    return Status::Ok();
  }
  return model::JsonError(where, "expected a list of card names or an object of counts");
}

json CardList(const CardCounts& c) {
  json out = json::array();
  for (int t = 0; t < kCardTypes; ++t)
    for (int i = 0; i < c[t]; ++i) out.push_back(kNames[t]);
  return out;
}

// One disputed ruling's readings in enum order (reading i is the value E(i)), read and written
// by the core (model::ReadVariants); `retired_key` is the topic name the section once used
// (refused, naming the ruling ID).
template <typename E>
model::VariantDecl Decl(const char* ruling, const char* retired_key,
                        std::initializer_list<std::pair<const char*, E>> names,
                        E Variants::*field) {
  model::VariantDecl v{.ruling = ruling, .retired_key = retired_key};
  for (auto& [n, x] : names) {
    CARC_CHECK(static_cast<size_t>(x) == v.readings.size());
    v.readings.emplace_back(n);
  }
  v.set = [field](Position& pos, int r) { Slice(pos).variants.*field = static_cast<E>(r); };
  v.get = [field](const Position& pos) { return static_cast<int>(Slice(pos).variants.*field); };
  return v;
}

const std::initializer_list<std::pair<const char*, OtherTile>> kOtherTile = {
    {"discard-unchosen", OtherTile::kDiscardUnchosen},
    {"return-unchosen-to-supply", OtherTile::kReturnUnchosenToSupply}};
const std::initializer_list<std::pair<const char*, Completion>> kCompletion = {
    {"completion-counts", Completion::kCompletionCounts},
    {"completion-excluded", Completion::kCompletionExcluded}};
const std::initializer_list<std::pair<const char*, LyingFigure>> kLying = {
    {"feature-based", LyingFigure::kFeatureBased},
    {"posture-literal", LyingFigure::kPostureLiteral}};
const std::initializer_list<std::pair<const char*, ChangeTarget>> kChangeTarget = {
    {"unfinished-only", ChangeTarget::kUnfinishedOnly}, {"any-feature", ChangeTarget::kAnyFeature}};
const std::initializer_list<std::pair<const char*, ExtraPart>> kExtraPart = {
    {"each-part", ExtraPart::kEachPart}, {"whole-turn", ExtraPart::kWholeTurn}};
const std::initializer_list<std::pair<const char*, AdvantageMajority>> kAdvantage = {
    {"advantage-counts", AdvantageMajority::kAdvantageCounts},
    {"figures-only", AdvantageMajority::kFiguresOnly}};

}  // namespace

std::string_view CardName(Card c) { return kNames[static_cast<int>(c)]; }
std::string_view CardTitle(Card c) { return kTitles[static_cast<int>(c)]; }
std::optional<Card> ParseCard(std::string_view s) {
  for (int i = 0; i < kCardTypes; ++i)
    if (kNames[i] == s) return static_cast<Card>(i);
  return std::nullopt;
}
int Total(const CardCounts& c) {
  int n = 0;
  for (int x : c) n += x;
  return n;
}

const model::Expansion* Self() { return &Get(); }

// The disputed rulings of The Gifts (this module's README, "Rulings and disputed items");
// "variants" is read by the core.
void DeclareVariants(model::ModuleLoader& loader) {
  loader.AddVariant(Decl("GIFT-FN9", "take2_other_tile", kOtherTile, &Variants::other_tile));
  loader.AddVariant(Decl("GIFT-Q-EXTEND", "completion", kCompletion, &Variants::completion));
  loader.AddVariant(Decl("GIFT-Q-LYING", "lying_figure", kLying, &Variants::lying));
  loader.AddVariant(Decl("GIFT-CHANGE", "change_target", kChangeTarget, &Variants::change_target));
  loader.AddVariant(Decl("GIFT-Q-ADVANTAGE", "", kAdvantage, &Variants::advantage));
  loader.AddVariant(Decl("GIFT-Q-EXTRA-PART", "", kExtraPart, &Variants::extra_part));
}

// The turn part of the slice: tiles held, the gift opened and what it waits for.
static Status ParseTurn(const json& jt, const std::string& where, Position& pos, Data& d) {
  Status err;
  std::string w = where + "/turn";
  if (!jt.is_object()) return model::JsonError(w, "expected an object");
  if (err = model::CheckKeys(jt, w,
                             {"held_tiles", "opened", "take2_drawing", "change_figure",
                              "phantom_returned", "received"});
      !err.ok())
    return err;
  if (jt.contains("held_tiles")) {
    const json& jh = jt["held_tiles"];
    if (!jh.is_array() || jh.size() > 2)
      return model::JsonError(w + "/held_tiles", "expected a list of one or two tiles");
    for (size_t i = 0; i < jh.size(); ++i) {
      std::string wi = w + "/held_tiles/" + std::to_string(i);
      auto t = jh[i].is_string() ? pos.cfg().catalog->Find(jh[i].get<std::string>()) : std::nullopt;
      if (!t) return model::JsonError(wi, "expected a tile letter");
      d.held.push_back(*t);
    }
  }
  if (jt.contains("opened")) {
    Card c;
    if (Status s = CardAt(jt["opened"], w + "/opened", c); !s.ok()) return s;
    d.opened = c;
  }
  bool phantom_returned = false;
  for (auto [key, flag] :
       {std::pair{"take2_drawing", &d.take2_drawing},
        std::pair{"phantom_returned", &phantom_returned}, std::pair{"received", &d.received}})
    if (jt.contains(key)) {
      if (!jt[key].is_boolean()) return model::JsonError(w + "/" + key, "expected true or false");
      *flag = jt[key].get<bool>();
    }
  // GIFT-TAKE2: the second tile is drawn only for a Take 2 opened this turn.
  if (d.take2_drawing && d.opened != Card::kTake2)
    return model::JsonError(w + "/take2_drawing",
                            "the second tile is drawn for Take 2, but this turn opened " +
                                (d.opened ? std::string(CardTitle(*d.opened)) : "no gift") +
                                " (turn.opened)");
  // GIFT-Q-PHANTOM: only a figure with a placement step of its own (the Phantom) returns so,
  // and the reuse ruling is that figure's module's: its section states the return, whoever
  // made it. `false` is read and means nothing.
  if (phantom_returned && OwnStepFigure(pos) < 0)
    return model::JsonError(w + "/phantom_returned",
                            "no figure of these rules has a placement step of its own (the "
                            "Phantom is not in /rules/expansions)");
  if (phantom_returned)
    return model::JsonError(w + "/phantom_returned",
                            "no longer read: a phantom returned this turn is stated in the "
                            "Phantom's section, /expansions/phantom/turn/on_board_at_draw: "
                            "true (GIFT-Q-PHANTOM)");
  if (jt.contains("change_figure")) {
    const json& jf = jt["change_figure"];
    std::string wf = w + "/change_figure";
    if (!jf.is_object())
      return model::JsonError(wf, "expected {\"x\", \"y\", \"feature\", \"kind\"}");
    if (err = model::CheckKeys(jf, wf, {"x", "y", "feature", "kind"}); !err.ok()) return err;
    if (jf.contains("kind") && !jf["kind"].is_string())
      return model::JsonError(wf + "/kind", "expected a figure kind name");
    std::string kind = jf.value("kind", "meeple");
    auto node = model::ReadFeatureRef(jf, pos, wf);
    if (!node.ok()) return node.status();
    for (size_t f = 0; f < pos.figures.size(); ++f)
      if (pos.figures[f].node == *node && pos.figures[f].owner == pos.turn.player &&
          pos.cfg().figure_kinds[pos.figures[f].kind].name == kind)
        d.change_figure = static_cast<int>(f);
    if (d.change_figure < 0)
      return model::JsonError(wf, "no " + kind + " of the player to move stands there");
  }
  return Status::Ok();
}

Status ParseData(const json& j, const std::string& where, Position& pos, Data& d) {
  Status err;
  if (!j.is_object()) return model::JsonError(where, "expected an object");
  if (err = model::CheckKeys(j, where, {"deck", "hands", "discards", "on_finished", "turn"});
      !err.ok())
    return err;
  const size_t np = pos.players.size();
  if (j.contains("hands")) {
    const json& jh = j["hands"];
    if (!jh.is_array() || jh.size() != np)
      return model::JsonError(where + "/hands",
                              "expected one list of cards per player (" + std::to_string(np) + ")");
    for (size_t p = 0; p < np && p < kMaxPlayers; ++p)
      if (Status s = Cards(jh[p], where + "/hands/" + std::to_string(p), d.hands[p], nullptr);
          !s.ok())
        return s;
  }
  if (j.contains("discards"))
    if (Status s = Cards(j["discards"], where + "/discards", d.discards, nullptr); !s.ok())
      return s;
  if (j.contains("deck")) {
    d.deck_order.clear();
    d.deck_ordered = j["deck"].is_array();
    if (Status s = Cards(j["deck"], where + "/deck", d.deck, &d.deck_order); !s.ok()) return s;
  } else {
    // The deck not given: the rest of the 25 cards, order unknown (GIFT-SETUP).
    d.deck_ordered = false;
    d.deck_order.clear();
    for (int t = 0; t < kCardTypes; ++t) {
      int used = d.discards[t];
      for (const CardCounts& h : d.hands) used += h[t];
      d.deck[t] = std::max(0, kPerType - used);
    }
  }
  if (j.contains("on_finished")) {
    // GIFT-CHANGE (any-feature): figures Change Position stood up on a finished feature.
    const json& jo = j["on_finished"];
    const std::string w = where + "/on_finished";
    if (!jo.is_array())
      return model::JsonError(w, "expected a list of {\"x\", \"y\", \"feature\"}");
    for (size_t i = 0; i < jo.size(); ++i) {
      const std::string wi = w + "/" + std::to_string(i);
      if (!jo[i].is_object()) return model::JsonError(wi, "expected {\"x\", \"y\", \"feature\"}");
      if (err = model::CheckKeys(jo[i], wi, {"x", "y", "feature"}); !err.ok()) return err;
      auto node = model::ReadFeatureRef(jo[i], pos, wi);
      if (!node.ok()) return node.status();
      bool held = false;
      for (const model::Figure& f : pos.figures) held |= f.node == *node;
      if (!held) return model::JsonError(wi, "no figure stands there");
      // Each segment once: a second entry was kept silently, as if it said something more.
      for (size_t k = 0; k < d.on_finished.size(); ++k)
        if (d.on_finished[k] == *node)
          return model::JsonError(
              wi, "the segment is listed twice (first at " + w + "/" + std::to_string(k) + ")");
      d.on_finished.push_back(*node);
    }
  }
  if (j.contains("turn")) return ParseTurn(j["turn"], where, pos, d);
  return Status::Ok();
}

void DumpData(const Position& pos, const Data& d, json& j) {
  if (d.deck_ordered) {
    json order = json::array();
    for (Card c : d.deck_order) order.push_back(CardName(c));
    j["deck"] = order;
  } else {
    json counts = json::object();
    for (int t = 0; t < kCardTypes; ++t)
      if (d.deck[t] > 0) counts[std::string(kNames[t])] = d.deck[t];
    j["deck"] = counts;
  }
  j["hands"] = json::array();
  for (size_t p = 0; p < pos.players.size() && p < kMaxPlayers; ++p)
    j["hands"].push_back(CardList(d.hands[p]));
  j["discards"] = CardList(d.discards);
  json on = json::array();
  for (int node : d.on_finished) {
    bool held = false;
    for (const model::Figure& f : pos.figures) held |= f.node == node;
    if (held) on.push_back(model::FeatureRefJson(pos, node));
  }
  if (!on.empty()) j["on_finished"] = on;
  json t = json::object();
  if (!d.held.empty()) {
    t["held_tiles"] = json::array();
    for (auto tile : d.held) t["held_tiles"].push_back(pos.cfg().catalog->Name(tile));
  }
  if (d.opened) t["opened"] = CardName(*d.opened);
  if (d.take2_drawing) t["take2_drawing"] = true;
  if (d.received) t["received"] = true;
  if (d.change_figure >= 0) {
    const model::Figure& f = pos.figures[d.change_figure];
    t["change_figure"] = model::FeatureRefJson(pos, f.node);
    t["change_figure"]["kind"] = pos.cfg().figure_kinds[f.kind].name;
  }
  if (!t.empty()) j["turn"] = t;
}

}  // namespace carc::exp::gifts

#include "model/expansions/christmas_present/actions.h"

#include <nlohmann/json.hpp>

#include "model/core/input_file.h"
#include "model/core/json_reader.h"
#include "model/core/position_io.h"
#include "model/core/scoring.h"
#include "model/expansions/christmas_present/christmas_present.h"
#include "model/expansions/christmas_present/family.h"
#include "model/expansions/christmas_present/state.h"

namespace carc::exp::christmas_present {

using model::Action;
using model::Status;
using nlohmann::json;

namespace {

using model::JsonError;

// Any integer a position may hold (model/core/input_file.h).
model::StatusOr<int> ReadAnyInt(const json& j, const std::string& where) {
  return model::ReadInt(j, where, -model::kMaxJsonInt, model::kMaxJsonInt);
}

}  // namespace

Action MakeAction(int code, model::ActionArgs args) {
  Action a;
  a.type = model::ActionType::kExpansion;
  a.expansion = &Get();
  a.code = code;
  a.args = std::move(args);
  return a;
}

Play DecodePlay(const Action& a) {
  Play p;
  p.card = kCardArg(a);
  p.player = kPlayerArg(a);
  switch (FamilyOf(p.card).shape) {
    case Shape::kSquare:
      p.opponent = kOpponentArg(a);
      p.square = {kSquareXArg(a), kSquareYArg(a)};
      break;
    case Shape::kTiles:
      p.tile1 = kTile1Arg(a);
      p.tile2 = kTile2Arg(a);
      break;
    case Shape::kTwoFigures:
      p.node = kNodeArg(a);
      p.other_node = kOtherNodeArg(a);
      p.other_owner = kOtherOwnerArg(a);
      p.figure_kind = kOwnFigureArg(a);
      p.other_kind = kOtherFigureArg(a);
      break;
    case Shape::kFeature:
      p.node = kNodeArg(a);
      p.owner = kOwnerArg(a);
      if (p.card == Card::kReturnFigure) p.figure_kind = kFigureKindArg(a);
  }
  return p;
}

Action EncodePlay(const Play& p) {
  Action a = MakeAction(kPlay, {});
  kCardArg.Set(a, p.card);
  kPlayerArg.Set(a, p.player);
  switch (FamilyOf(p.card).shape) {
    case Shape::kSquare:
      kOpponentArg.Set(a, p.opponent);
      kSquareXArg.Set(a, p.square.x);
      kSquareYArg.Set(a, p.square.y);
      break;
    case Shape::kTiles:
      kTile1Arg.Set(a, p.tile1);
      kTile2Arg.Set(a, p.tile2);
      break;
    case Shape::kTwoFigures:
      kNodeArg.Set(a, p.node);
      kOtherNodeArg.Set(a, p.other_node);
      kOtherOwnerArg.Set(a, p.other_owner);
      kOwnFigureArg.Set(a, p.figure_kind);
      kOtherFigureArg.Set(a, p.other_kind);
      break;
    case Shape::kFeature:
      kNodeArg.Set(a, p.node);
      kOwnerArg.Set(a, p.owner);
      if (p.card == Card::kReturnFigure) kFigureKindArg.Set(a, p.figure_kind);
  }
  return a;
}

// The parameters of an action, read from `j` (pointer `wp`).
static model::StatusOr<int> ReadActionPlayer(const json& j, const std::string& wp,
                                             const model::Position& pos, int def) {
  if (!j.contains("player")) return def;
  auto p = ReadAnyInt(j["player"], wp + "/player");
  if (!p.ok()) return p.status();
  if (*p < 0 || *p >= static_cast<int>(pos.players.size()))
    return JsonError(wp + "/player", "no player " + std::to_string(*p));
  return *p;
}

static model::StatusOr<int> ReadActionCard(const json& j, const std::string& wp) {
  if (!j.contains("card") || !j["card"].is_string())
    return JsonError(wp + "/card", "missing: the card's name");
  auto c = ParseCard(j["card"].get<std::string>());
  if (!c) return JsonError(wp + "/card", "unknown card \"" + j["card"].get<std::string>() + "\"");
  return static_cast<int>(*c);
}

static model::StatusOr<int> ReadActionTile(const json& t, const std::string& wt,
                                           const model::Position& pos) {
  auto id = pos.cfg().catalog->Find(t.is_string() ? t.get<std::string>() : "");
  if (!id) return JsonError(wt, "unknown tile");
  return *id;
}

// xmas_draw_card, xmas_cancel, xmas_allow, xmas_discard, xmas_keep_tile.
static model::StatusOr<Action> ReadCardAction(int code, const json& j, const std::string& wp,
                                              const model::Position& pos) {
  const State* s = Slice(pos);
  if (code == kDrawCard) {
    if (!j.contains("deck") || !j["deck"].is_string() || !ParseDeck(j["deck"].get<std::string>()))
      return JsonError(wp + "/deck", "expected \"monastery\" or \"road\"");
    int c = -1;
    if (j.contains("card")) {
      auto cc = ReadActionCard(j, wp);
      if (!cc.ok()) return cc.status();
      c = *cc;
    }
    Action a = MakeAction(kDrawCard, {});
    kDeckArg.Set(a, *ParseDeck(j["deck"].get<std::string>()));
    if (c >= 0) kDrawnArg.Set(a, static_cast<Card>(c));  // else absent: reads -1
    return a;
  }
  if (code == kCancel || code == kAllow) {
    int def = s && s->pending && !s->pending->waiting.empty() ? s->pending->waiting.front()
                                                              : pos.turn.player;
    auto p = ReadActionPlayer(j, wp, pos, def);
    if (!p.ok()) return p.status();
    Action a = MakeAction(code, {});
    kAnswerArg.Set(a, *p);
    return a;
  }
  if (code == kDiscard) {
    auto c = ReadActionCard(j, wp);
    if (!c.ok()) return c.status();
    auto p = ReadActionPlayer(j, wp, pos, pos.turn.player);
    if (!p.ok()) return p.status();
    Action a = MakeAction(kDiscard, {});
    kCardArg.Set(a, static_cast<Card>(*c));
    kPlayerArg.Set(a, *p);
    return a;
  }
  // kKeepTile
  if (!j.contains("tile")) return JsonError(wp + "/tile", "missing: the tile kept");
  auto t = ReadActionTile(j["tile"], wp + "/tile", pos);
  if (!t.ok()) return t.status();
  Action a = MakeAction(kKeepTile, {});
  kTileArg.Set(a, *t);
  return a;
}

// A figure's kind named by `key` (return-figure's "figure", a swap's "own_figure" and
// "other_figure"), if given: the figure when its owner has figures of several kinds on the
// segment (the family's settle asks for it then). -1 when absent.
static Status ReadFigureKind(const json& j, const std::string& wp, const model::Position& pos,
                             const char* key, int& kind) {
  if (!j.contains(key)) return Status::Ok();
  const json& jf = j[key];
  const std::string wk = wp + "/" + key;
  if (!jf.is_string()) return JsonError(wk, "expected a figure kind name");
  kind = pos.cfg().FigureKind(jf.get<std::string>());
  if (kind < 0)
    return JsonError(wk, "unknown figure kind \"" + jf.get<std::string>() + "\" for these rules");
  return Status::Ok();
}

// force-placement: the opponent and the square.
static Status ReadForcePlay(const json& j, const std::string& wp, const model::Position& pos,
                            Play& p) {
  for (const char* k : {"opponent", "square"})
    if (!j.contains(k))
      return JsonError(wp + "/" + k,
                       "missing (force-placement names the opponent "
                       "and the square {\"x\", \"y\"})");
  auto opponent = ReadAnyInt(j["opponent"], wp + "/opponent");
  if (!opponent.ok()) return opponent.status();
  p.opponent = *opponent;
  if (p.opponent < 0 || p.opponent >= static_cast<int>(pos.players.size()))
    return JsonError(wp + "/opponent", "no player " + std::to_string(p.opponent));
  const json& sq = j["square"];
  if (!sq.is_object() || !sq.contains("x") || !sq.contains("y") || !ReadAnyInt(sq["x"], wp).ok() ||
      !ReadAnyInt(sq["y"], wp).ok())
    return JsonError(wp + "/square", "expected {\"x\": .., \"y\": ..}");
  p.square = {*ReadAnyInt(sq["x"], wp), *ReadAnyInt(sq["y"], wp)};
  return Status::Ok();
}

// A swap card: the player's figure "own" and the opponent's "other".
static Status ReadSwapPlay(const json& j, const std::string& wp, const model::Position& pos,
                           Play& p) {
  for (const char* k : {"own", "other"})
    if (!j.contains(k))
      return JsonError(wp + "/" + k, "missing (" + std::string(Info(p.card).name) +
                                         " names the player's figure \"own\" and the opponent's "
                                         "figure \"other\", each {\"x\", \"y\", \"feature\"})");
  auto n1 = ReadTarget(j["own"], pos, wp + "/own");
  if (!n1.ok()) return n1.status();
  auto n2 = ReadTarget(j["other"], pos, wp + "/other");
  if (!n2.ok()) return n2.status();
  p.node = *n1;
  p.other_node = *n2;
  if (j.contains("other_owner")) {
    auto owner = ReadAnyInt(j["other_owner"], wp + "/other_owner");
    if (!owner.ok()) return owner.status();
    if (*owner < 0 || *owner >= static_cast<int>(pos.players.size()))
      return JsonError(wp + "/other_owner", "no player " + std::to_string(*owner));
    p.other_owner = *owner;
  }
  // XMAS-CARD-SWAP-*: the two figures' kinds, where an owner has several kinds on the segment.
  if (Status st = ReadFigureKind(j, wp, pos, "own_figure", p.figure_kind); !st.ok()) return st;
  return ReadFigureKind(j, wp, pos, "other_figure", p.other_kind);
}

// The card's own parameters: tiles (take-two-tiles), figures (swaps) or a feature.
static Status ReadPlayParams(const json& j, const std::string& wp, const model::Position& pos,
                             Play& p) {
  if (p.card == Card::kForcePlacement) return ReadForcePlay(j, wp, pos, p);
  if (IsSwap(p.card)) return ReadSwapPlay(j, wp, pos, p);
  if (p.card == Card::kTakeTwoTiles) {
    if (!j.contains("tiles")) return Status::Ok();
    if (!j["tiles"].is_array() || j["tiles"].size() != 2)
      return JsonError(wp + "/tiles", "expected the two tiles drawn");
    auto t1 = ReadActionTile(j["tiles"][0], wp + "/tiles/0", pos);
    if (!t1.ok()) return t1.status();
    auto t2 = ReadActionTile(j["tiles"][1], wp + "/tiles/1", pos);
    if (!t2.ok()) return t2.status();
    p.tile1 = *t1;
    p.tile2 = *t2;
    return Status::Ok();
  }
  if (!NamesFeature(p.card)) return Status::Ok();
  if (!j.contains("target"))
    return JsonError(wp + "/target", "missing: " + std::string(Info(p.card).name) +
                                         " names a feature {\"x\", \"y\", \"feature\"}");
  auto n = ReadTarget(j["target"], pos, wp + "/target");
  if (!n.ok()) return n.status();
  p.node = *n;
  if (j.contains("owner")) {
    auto owner = ReadAnyInt(j["owner"], wp + "/owner");
    if (!owner.ok()) return owner.status();
    if (*owner < 0 || *owner >= static_cast<int>(pos.players.size()))
      return JsonError(wp + "/owner", "no player " + std::to_string(*owner));
    p.owner = *owner;
  }
  // XMAS-CARD-RETURN-FIGURE: the figure's kind, when the owner has figures of several kinds on
  // the segment (SettleReturn asks for it then).
  if (p.card == Card::kReturnFigure) return ReadFigureKind(j, wp, pos, "figure", p.figure_kind);
  return Status::Ok();
}

std::optional<model::StatusOr<Action>> ParseXmasAction(const json& jj, const model::Position& pos,
                                                       const std::string& w) {
  if (!jj.is_object() || !jj.contains("type") || !jj["type"].is_string()) return std::nullopt;
  const std::string type = jj["type"].get<std::string>();
  static const char* kTypes[] = {"xmas_draw_card", "xmas_play",    "xmas_cancel",
                                 "xmas_allow",     "xmas_discard", "xmas_keep_tile"};
  int code = 0;
  for (int i = 0; i < 6; ++i)
    if (type == kTypes[i]) code = i + 1;
  if (code == 0) return std::nullopt;
  // The parameters sit at the top level or, inside the keys the core's action reader accepts,
  // in a "kind" object: {"type": "xmas_play", "kind": {"card": "3-points"}}.
  const bool nested = jj.contains("kind") && jj["kind"].is_object();
  const json& j = nested ? jj["kind"] : jj;
  const std::string wp = nested ? w + "/kind" : w;
  if (nested)
    for (auto it = jj.begin(); it != jj.end(); ++it)
      if (it.key() != "type" && it.key() != "kind")
        return JsonError(w + "/" + it.key(), "unknown field (parameters go inside \"kind\")");
  if (Status st = model::CheckKeys(
          j, wp,
          {"type", "card", "player", "deck", "target", "owner", "own", "other", "other_owner",
           "opponent", "square", "tiles", "tile", "figure", "own_figure", "other_figure"});
      !st.ok())
    return st;
  if (code != kPlay) return ReadCardAction(code, j, wp, pos);
  auto c = ReadActionCard(j, wp);
  if (!c.ok()) return c.status();
  Play p;
  p.card = static_cast<Card>(*c);
  auto pl = ReadActionPlayer(j, wp, pos, pos.turn.player);
  if (!pl.ok()) return pl.status();
  p.player = *pl;
  if (Status st = ReadPlayParams(j, wp, pos, p); !st.ok()) return st;
  return EncodePlay(p);
}

void DumpFlat(const model::Position& pos, const Action& a, json& j);

// One shape, flat: the parameters beside "type", as the README's table writes them (the reader
// also takes them inside a "kind" object).
void DumpXmasAction(const model::Position& pos, const Action& a, json& out) {
  DumpFlat(pos, a, out);
}

void DumpFlat(const model::Position& pos, const Action& a, json& j) {
  const auto& cat = *pos.cfg().catalog;
  switch (a.code) {
    case kDrawCard:
      j = {{"type", "xmas_draw_card"}, {"deck", DeckName(kDeckArg(a))}};
      if (kDrawnArg.Has(a)) j["card"] = Info(kDrawnArg(a)).name;
      return;
    case kCancel:
      j = {{"type", "xmas_cancel"}, {"player", kAnswerArg(a)}};
      return;
    case kAllow:
      j = {{"type", "xmas_allow"}, {"player", kAnswerArg(a)}};
      return;
    case kDiscard:
      j = {{"type", "xmas_discard"}, {"card", Info(kCardArg(a)).name}, {"player", kPlayerArg(a)}};
      return;
    case kKeepTile:
      j = {{"type", "xmas_keep_tile"}, {"tile", cat.Name(kTileArg(a))}};
      return;
    default:
      break;
  }
  Play p = DecodePlay(a);
  // Key by key: an initializer list is copied element by element (the brute force
  // writes every card play it reads back).
  j = json::object();
  j["type"] = "xmas_play";
  j["card"] = Info(p.card).name;
  j["player"] = p.player;
  if (p.card == Card::kForcePlacement) {
    j["opponent"] = p.opponent;
    j["square"] = {{"x", p.square.x}, {"y", p.square.y}};
  } else if (p.card == Card::kTakeTwoTiles) {
    if (p.tile1 >= 0) j["tiles"] = {cat.Name(p.tile1), cat.Name(p.tile2)};
  } else if (IsSwap(p.card)) {
    j["own"] = FeatureRef(pos, p.node);
    j["other"] = FeatureRef(pos, p.other_node);
    if (p.other_owner >= 0) j["other_owner"] = p.other_owner;
    if (p.figure_kind >= 0) j["own_figure"] = pos.cfg().figure_kinds[p.figure_kind].name;
    if (p.other_kind >= 0) j["other_figure"] = pos.cfg().figure_kinds[p.other_kind].name;
  } else if (p.node >= 0) {
    j["target"] = FeatureRef(pos, p.node);
    if (p.owner >= 0) j["owner"] = p.owner;
    if (p.figure_kind >= 0) j["figure"] = pos.cfg().figure_kinds[p.figure_kind].name;
  }
}

std::string DescribeXmasAction(const model::Position& pos, const Action& a) {
  const auto& cat = *pos.cfg().catalog;
  auto who = [&](int p) {
    return p >= 0 && p < static_cast<int>(pos.players.size()) ? pos.players[p].name
                                                              : "player " + std::to_string(p);
  };
  // A figure kind the play names, by its role on the feature at `node` ("phantom knight").
  auto kind = [&](int k, int node) {
    return model::FigureRole(pos, k, pos.board.segment(node).kind);
  };
  switch (a.code) {
    case kDrawCard:
      return "draw the top card of the " + std::string(DeckName(kDeckArg(a))) + " deck" +
             (kDrawnArg.Has(a) ? " (" + std::string(Info(kDrawnArg(a)).name) + ")" : "");
    case kCancel:
      return who(kAnswerArg(a)) + " cancels the attack with cancel-attack";
    case kAllow:
      return who(kAnswerArg(a)) + " lets the attack act";
    case kDiscard:
      return who(kPlayerArg(a)) + " discards " + Info(kCardArg(a)).name;
    case kKeepTile:
      return "keep tile " + cat.Name(kTileArg(a)) + " of the two drawn";
    default:
      break;
  }
  Play p = DecodePlay(a);
  std::string s = who(p.player) + " plays " + Info(p.card).name;
  if (p.card == Card::kForcePlacement)
    s += " on " + who(p.opponent) + ": square " + internal::SquareAt(p.square);
  else if (p.card == Card::kTakeTwoTiles && p.tile1 >= 0)
    s += " (tiles " + cat.Name(p.tile1) + " and " + cat.Name(p.tile2) + ")";
  else if (IsSwap(p.card))
    s += ": " +
         (p.figure_kind >= 0 ? "the " + kind(p.figure_kind, p.node) + " on " : std::string()) +
         model::FeatureAt(pos, p.node) + " with " +
         (p.other_owner >= 0
              ? who(p.other_owner) + "'s " +
                    (p.other_kind >= 0 ? kind(p.other_kind, p.other_node) : "figure") + " on "
          : p.other_kind >= 0 ? "the " + kind(p.other_kind, p.other_node) + " on "
                              : std::string()) +
         model::FeatureAt(pos, p.other_node);
  else if (p.node >= 0)
    s += " on " +
         (p.card == Card::kReturnFigure && p.owner >= 0
              ? who(p.owner) + "'s " +
                    (p.figure_kind >= 0 ? kind(p.figure_kind, p.node) : "figure") + " on "
          : p.figure_kind >= 0 ? "the " + kind(p.figure_kind, p.node) + " on "
                               : std::string()) +
         model::FeatureAt(pos, p.node);
  return s;
}

}  // namespace carc::exp::christmas_present

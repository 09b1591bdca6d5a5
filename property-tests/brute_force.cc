#include "property-tests/brute_force.h"

#include <algorithm>
#include <functional>

#include "model/core/board.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/christmas_present/cards.h"

namespace carc::prop {

using model::Action;
using model::Board;
using model::Position;
using nlohmann::json;

namespace {

// The domains the candidates range over.
struct Domains {
  std::vector<json> refs;           // every segment of every tile: {"x", "y", "feature"}
  std::vector<json> figure_refs;    // the segment of every figure on the board
  std::vector<json> empty_squares;  // {"x", "y"}: every empty square of the bounding box + 1
  std::vector<std::string> kinds;   // figure kinds
  int players = 0;
};

Domains MakeDomains(const Position& pos) {
  Domains d;
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  for (int t = 0; t < pos.board.size(); ++t) {
    const model::Coord c = pos.board.tile(t).pos;
    x0 = std::min(x0, c.x), y0 = std::min(y0, c.y), x1 = std::max(x1, c.x), y1 = std::max(y1, c.y);
    for (int s = 0; s < static_cast<int>(pos.board.rotated(t).segments.size()); ++s)
      d.refs.push_back(model::FeatureRefJson(pos, Board::Node(t, s)));
  }
  for (const model::Figure& f : pos.figures)
    d.figure_refs.push_back(model::FeatureRefJson(pos, f.node));
  for (int x = x0 - 1; x <= x1 + 1; ++x)
    for (int y = y0 - 1; y <= y1 + 1; ++y) {
      bool used = false;
      for (int t = 0; t < pos.board.size() && !used; ++t)
        used = pos.board.tile(t).pos.x == x && pos.board.tile(t).pos.y == y;
      if (!used) d.empty_squares.push_back({{"x", x}, {"y", y}});
    }
  for (const auto& k : pos.cfg().figure_kinds) d.kinds.push_back(k.name);
  d.players = static_cast<int>(pos.players.size());
  return d;
}

json With(json a, const json& b) {
  a.update(b);
  return a;
}

// The Messengers: the figure for waiting points, the message drawn, the seal, a message carried
// out with or without a target (README of model/expansions/messengers).
void MessengersCandidates(const Domains& d, std::vector<json>& out) {
  static const char* kMessages[] = {"smallest-road", "smallest-city",   "monastery",
                                    "extra-tile",    "coats-of-arms",   "knights",
                                    "farmers",       "score-and-return"};
  for (const char* f : {"meeple", "dame"}) out.push_back({{"type", "assign_points"}, {"kind", f}});
  out.push_back({{"type", "take_seal"}});
  for (const char* m : kMessages) {
    out.push_back({{"type", "draw_message"}, {"kind", m}});
    out.push_back({{"type", "take_seal"}, {"kind", m}});
    json carry = {{"type", "carry_out_message"}, {"kind", m}};
    out.push_back(carry);
    for (const json& r : d.refs) {
      out.push_back(With(carry, r));
      // Message 8 naming the figure kind (two own kinds on one segment).
      if (std::string(m) == "score-and-return")
        for (const std::string& k : d.kinds) out.push_back(With(With(carry, r), {{"figure", k}}));
    }
  }
}

// The Gifts: each card opened without a target, on every segment, and on every segment with
// every figure kind; the second choice of Change Position; the card drawn from an unordered deck.
void GiftsCandidates(const Domains& d, std::vector<json>& out) {
  static const char* kCards[] = {"synod", "road_sweeper", "change_position", "cash_out", "take_2"};
  for (const char* c : kCards) {
    const json open = {{"type", std::string("gift_") + c}};
    out.push_back(open);
    for (const json& r : d.refs) {
      out.push_back(With(open, r));
      for (const std::string& k : d.kinds) out.push_back(With(With(open, r), {{"kind", k}}));
    }
    out.push_back({{"type", "gift_draw"}, {"kind", c}});
  }
  for (const json& r : d.refs) out.push_back(With({{"type", "gift_position_to"}}, r));
}

// Christmas Present: draws (each deck, unnamed and naming each card), answers and discards by
// every player, the tile kept, and every card in a hand played by its holder in every shape the
// card takes (no target; every segment as target, return-figure with every owner; swaps between
// the segments of every two figures, with every other_owner; force-placement on every opponent and
// empty square).
void ChristmasCandidates(const Position& pos, const Domains& d, std::vector<json>& out) {
  namespace xp = exp::christmas_present;
  const json dump = model::DumpPosition(pos);
  const json& s = dump["expansions"]["christmas_present"];
  for (const char* deck : {"monastery", "road"}) {
    out.push_back({{"type", "xmas_draw_card"}, {"deck", deck}});
    for (int c = 0; c < xp::kCardKinds; ++c)
      out.push_back({{"type", "xmas_draw_card"},
                     {"deck", deck},
                     {"card", xp::Info(static_cast<xp::Card>(c)).name}});
  }
  for (int p = 0; p < d.players; ++p) {
    out.push_back({{"type", "xmas_cancel"}, {"player", p}});
    out.push_back({{"type", "xmas_allow"}, {"player", p}});
  }
  for (const auto& t : CandidateTiles(pos))
    out.push_back({{"type", "xmas_keep_tile"}, {"tile", pos.cfg().catalog->Name(t)}});
  if (!s.contains("hands")) return;
  for (int p = 0; p < d.players && p < static_cast<int>(s["hands"].size()); ++p)
    for (const json& card : s["hands"][p]) {
      const std::string name = card.get<std::string>();
      out.push_back({{"type", "xmas_discard"}, {"card", name}});
      out.push_back({{"type", "xmas_discard"}, {"card", name}, {"player", p}});
      const json play = {{"type", "xmas_play"}, {"card", name}, {"player", p}};
      out.push_back(play);
      auto c = xp::ParseCard(name);
      if (!c) continue;
      if (*c == xp::Card::kForcePlacement) {
        for (int o = 0; o < d.players; ++o)
          for (const json& sq : d.empty_squares)
            out.push_back(With(play, {{"opponent", o}, {"square", sq}}));
      } else if (xp::IsSwap(*c)) {
        for (const json& own : d.figure_refs)
          for (const json& other : d.figure_refs) {
            out.push_back(With(play, {{"own", own}, {"other", other}}));
            // Two opponents' figures on one segment: other_owner says whose.
            for (int o = 0; o < d.players; ++o)
              out.push_back(With(play, {{"own", own}, {"other", other}, {"other_owner", o}}));
          }
      } else {
        for (const json& r : d.refs) {
          out.push_back(With(play, {{"target", r}}));
          if (*c == xp::Card::kReturnFigure)
            for (int o = 0; o < d.players; ++o)
              out.push_back(With(play, {{"target", r}, {"owner", o}}));
        }
      }
    }
}

}  // namespace

std::vector<model::TileType> CandidateTiles(const Position& pos) {
  std::vector<model::TileType> out;
  if (pos.turn.drawn) out.push_back(*pos.turn.drawn);
  if (pos.cfg().expansions.empty()) return out;
  const json dump = model::DumpPosition(pos);
  if (!dump.contains("expansions")) return out;
  const json& e = dump["expansions"];
  std::vector<json> lists;
  if (e.contains("gifts") && e["gifts"].contains("turn") &&
      e["gifts"]["turn"].contains("held_tiles"))
    lists.push_back(e["gifts"]["turn"]["held_tiles"]);
  if (e.contains("christmas_present") && e["christmas_present"].contains("two_tiles"))
    lists.push_back(e["christmas_present"]["two_tiles"]);
  for (const json& l : lists)
    for (const json& name : l)
      if (auto t = pos.cfg().catalog->Find(name.get<std::string>()))
        if (std::find(out.begin(), out.end(), *t) == out.end()) out.push_back(*t);
  return out;
}

std::vector<json> ExpansionCandidates(const Position& pos) {
  std::vector<json> out;
  const Domains d = MakeDomains(pos);
  for (const model::Expansion* e : pos.cfg().expansions) {
    if (e->Id() == "messengers") MessengersCandidates(d, out);
    if (e->Id() == "gifts") GiftsCandidates(d, out);
    if (e->Id() == "christmas_present") ChristmasCandidates(pos, d, out);
  }
  return out;
}

namespace {

// Every {"x", "y", "feature"} below j names its feature's least segment.
void CanonicalRefs(const Position& pos, json& j) {
  if (j.is_array())
    for (json& e : j) CanonicalRefs(pos, e);
  if (!j.is_object()) return;
  if (j.contains("x") && j.contains("y") && j.contains("feature")) {
    json ref = {{"x", j["x"]}, {"y", j["y"]}, {"feature", j["feature"]}};
    auto node = model::ParseFeatureRef(ref, pos, "", model::IoContext{.source = ""});
    if (node.ok()) {
      const int root = pos.board.Find(*node);
      int least = *node;
      for (int t = 0; t < pos.board.size(); ++t)
        for (int s = 0; s < static_cast<int>(pos.board.rotated(t).segments.size()); ++s)
          if (Board::Node(t, s) < least && pos.board.Find(Board::Node(t, s)) == root)
            least = Board::Node(t, s);
      j.update(model::FeatureRefJson(pos, least));
    }
  }
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it->is_structured()) CanonicalRefs(pos, *it);
}

}  // namespace

std::string EffectKeyOf(const Position& after, const Action& a) {
  json d = model::DumpPosition(after);
  if (d.contains("expansions")) CanonicalRefs(after, d["expansions"]);
  return std::string(a.expansion ? a.expansion->Id() : "?") + " effect " +
         std::to_string(std::hash<std::string>{}(d.dump()));
}

std::string EffectKey(const Position& pos, const Action& a) {
  if (a.type != model::ActionType::kExpansion) return "";
  Position p = pos;
  model::Apply(p, a, /*finish_turn=*/false);
  return EffectKeyOf(p, a);
}

}  // namespace carc::prop

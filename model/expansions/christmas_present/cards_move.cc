// The cards that move figures already on the board (family.h): swap-monastery, swap-city,
// swap-road, swap-field (the player's figure and an opponent's trade places) and return-figure
// (a figure goes back to its owner's supply, XMAS-Q-RETURN). Fixtures: x58-x65, x100, x101.
#include <set>
#include <vector>

#include "model/core/core_steps.h"
#include "model/core/json_reader.h"
#include "model/core/scoring.h"
#include "model/expansions/christmas_present/family.h"

namespace carc::exp::christmas_present {

using internal::FindFigure;
using internal::KindName;
using model::ApplyResult;
using model::FeatureKind;
using model::PlayerId;
using model::Position;

namespace {

// The owner has figures of several kinds on the segment (a meeple and a phantom): a play that
// takes one of them must name its kind.
bool KindsShare(const Position& pos, int node, int owner) {
  int kind = -1;
  for (const model::Figure& g : pos.figures) {
    if (g.node != node || g.owner != owner) continue;
    if (kind >= 0 && g.kind != kind) return true;
    kind = g.kind;
  }
  return false;
}

// Whether figure i is the first of its owner's figures of its kind on its segment (another of
// the same kind there adds no play); `several`: its owner has figures of several kinds there.
bool FirstOfKind(const Position& pos, size_t i, bool& several) {
  const model::Figure& f = pos.figures[i];
  bool first = true;
  several = false;
  for (size_t k = 0; k < pos.figures.size(); ++k) {
    const model::Figure& g = pos.figures[k];
    if (g.node != f.node || g.owner != f.owner) continue;
    if (g.kind != f.kind)
      several = true;
    else if (k < i)
      first = false;
  }
  return first;
}

// The kind's name, or "figure" for a kind not stated (-1).
std::string KindWord(const Position& pos, int kind) {
  return kind >= 0 ? pos.cfg().figure_kinds[kind].name : std::string("figure");
}

// The opponent's figure a swap takes: on `other_node`, not the player's, of `other_owner` and of
// kind `other_kind` when stated; -1 if none (the last such figure, as the swap has always taken).
int OtherFigure(const Position& pos, const Play& p) {
  int b = -1;
  for (size_t f = 0; f < pos.figures.size(); ++f) {
    const model::Figure& g = pos.figures[f];
    if (g.node == p.other_node && g.owner != p.player &&
        (p.other_owner < 0 || g.owner == p.other_owner) &&
        (p.other_kind < 0 || g.kind == p.other_kind))
      b = static_cast<int>(f);
  }
  return b;
}

// XMAS-CARD-SWAP-MONASTERY/-CITY/-ROAD/-FIELD: the player's figure and an opponent's figure on
// two features of the card's kind; neither on a feature scored earlier (a laid-down figure stays
// until the game ends, XMAS-FN11).
bool CheckSwap(const Position& pos, const Play& p, Window, Judge& j) {
  const CardInfo& ci = Info(p.card);
  if (p.node < 0 || p.other_node < 0) return j.No(ci.ruling, [] { return "names two figures"; });
  for (int n : {p.node, p.other_node})
    if (pos.board.segment(n).kind != *ci.kind)
      return j.No(ci.ruling, [&] {
        return std::string(ci.name) + " swaps figures on two " + KindName(*ci.kind) + "s; " +
               model::FeatureAt(pos, n) + " is not one";
      });
  if (FindFigure(pos, p.node, p.player, p.figure_kind) < 0)
    return j.No(ci.ruling, [&] {
      return "no " + KindWord(pos, p.figure_kind) + " of " + pos.players[p.player].name +
             " on the " + model::FeatureAt(pos, p.node);
    });
  if (OtherFigure(pos, p) < 0)
    return j.No(ci.ruling, [&] {
      return "no " +
             (p.other_owner >= 0 && p.other_owner < static_cast<int>(pos.players.size())
                  ? KindWord(pos, p.other_kind) + " of " + pos.players[p.other_owner].name
                  : "opponent's " + KindWord(pos, p.other_kind)) +
             " on the " + model::FeatureAt(pos, p.other_node);
    });
  for (int n : {p.node, p.other_node})
    if (internal::CompletedEarlier(pos, internal::Root(pos, n)))
      return j.No(ci.ruling, [] {
        return "a figure on a feature scored earlier (laid down until the game ends) cannot move";
      });
  return j.Yes(ci.ruling,
               [] { return "the player's figure and the opponent's figure trade places"; });
}

// Each of the player's figures with each opponent's figure, both on features of the card's
// kind (the others fail CheckSwap's first test, so they are not visited), a figure's kind named
// where its owner has figures of several kinds on its segment, and one play per kind there (a
// second figure of the same owner and kind on the segment adds none). The opponents' figures of
// the kind are sorted out once, during the first figure's pairs (a question that stops at the
// first play reads no further), not once per pair; on the stack for a usual board.
bool SwapTargets(const Position& pos, const Play& card, Visit visit) {
  const FeatureKind kind = *Info(card.card).kind;
  struct Their {
    int figure;
    int kind;  // named in the play (-1: not named)
  };
  constexpr size_t kFew = 128;
  const size_t n = pos.figures.size();
  Their few[kFew];
  std::vector<Their> many(n > kFew ? n : 0);
  Their* const theirs = n > kFew ? many.data() : few;
  size_t n_theirs = 0, scanned = 0;
  bool several = false;
  // The next opponent's figure of the kind after those listed, or -1.
  const auto next = [&]() -> int {
    while (scanned < n) {
      const size_t i = scanned++;
      const auto& g = pos.figures[i];
      if (g.owner != card.player && pos.board.segment(g.node).kind == kind &&
          FirstOfKind(pos, i, several)) {
        theirs[n_theirs++] = {static_cast<int>(i), several ? g.kind : -1};
        return static_cast<int>(i);
      }
    }
    return -1;
  };
  Play p = card;
  for (size_t i = 0; i < n; ++i) {
    const auto& f = pos.figures[i];
    if (f.owner != card.player || pos.board.segment(f.node).kind != kind) continue;
    if (!FirstOfKind(pos, i, several)) continue;
    p.node = f.node;
    p.figure_kind = several ? f.kind : -1;
    for (size_t k = 0;; ++k) {
      if (k == n_theirs && next() < 0) break;
      const auto& g = pos.figures[theirs[k].figure];
      p.other_node = g.node;
      p.other_owner = g.owner;
      p.other_kind = theirs[k].kind;
      if (visit(p)) return true;
    }
  }
  return false;
}

// XMAS-CARD-SWAP-*: the figures trade places; each lies or stands as its new place demands
// (XMAS-FN11: a laid-down feature lays down every figure that joins it; off one, a figure
// stands again unless in a field).
bool ResolveSwap(Position& pos, const Play& p, ApplyResult& r) {
  const State& s = *Slice(pos);
  const int a = FindFigure(pos, p.node, p.player, p.figure_kind);
  const int b = OtherFigure(pos, p);
  if (a < 0 || b < 0) return true;
  std::swap(pos.figures[a].node, pos.figures[b].node);
  for (int f : {a, b})
    pos.figures[f].lying = pos.board.segment(pos.figures[f].node).kind == FeatureKind::kField ||
                           IsLaidDown(pos, s, pos.board.Find(pos.figures[f].node));
  r.verdict.reasons.push_back({Info(p.card).ruling, "the two figures trade places"});
  return true;
}

// XMAS-CARD-SWAP-*: whose figure a swap takes when figures of several opponents share the
// segment named, and which kinds when an owner has figures of several kinds on a segment named
// (a meeple and a phantom): the file must say (no silent pick); once known they are part of
// the play. The settled play is the listed form (SwapTargets): the other figure's owner always
// stated, a kind only where its owner has several kinds on the segment (one stated elsewhere
// names the only kind there, CheckSwap having found it), so equivalent wordings of a play leave
// the same pending attack (XMAS-FN8) and so the same position.
std::string SettleSwap(const Position& pos, Play& p) {
  const std::string name = Info(p.card).name;
  if (p.other_owner < 0) {
    std::set<PlayerId> owners;
    for (const auto& f : pos.figures)
      if (f.node == p.other_node && f.owner != p.player) owners.insert(f.owner);
    if (owners.size() > 1)
      return name + ": figures of " + std::to_string(owners.size()) + " players stand on the " +
             model::FeatureAt(pos, p.other_node) + "; state whose (\"other_owner\")";
    if (owners.size() == 1) p.other_owner = *owners.begin();
  }
  std::string out;
  const auto ask = [&](PlayerId owner, int node, const char* key) {
    out += (out.empty() ? name + ": " : std::string("; ")) + pos.players[owner].name +
           " has figures of several kinds on the " + model::FeatureAt(pos, node) +
           "; state which (\"" + key + "\")";
  };
  const bool own_kinds = KindsShare(pos, p.node, p.player);
  const bool other_kinds = p.other_owner >= 0 && KindsShare(pos, p.other_node, p.other_owner);
  if (p.figure_kind < 0 && own_kinds) ask(p.player, p.node, "own_figure");
  if (p.other_kind < 0 && other_kinds) ask(p.other_owner, p.other_node, "other_figure");
  if (!own_kinds) p.figure_kind = -1;
  if (!other_kinds) p.other_kind = -1;
  return out;
}

// XMAS-CARD-RETURN-FIGURE, XMAS-Q-RETURN (own-figure: one of the holder's own figures;
// opponent-attack: any player's).
bool CheckReturn(const Position& pos, const Play& p, Window, Judge& j) {
  const State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  const bool own = s.variants.return_whose() == ReturnWhose::kOwnFigure;
  const int owner = own ? p.player : p.owner;
  if (own && p.owner >= 0 && p.owner != p.player)
    return j.No("XMAS-Q-RETURN",
                [] { return "own-figure: the card returns one of the holder's own figures"; });
  if (p.node < 0 || FindFigure(pos, p.node, owner, p.figure_kind) < 0)
    return j.No(ci.ruling, [&] {
      return "no " + KindWord(pos, p.figure_kind) + " of " +
             (owner >= 0 ? pos.players[owner].name : "any player") + " stands on the feature named";
    });
  j.Yes(ci.ruling, [] { return "one figure returns from the board to its owner's supply"; });
  return j.Yes("XMAS-Q-RETURN", [&] {
    return std::string(own ? "the holder's own figure" : "any player's figure");
  });
}

// XMAS-Q-RETURN: every figure the card may take (own-figure: the player's figures only), its kind
// named where the owner has figures of several kinds on the segment.
bool ReturnTargets(const Position& pos, const Play& card, Visit visit) {
  const bool own = Slice(pos)->variants.return_whose() == ReturnWhose::kOwnFigure;
  Play p = card;
  for (const auto& f : pos.figures) {
    p.node = f.node;
    p.owner = own ? -1 : f.owner;
    if (own && f.owner != card.player) continue;
    p.figure_kind = KindsShare(pos, f.node, f.owner) ? f.kind : -1;
    // One play per figure it may take: a second figure of the same kind adds none.
    if (FindFigure(pos, f.node, f.owner, f.kind) != &f - pos.figures.data()) continue;
    if (visit(p)) return true;
  }
  return false;
}

// XMAS-CARD-RETURN-FIGURE, XMAS-Q-RETURN: the figure goes back to its owner's supply.
bool ResolveReturn(Position& pos, const Play& p, ApplyResult& r) {
  const bool own = Slice(pos)->variants.return_whose() == ReturnWhose::kOwnFigure;
  const int f = FindFigure(pos, p.node, own ? p.player : p.owner, p.figure_kind);
  if (f < 0) return true;
  r.notes.push_back({Info(p.card).ruling, "the " +
                                              pos.cfg().figure_kinds[pos.figures[f].kind].name +
                                              " of " + pos.players[pos.figures[f].owner].name +
                                              " returns to its owner's supply"});
  model::ReturnFigures(pos, {f});
  return true;
}

// XMAS-Q-RETURN: whose figure return-figure takes (opponent-attack) when figures of several players
// share the segment named, and which kind when the owner has several kinds there (a meeple and a
// phantom): the file must say; the model never picks.
std::string SettleReturn(const Position& pos, Play& p) {
  const bool own = Slice(pos)->variants.return_whose() == ReturnWhose::kOwnFigure;
  if (p.owner < 0 && !own) {
    std::set<PlayerId> owners;
    for (const auto& f : pos.figures)
      if (f.node == p.node) owners.insert(f.owner);
    if (owners.size() > 1)
      return std::string(Info(p.card).name) + ": figures of " + std::to_string(owners.size()) +
             " players stand on the " + model::FeatureAt(pos, p.node) + "; state whose (\"owner\")";
    if (owners.size() == 1) p.owner = *owners.begin();
  }
  const int owner = own ? p.player : p.owner;
  if (p.figure_kind < 0 && owner >= 0 && FindFigure(pos, p.node, owner, -1) >= 0 &&
      KindsShare(pos, p.node, owner))
    return std::string(Info(p.card).name) + ": " + pos.players[owner].name +
           " has figures of several kinds on the " + model::FeatureAt(pos, p.node) +
           "; state which (\"figure\")";
  return {};
}

}  // namespace

const Family& MoveCards() {
  static const Family kFamily{
      .name = "swap",
      .cards = {Card::kSwapMonastery, Card::kSwapCity, Card::kSwapRoad, Card::kSwapField},
      .shape = Shape::kTwoFigures,
      .check = CheckSwap,
      .targets = SwapTargets,
      .resolve = ResolveSwap,
      .settle = SettleSwap,
  };
  return kFamily;
}

const Family& ReturnCards() {
  static const Family kFamily{
      .name = "return",
      .cards = {Card::kReturnFigure},
      .check = CheckReturn,
      .targets = ReturnTargets,
      .resolve = ResolveReturn,
      .settle = SettleReturn,
  };
  return kFamily;
}

}  // namespace carc::exp::christmas_present

// The tile cards (family.h): take-two-tiles (two tiles drawn before the turn's draw, one kept)
// and force-placement (an opponent's next tile goes on a square, XMAS-Q-FORCE). The forced
// placement itself is judged by the step before the tile step (force_steps.cc); the choice of
// the kept tile by xmas_turn_start (steps.cc). Fixtures: x66-x70, x96, x98, x99, x102, x103,
// a14, a15, p01.
#include "model/core/json_reader.h"
#include "model/expansions/christmas_present/family.h"

namespace carc::exp::christmas_present {

using model::ApplyResult;
using model::Position;

namespace {

bool FitsAnywhereAt(const Position& pos, model::TileType t, model::Coord c) {
  for (int r = 0; r < 4; ++r)
    if (pos.board.Check(t, c, r).ok()) return true;
  return false;
}

bool InFrontier(const Position& pos, model::Coord c) {
  if (pos.board.At(c)) return false;
  for (int side = 0; side < 4; ++side)
    if (pos.board.At(model::Neighbour(c, side))) return true;
  return false;
}

// XMAS-CARD-TAKE-TWO-TILES: two tiles left; with a known draw order they are the next two, else
// the play names two tiles the supply holds.
bool CheckTakeTwo(const Position& pos, const Play& p, Window, Judge& j) {
  const CardInfo& ci = Info(p.card);
  if (pos.supply.total() < 2)
    return j.No(ci.ruling, [] { return "fewer than two tiles are left to draw"; });
  if (pos.supply.ordered) {
    if (p.tile1 >= 0 && (p.tile1 != pos.supply.order[0] || p.tile2 != pos.supply.order[1]))
      return j.No(ci.ruling, [&] {
        return "the next two tiles are " + pos.cfg().catalog->Name(pos.supply.order[0]) + " and " +
               pos.cfg().catalog->Name(pos.supply.order[1]);
      });
  } else {
    if (p.tile1 < 0) return j.No(ci.ruling, [] { return "name the two tiles drawn (tiles)"; });
    // One of each tile named is left (two when both name one type); no copy of the counts
    // (asked per candidate pair when the plays are listed).
    const auto& c = pos.supply.counts;
    if (c[p.tile1] < 1 + (p.tile2 == p.tile1) || c[p.tile2] < 1 + (p.tile2 == p.tile1))
      return j.No(ci.ruling, [] { return "those tiles are not left in the supply"; });
  }
  return j.Yes(ci.ruling,
               [] { return "draws two tiles: one is placed, the other leaves the game"; });
}

// XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE (own-turn-next-tile: an empty square next to the
// board, one force per target; opponent-turn-on-draw: the active player's drawn tile must fit).
bool CheckForce(const Position& pos, const Play& p, Window w, Judge& j) {
  const State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  if (p.opponent == p.player || p.opponent < 0)
    return j.No(ci.ruling, [] { return "force-placement acts on an opponent"; });
  if (w == Window::kForce) {
    if (p.opponent != pos.turn.player)
      return j.No("XMAS-Q-FORCE", [] { return "it acts on the player whose turn it is"; });
    if (!pos.turn.drawn || !FitsAnywhereAt(pos, *pos.turn.drawn, p.square))
      return j.No("XMAS-Q-FORCE", [&] {
        return "the drawn tile cannot go on square " + internal::SquareAt(p.square);
      });
    j.Yes(ci.ruling, [&] {
      return "the opponent must place the drawn tile on " + internal::SquareAt(p.square);
    });
    return j.Yes("XMAS-Q-FORCE", [] { return "opponent-turn-on-draw"; });
  }
  if (!InFrontier(pos, p.square))
    return j.No(ci.ruling, [&] {
      return "square " + internal::SquareAt(p.square) + " is not an empty square next to the board";
    });
  for (const Force& f : s.forces)
    if (f.target == p.opponent)
      return j.No("XMAS-Q-FORCE", [&] {
        return "a forced placement already waits for " + pos.players[p.opponent].name;
      });
  j.Yes(ci.ruling, [&] {
    return pos.players[p.opponent].name + " must place their next tile on " +
           internal::SquareAt(p.square) + " if it fits there";
  });
  return j.Yes("XMAS-Q-FORCE", [] { return "own-turn-next-tile"; });
}

// With an unknown draw order, every pair of tile types (the play names the tiles drawn).
bool TakeTwoTargets(const Position& pos, const Play& card, Visit visit) {
  if (pos.supply.ordered) return visit(card);
  const int n = pos.board.catalog().size();
  Play p = card;
  for (int t1 = 0; t1 < n; ++t1)
    for (int t2 = t1; t2 < n; ++t2) {
      p.tile1 = t1;
      p.tile2 = t2;
      if (visit(p)) return true;
    }
  return false;
}

// Every opponent and every empty square next to the board (the player's own squares would
// fail CheckForce's first test: they are not visited).
bool ForceTargets(const Position& pos, const Play& card, Visit visit) {
  Play p = card;
  for (model::PlayerId q = 0; q < static_cast<int>(pos.players.size()); ++q) {
    if (q == card.player) continue;
    for (model::Coord sq : pos.board.Frontier()) {
      p.opponent = q;
      p.square = sq;
      if (visit(p)) return true;
    }
  }
  return false;
}

// XMAS-CARD-TAKE-TWO-TILES: the two tiles leave the supply; one is kept at xmas_turn_start, the
// other leaves the game.
bool ResolveTakeTwo(Position& pos, const Play& p, ApplyResult& r) {
  State& s = *Slice(pos);
  model::TileType t1 = p.tile1, t2 = p.tile2;
  if (pos.supply.ordered) {
    t1 = pos.supply.order[0];
    t2 = pos.supply.order[1];
    pos.supply.order.erase(pos.supply.order.begin(), pos.supply.order.begin() + 2);
  }
  pos.supply.counts[t1]--;
  pos.supply.counts[t2]--;
  s.two_tiles = {t1, t2};
  r.notes.push_back({"XMAS-CARD-TAKE-TWO-TILES", "drawn: " + pos.cfg().catalog->Name(t1) + " and " +
                                                     pos.cfg().catalog->Name(t2) +
                                                     "; one is kept, the other leaves the game"});
  return true;
}

// XMAS-Q-FORCE: the force waits for the target's next tile (it stays in play until spent).
bool ResolveForce(Position& pos, const Play& p, ApplyResult&) {
  Slice(pos)->forces.push_back({p.player, p.opponent, p.square});
  return false;
}

}  // namespace

const Family& TakeTwoCards() {
  static const Family kFamily{
      .name = "take-two",
      .cards = {Card::kTakeTwoTiles},
      .shape = Shape::kTiles,
      .check = CheckTakeTwo,
      .targets = TakeTwoTargets,
      .resolve = ResolveTakeTwo,
  };
  return kFamily;
}

const Family& ForceCards() {
  static const Family kFamily{
      .name = "force",
      .cards = {Card::kForcePlacement},
      .shape = Shape::kSquare,
      .check = CheckForce,
      .targets = ForceTargets,
      .resolve = ResolveForce,
  };
  return kFamily;
}

}  // namespace carc::exp::christmas_present

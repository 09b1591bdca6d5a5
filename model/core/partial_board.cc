#include "model/core/partial_board.h"

#include <algorithm>
#include <set>

#include "model/core/feature_path.h"
#include "model/core/scoring.h"

namespace carc::model {

namespace {

constexpr int kDx[8] = {0, 1, 1, 1, 0, -1, -1, -1};  // N, NE, E, SE, S, SW, W, NW
constexpr int kDy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};

// A square the file states: a tile lies there, or it is known empty (board_empty).
bool Stated(const Position& pos, Coord c) { return pos.board.At(c) || pos.KnownEmpty(c); }

// The distinct tiles of a feature, in placement order.
std::vector<int> Tiles(const Position& pos, int root) {
  std::vector<int> t = pos.board.Info(root).tiles;
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}

// "the road through (1, 0), (2, 0)"; "the monastery at (0, 0)". The tiles in order along the
// feature (a road from end to end), as the verdict's evidence lists them.
std::string Named(const Position& pos, int root) {
  const FeatureKind kind = pos.board.Info(root).kind;
  std::string out = "the " + std::string(FeatureKindName(kind));
  if (kind == FeatureKind::kMonastery)
    return out + " at " + CoordText(pos.board.tile(Board::TileOf(root)).pos);
  return out + " through " + CoordsText(FeatureTilesAlong(pos, root));
}

std::string Reaches(const Position& pos, int root, const FeatureEnd& e) {
  if (pos.board.Info(root).kind == FeatureKind::kMonastery)
    return Named(pos, root) + " has the square " + CoordText(e.at) +
           " next to it, which the file does not state";
  return Named(pos, root) + " reaches " + EndText(e);
}

// "Anna's meeple at (1, 0)", joined by commas.
std::string FiguresText(const Position& pos, const std::vector<int>& figs) {
  std::string out;
  for (int f : figs) {
    const Figure& fig = pos.figures[f];
    out += (out.empty() ? "" : ", ") +
           FigureText(pos, {fig.owner, fig.kind, pos.board.tile(Board::TileOf(fig.node)).pos});
  }
  return out;
}

// BASE-SCORE-TIMING: a road or city with a side towards a square known empty, or a monastery
// with a square around it known empty, is not completed, whatever lies beyond the stated board.
bool OpenAtEmpty(const Position& pos, int root) {
  const Board& b = pos.board;
  if (pos.board_empty.empty()) return false;
  if (b.Info(root).kind == FeatureKind::kMonastery) {
    const Coord m = b.tile(Board::TileOf(root)).pos;
    for (int k = 0; k < 8; ++k)
      if (pos.KnownEmpty({m.x + kDx[k], m.y + kDy[k]})) return true;
    return false;
  }
  for (int t : Tiles(pos, root)) {
    const RotatedTile& rt = b.rotated(t);
    for (size_t s = 0; s < rt.segments.size(); ++s)
      if (b.Find(Board::Node(t, static_cast<int>(s))) == root)
        for (int d = 0; d < 4; ++d)
          if ((rt.segments[s].sides & kSideBit[d]) && pos.KnownEmpty(Neighbour(b.tile(t).pos, d)))
            return true;
  }
  return false;
}

// A road, city or monastery of the turn's tile that the stated tiles do not show completed:
// whether the turn completes it (and scores it) depends on the unstated part whenever a figure
// stands in it or may stand in it beyond the stated board (BASE-SCORE-TIMING).
std::string OpenWithFigures(const Position& pos, int root) {
  const FeatureKind kind = pos.board.Info(root).kind;
  if (kind == FeatureKind::kField || pos.board.IsComplete(root) || OpenAtEmpty(pos, root))
    return "";
  const std::string beyond = FeatureBeyond(pos, root);
  if (beyond.empty()) return "";
  const std::vector<int> figs = pos.FiguresIn(root);
  if (!figs.empty())
    return beyond +
           ", so whether this turn completes and scores it depends on tiles the file "
           "does not state; it holds " +
           FiguresText(pos, figs);
  // A road or city that is not completed reaches beyond the stated board, where a figure the
  // file leaves out may stand; a monastery's figures stand on its own (stated) tile.
  if (std::string away = FiguresBeyond(pos); !away.empty() && kind != FeatureKind::kMonastery)
    return beyond + ", and a figure beyond the stated board may stand in it (" + away + ")";
  return "";
}

}  // namespace

std::optional<FeatureEnd> StatedEdge(const Position& pos, int root) {
  const Board& b = pos.board;
  const FeatureKind kind = b.Info(root).kind;
  if (kind == FeatureKind::kMonastery) {
    const Coord m = b.tile(Board::TileOf(root)).pos;
    for (int k = 0; k < 8; ++k)
      if (Coord c{m.x + kDx[k], m.y + kDy[k]}; !Stated(pos, c))
        return FeatureEnd{"stated edge", c, -1};
    return std::nullopt;
  }
  for (int t : Tiles(pos, root)) {
    const RotatedTile& rt = b.rotated(t);
    const Coord at = b.tile(t).pos;
    for (size_t s = 0; s < rt.segments.size(); ++s) {
      if (b.Find(Board::Node(t, static_cast<int>(s))) != root) continue;
      const Segment& sg = rt.segments[s];
      for (int d = 0; d < 4; ++d) {
        // Field halves 2d and 2d + 1 lie on side d (NL NR EL ER SL SR WL WR).
        const bool on_side =
            kind == FeatureKind::kField ? (sg.halves >> (2 * d)) & 3 : sg.sides & kSideBit[d];
        if (on_side && !Stated(pos, Neighbour(at, d))) return FeatureEnd{"stated edge", at, d};
      }
    }
  }
  return std::nullopt;
}

std::string FiguresBeyond(const Position& pos) {
  if (!pos.board_partial) return "";
  const auto& kinds = pos.cfg().figure_kinds;
  for (size_t p = 0; p < pos.players.size(); ++p)
    for (size_t k = 0; k < kinds.size(); ++k) {
      const int away = kinds[k].per_player - pos.players[p].supply[k] -
                       pos.FiguresOnBoard(static_cast<PlayerId>(p), static_cast<int>(k));
      if (away > 0)
        return pos.players[p].name + " has " + std::to_string(away) + " " + kinds[k].name +
               (away > 1 ? "s" : "") + " neither in supply nor on the stated board";
    }
  return "";
}

// BASE-END-FARM: a field's value is the completed cities it touches, so a field is decided
// only when it and every city it touches are enclosed by stated tiles.
std::string FeatureBeyond(const Position& pos, int root) {
  if (!pos.board_partial) return "";
  if (auto e = StatedEdge(pos, root)) return Reaches(pos, root, *e);
  if (pos.board.Info(root).kind != FeatureKind::kField) return "";
  for (int city : pos.board.TouchedCityRoots(root))
    if (auto e = StatedEdge(pos, city))
      return Named(pos, root) + " touches " + Reaches(pos, city, *e) +
             ": whether that city is completed is not stated";
  return "";
}

std::string PartialLegalList(const Position& pos) {
  if (!pos.board_partial) return "";
  return "the legal actions depend on the whole table: a tile may go next to a tile the file "
         "leaves out (ask apply about the disputed action instead)";
}

// Rules: BASE-PLACE-ADJ, BASE-PLACE-EDGE, BASE-MEEPLE-FREE, BASE-SCORE-TIMING.
PartialWhy PartialAction(const Position& before, const Action& a, const ApplyResult& r,
                         const Position& after) {
  if (!before.board_partial) return {};
  const Board& b = before.board;
  if (a.type == ActionType::kPlaceTile && before.turn.drawn) {
    const std::string tile = before.cfg().catalog->Name(*before.turn.drawn);
    std::vector<Coord> unstated;
    for (int d = 0; d < 4; ++d)
      if (!Stated(before, Neighbour(a.pos, d))) unstated.push_back(Neighbour(a.pos, d));
    // Four neighbours known empty: no tile next to it, illegal (BASE-PLACE-ADJ).
    if (!unstated.empty() &&
        b.Check(*before.turn.drawn, a.pos, a.rotation).problem == PlacementProblem::kNotAdjacent)
      return {"the square " + CoordText(a.pos) +
              " touches no stated tile, but a tile the file leaves out may lie next to it"};
    if (!r.verdict.legal) return {};  // a stated neighbour or the square itself decides
    if (!unstated.empty())
      return {"whether tile " + tile + " fits at " + CoordText(a.pos) + " depends on " +
              (unstated.size() == 1 ? "the square " : "the squares ") + CoordsText(unstated) +
              " next to it, which the file does not state (a tile there must match it); on a "
              "partial board a placement is judged when its four neighbours are stated (a tile, "
              "or a square known empty: board_empty)"};
    const auto placed = after.board.At(a.pos);
    if (!placed) return {};
    std::set<int> roots;
    const RotatedTile& rt = after.board.rotated(*placed);
    for (size_t s = 0; s < rt.segments.size(); ++s)
      roots.insert(after.board.Find(Board::Node(*placed, static_cast<int>(s))));
    for (int k = 0; k < 8; ++k)  // monasteries around the tile (BASE-SCORE-MONASTERY)
      if (auto t = after.board.At({a.pos.x + kDx[k], a.pos.y + kDy[k]}))
        for (size_t s = 0; s < after.board.rotated(*t).segments.size(); ++s)
          if (after.board.rotated(*t).segments[s].kind == FeatureKind::kMonastery)
            roots.insert(after.board.Find(Board::Node(*t, static_cast<int>(s))));
    for (int root : roots)
      if (std::string why = OpenWithFigures(after, root); !why.empty()) return {why, true};
    return {};
  }
  if (a.type == ActionType::kPlaceFigure && r.verdict.legal) {
    const auto t = a.has_pos ? after.board.At(a.pos) : std::optional<int>(after.turn.placed);
    if (!t || *t < 0 || a.segment < 0 ||
        a.segment >= static_cast<int>(after.board.rotated(*t).segments.size()))
      return {};
    const int root = after.board.Find(Board::Node(*t, a.segment));
    if (std::string why = OpenWithFigures(after, root); !why.empty()) return {why};
    // BASE-MEEPLE-FREE: a field beyond the stated board may hold a farmer the file leaves out.
    if (auto e = StatedEdge(after, root))
      if (std::string away = FiguresBeyond(after); !away.empty())
        return {Reaches(after, root, *e) +
                ", and a figure beyond the stated board may stand in it (" + away + ")"};
  }
  return {};
}

std::string PartialRun(const Position& after, const ApplyResult& run) {
  if (!after.board_partial) return "";
  for (const Reason& n : run.notes)
    if (n.ruling == "BASE-PLACE-UNPLACEABLE")
      return n.text.substr(0, n.text.find(':')) +
             " on the stated board, but it may fit next to a tile the file leaves out";
  bool final = false;
  for (const ScoreEvent& ev : run.scores) {
    if (!ev.cause.IsFinal()) continue;
    final = true;
    if (ev.root < 0) continue;
    if (std::string why = FeatureBeyond(after, ev.root); !why.empty())
      return "final scoring depends on tiles the file does not state: " + why;
  }
  if (final)
    if (std::string away = FiguresBeyond(after); !away.empty())
      return "the final scores depend on figures the file does not place: " + away;
  return "";
}

std::string PartialFinalScoring(const Position& pos) {
  if (!pos.board_partial || pos.turn.game_over) return "";
  Position copy = pos;
  ApplyResult run;
  FinalScoring(copy, run.scores);
  for (ScoreEvent& ev : run.scores) ev.cause = ScoreCause::Final();  // every event of the end
  return PartialRun(copy, run);
}

}  // namespace carc::model

#include "model/core/core_steps.h"

#include <algorithm>
#include <bit>
#include <iterator>

#include "model/core/feature_path.h"
#include "model/core/position.h"
#include "model/core/scoring.h"

namespace carc::model {

namespace {

// BASE-FEATURE-JOIN, the evidence of a tile that joined features holding figures (`held`, the
// roots before placement, one figure of each in `held_figure`): the joined feature's tiles and
// ends, every figure now in it, and how the figure of held[i] reaches the figure of each other
// feature joined to it.
std::string JoinText(const Position& pos, const std::vector<int>& held,
                     const std::vector<int>& held_figure, size_t i) {
  const int joined = pos.board.Find(held[i]);
  std::string met;
  for (const FigureSeen& f : FiguresSeen(pos, pos.FiguresIn(joined)))
    met += (met.empty() ? "" : " and ") + FigureText(pos, f);
  std::string how;
  for (size_t j = i + 1; j < held.size(); ++j) {
    if (pos.board.Find(held[j]) != joined) continue;
    const int from = held_figure[i], to = held_figure[j];
    const std::string one = ConnectionText(pos, pos.figures[from].node, pos.figures[to].node,
                                           FigurePlaceText(pos, from), FigurePlaceText(pos, to));
    if (!one.empty()) how += "; " + one;
  }
  return "the tile joins features that already hold figures into one, so all their figures now "
         "share it: " +
         FeatureText(pos, joined) + " holds " + met + how;
}

const char* kSideNames[4] = {"north", "east", "south", "west"};

// Draws tiles in the known order until one can be placed (BASE-PLACE-UNPLACEABLE); with none
// left the game ends and final scoring runs (BASE-END).
class DrawStep final : public Step {
 public:
  std::string_view Name() const override { return kDrawTile; }
  bool NeedsDecision(const Position& pos) const override {
    return !pos.turn.drawn && pos.turn.placed < 0 && !pos.supply.ordered && pos.supply.total() > 0;
  }
  bool Handles(const Position&, const Action& a) const override {
    return a.type == ActionType::kDraw;
  }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    for (TileType t = 0; t < static_cast<int>(pos.supply.counts.size()); ++t)
      if (pos.supply.counts[t] > 0) out.push_back({.type = ActionType::kDraw, .tile = t});
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    ApplyResult r;
    if (a.tile < 0 || pos.supply.counts[a.tile] <= 0) {
      r.input_error =
          "no tile " + pos.cfg().catalog->Name(std::max(a.tile, 0)) + " is left in the supply";
      return r;
    }
    TakeTile(pos, a.tile, r);
    return r;
  }
  std::optional<std::string> ChanceToState(const Position&) const override {
    return "the tile drawn ({\"type\": \"draw\", \"tile\": ...})";
  }
  // BASE-MEEPLE-TILE: a figure goes on the tile placed this turn, not yet drawn;
  // BASE-PLACE-UNPLACEABLE: a turn starts with drawing a tile (placed, or set aside if it fits
  // nowhere).
  Reason OutOfStep(const Position& pos, const Action& a) const override {
    const std::string& name = pos.players[pos.turn.player].name;
    if (a.type == ActionType::kPlaceFigure)
      return {"BASE-MEEPLE-TILE", "a figure goes only on the tile placed this turn, and " + name +
                                      " has not drawn this turn's tile yet"};
    return {"BASE-PLACE-UNPLACEABLE", name + "'s turn starts with drawing a tile (step draw): " +
                                          "it is placed, or set aside if it fits nowhere"};
  }
  void Run(Position& pos, ApplyResult& r) const override {
    if (pos.turn.drawn) return;
    while (pos.supply.ordered && !pos.supply.order.empty()) {
      TileType t = pos.supply.order.front();
      pos.supply.order.erase(pos.supply.order.begin());
      if (TakeTile(pos, t, r)) return;
    }
    if (pos.supply.total() == 0) {
      std::vector<ScoreEvent> final_events;
      FinalScoring(pos, final_events);
      pos.turn.game_over = true;
      if (!pos.explain) return;  // the lean path keeps no score events or notes
      r.scores.insert(r.scores.end(), std::make_move_iterator(final_events.begin()),
                      std::make_move_iterator(final_events.end()));
      r.notes.push_back({"BASE-END", "no tile is left: the game ends and final scoring is done"});
    }
  }

 private:
  static bool TakeTile(Position& pos, TileType t, ApplyResult& r) {
    pos.supply.counts[t] -= 1;
    if (!pos.board.CanPlaceAnywhere(t)) {
      if (pos.explain)  // a note only: the lean path keeps none
        r.notes.push_back({"BASE-PLACE-UNPLACEABLE",
                           "tile " + pos.cfg().catalog->Name(t) +
                               " fits nowhere: it is removed from the game and the same player "
                               "draws again"});
      return false;
    }
    pos.turn.drawn = t;
    return true;
  }
};

class PlaceTileStep final : public Step {
 public:
  std::string_view Name() const override { return kPlaceTile; }
  bool NeedsDecision(const Position& pos) const override {
    return pos.turn.drawn.has_value() && pos.turn.placed < 0;
  }
  bool Handles(const Position&, const Action& a) const override {
    return a.type == ActionType::kPlaceTile;
  }
  // Rules: BASE-PLACE-EDGE, BASE-PLACE-ADJ and the modules' constraints. Each picture once.
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    ListTilePlacements(pos, *pos.turn.drawn, out);
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    ApplyResult r;
    TileType t = *pos.turn.drawn;
    // BASE-PLACE-UNPLACEABLE: the player places the tile drawn (another only after it proved
    // unplaceable). A move one can attempt at the table: a ruling.
    if (a.tile >= 0 && a.tile != t) {
      r.verdict =
          Verdict::Illegal("BASE-PLACE-UNPLACEABLE",
                           pos.players[pos.turn.player].name + " places tile " +
                               pos.cfg().catalog->Name(a.tile) + ", but the tile drawn is " +
                               pos.cfg().catalog->Name(t) + ": a player places the tile drawn");
      return r;
    }
    // A module's constraint on the square (the placement constraint hook) rules first.
    if (!ConstraintsAllow(pos, t, a.pos, a.rotation, &r.verdict)) return r;
    PlacementCheck pc = pos.board.Check(t, a.pos, a.rotation);
    const std::string at = pc.ok() && !pos.explain ? std::string()  // text only when read
                                                   : "(" + std::to_string(a.pos.x) + ", " +
                                                         std::to_string(a.pos.y) + ")";
    switch (pc.problem) {
      case PlacementProblem::kOccupied:
        r.verdict = Verdict::Illegal(
            "BASE-PLACE-ADJ", "square " + at + " already holds a tile; tiles may not overlap");
        return r;
      case PlacementProblem::kNotAdjacent:
        r.verdict = Verdict::Illegal("BASE-PLACE-ADJ",
                                     "square " + at + " touches no placed tile along an edge");
        return r;
      case PlacementProblem::kEdgeMismatch: {
        const RotatedTile& rt = pos.cfg().catalog->rotated(t, a.rotation);
        static const char* kEdge[3] = {"field", "road", "city"};
        Coord n = Neighbour(a.pos, pc.side);
        const RotatedTile& nt = pos.board.rotated(*pos.board.At(n));
        r.verdict = Verdict::Illegal(
            "BASE-PLACE-EDGE", std::string("the ") + kSideNames[pc.side] + " edge of tile " +
                                   pos.cfg().catalog->Name(t) + " at " + at + " is " +
                                   kEdge[static_cast<int>(rt.edges[pc.side])] +
                                   " but the neighbour at (" + std::to_string(n.x) + ", " +
                                   std::to_string(n.y) + ") shows " +
                                   kEdge[static_cast<int>(nt.edges[(pc.side + 2) % 4])] + " there");
        return r;
      }
      case PlacementProblem::kNone:
        break;
    }
    // BASE-FEATURE-JOIN: note features holding figures that this tile joins into one.
    std::vector<int> held;         // roots (before placement) of neighbouring features with figures
    std::vector<int> held_figure;  // a figure of each
    for (int side = 0; pos.explain && side < 4; ++side) {  // a reason only: lean skips it
      auto n = pos.board.At(Neighbour(a.pos, side));
      if (!n) continue;
      const RotatedTile& nt = pos.board.rotated(*n);
      const int facing = (side + 2) % 4;  // its side, then its two half-edges there
      const int segs[3] = {nt.side_segment[facing], nt.half_segment[2 * facing],
                           nt.half_segment[2 * facing + 1]};
      for (int seg : segs) {
        if (seg < 0) continue;
        int root = pos.board.Find(Board::Node(*n, seg));
        if (pos.AnyFigureIn(root) && std::find(held.begin(), held.end(), root) == held.end()) {
          held.push_back(root);
          held_figure.push_back(pos.FiguresIn(root).front());
        }
      }
    }
    pos.turn.placed = pos.board.Place(t, a.pos, a.rotation);
    pos.turn.drawn.reset();
    for (size_t i = 0; i < held.size(); ++i)
      for (size_t j = i + 1; j < held.size(); ++j)
        if (pos.board.Find(held[i]) == pos.board.Find(held[j])) {
          r.verdict.reasons.push_back({"BASE-FEATURE-JOIN", JoinText(pos, held, held_figure, i)});
          i = held.size();
          break;
        }
    if (pos.explain)
      r.verdict.reasons.push_back(
          {"BASE-PLACE-EDGE",
           "tile " + pos.cfg().catalog->Name(t) + " at " + at + " matches every neighbour"});
    for (const auto& h : pos.cfg().hooks.on_tile_placed) h.fn(pos, a, r);
    return r;
  }
  // BASE-MEEPLE-TILE: figures follow the tile; BASE-PLACE-UNPLACEABLE: a drawn tile that fits
  // somewhere must be placed (no second draw, no pass).
  Reason OutOfStep(const Position& pos, const Action& a) const override {
    const std::string& name = pos.players[pos.turn.player].name;
    const std::string tile =
        pos.turn.drawn ? "tile " + pos.cfg().catalog->Name(*pos.turn.drawn) : "the drawn tile";
    if (a.type == ActionType::kPlaceFigure)
      return {"BASE-MEEPLE-TILE", "a figure goes only on the tile placed this turn, and " + name +
                                      " has not placed " + tile + " yet"};
    return {"BASE-PLACE-UNPLACEABLE", name + " must place " + tile +
                                          ", which fits on the board: only a tile that fits "
                                          "nowhere is set aside (and another drawn)"};
  }
};

class PlaceFigureStep final : public Step {
 public:
  std::string_view Name() const override { return kPlaceFigure; }
  // With figures of several kinds the pass is the meeple's (each other kind has its own step).
  std::string Declines(const Position& pos) const override {
    const auto& kinds = pos.cfg().figure_kinds;
    return kinds.size() > 1 ? "places no " + kinds[kMeeple].name : "places no figure";
  }
  bool NeedsDecision(const Position& pos) const override {
    return pos.turn.placed >= 0 && !Decided(pos, pos.cfg().core_step.place_figure);
  }
  bool Handles(const Position&, const Action& a) const override {
    return a.type == ActionType::kPass ||
           (a.type == ActionType::kPlaceFigure && a.figure_kind == kMeeple);
  }
  bool CanPass(const Position&) const override { return true; }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    out.push_back({.type = ActionType::kPass});
    ListFigurePlacements(pos, kMeeple, out);
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    ApplyResult r;
    if (a.type == ActionType::kPlaceFigure) {
      r.verdict = CheckFigure(pos, a, kMeeple, FigureRulings{});
      if (!r.verdict.legal) return r;
      PlaceFigure(pos, a);
    }
    MarkDecided(pos, pos.cfg().core_step.place_figure);
    return r;
  }
  // BASE-MEEPLE-SUPPLY: at most one meeple per turn.
  std::optional<Verdict> AfterDecision(const Position& pos, const Action& a) const override {
    if (a.type != ActionType::kPlaceFigure || a.figure_kind != kMeeple) return std::nullopt;
    return Verdict::Illegal("BASE-MEEPLE-SUPPLY",
                            PlacedThisTurn(pos, kMeeple) > 0
                                ? "a player places at most one meeple per turn"
                                : "the player already passed the meeple placement this turn");
  }
  // Never reached (the step may be passed); BASE-SCORE-TIMING orders what follows it.
  Reason OutOfStep(const Position&, const Action&) const override {
    return {"BASE-SCORE-TIMING", "step 2 (figure placement) comes before the scoring"};
  }
};

// Rules: BASE-SCORE-TIMING (after figure placement), BASE-SCORE-ROAD/-CITY/-MONASTERY.
class ScoreStep final : public Step {
 public:
  std::string_view Name() const override { return kScoreCompleted; }
  bool NeedsDecision(const Position&) const override { return false; }
  bool Handles(const Position&, const Action&) const override { return false; }
  void Legal(const Position&, std::vector<Action>&) const override {}
  ApplyResult Apply(Position&, const Action&) const override { return {}; }
  void Run(Position& pos, ApplyResult& r) const override {
    if (pos.turn.placed < 0) return;
    const Board& b = pos.board;
    const int placed = pos.turn.placed;
    // The roads and cities of the tile, the monasteries on it and around it (no allocation).
    int roots[kMaxSegments + 9];
    int n_roots = 0;
    const RotatedTile& rt = b.rotated(placed);
    for (size_t i = 0; i < rt.segments.size(); ++i) {
      FeatureKind k = rt.segments[i].kind;
      if (k == FeatureKind::kRoad || k == FeatureKind::kCity)
        roots[n_roots++] = b.Find(Board::Node(placed, static_cast<int>(i)));
    }
    Coord c = b.tile(placed).pos;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        auto t = b.At({c.x + dx, c.y + dy});
        if (!t) continue;
        if (const int m = b.MonasterySegment(*t); m >= 0 && n_roots < kMaxSegments + 9)
          roots[n_roots++] = b.Find(Board::Node(*t, m));
      }
    for (int k = 0; k < n_roots; ++k) {
      if (std::find(roots, roots + k, roots[k]) != roots + k) continue;  // seen already
      if (b.IsComplete(roots[k])) ScoreCompleted(pos, roots[k], r);
    }
  }
  // Never reached (no decision here).
  Reason OutOfStep(const Position&, const Action&) const override {
    return {"BASE-SCORE-TIMING", "the features completed this turn are scored after step 2"};
  }
};

class EndTurnStep final : public Step {
 public:
  std::string_view Name() const override { return kEndTurn; }
  bool NeedsDecision(const Position&) const override { return false; }
  bool Handles(const Position&, const Action&) const override { return false; }
  void Legal(const Position&, std::vector<Action>&) const override {}
  ApplyResult Apply(Position&, const Action&) const override { return {}; }
  void Run(Position& pos, ApplyResult&) const override {
    TurnState next;
    next.player = (pos.turn.player + 1) % static_cast<int>(pos.players.size());
    next.step = pos.turn.step;
    next.figures_this_turn.swap(pos.turn.figures_this_turn);  // keeps its buffer
    next.figures_this_turn.clear();
    pos.turn = std::move(next);
  }
  // Never reached (no decision here).
  Reason OutOfStep(const Position&, const Action&) const override {
    return {"BASE-SCORE-TIMING", "the turn ends after its scoring"};
  }
};

}  // namespace

std::vector<const Step*> CoreSteps() {
  static const DrawStep draw;
  static const PlaceTileStep place_tile;
  static const PlaceFigureStep place_figure;
  static const ScoreStep score;
  static const EndTurnStep end_turn;
  return {&draw, &place_tile, &place_figure, &score, &end_turn};
}

bool ConstraintsAllow(const Position& pos, TileType t, Coord c, Rotation r, Verdict* why) {
  for (const auto& h : pos.cfg().hooks.constrain_placement)
    if (!h.fn.allows(pos, t, c, r, why)) return false;
  return true;
}

void ListTilePlacements(const Position& pos, TileType t, std::vector<Action>& out) {
  // The modules whose constraint is in force for `t` now, asked once for the list (usually
  // none: then no module is asked per placement).
  const auto& declared = pos.cfg().hooks.constrain_placement;
  const PlacementConstraint* active[8];
  size_t n = 0;
  bool all = false;  // more than fit in `active`: ask every declared module per placement
  for (const auto& h : declared)
    if (h.fn.in_force(pos, t)) {
      if (n == std::size(active)) all = true;
      if (!all) active[n++] = &h.fn;
    }
  const auto allows = [&](Coord c, Rotation r) {
    if (all) return ConstraintsAllow(pos, t, c, r);
    for (size_t i = 0; i < n; ++i)
      if (!active[i]->allows(pos, t, c, r, nullptr)) return false;
    return true;
  };
  // fit: bit r = Check(t, c, r).ok() for each distinct rotation r, in one read of the square.
  pos.board.ForEachFit(t, [&](Coord c, int fit) {
    for (; fit != 0; fit &= fit - 1) {
      const Rotation r = std::countr_zero(static_cast<unsigned>(fit));  // ascending, as listed
      if (n == 0 || allows(c, r))
        out.push_back({.type = ActionType::kPlaceTile, .tile = t, .pos = c, .rotation = r});
    }
  });
}

int PlacedThisTurn(const Position& pos, int kind) {
  int n = 0;
  for (int f : pos.turn.figures_this_turn)
    if (pos.figures[f].kind == kind) ++n;
  return n;
}

Verdict CheckFigure(const Position& pos, const Action& a, int kind, const FigureRulings& rulings) {
  const std::string& name = pos.cfg().figure_kinds[kind].name;
  const int placed = pos.turn.placed;
  if (a.has_pos && pos.board.At(a.pos) != std::optional<int>(placed)) {
    return Verdict::Illegal(rulings.tile,
                            "a " + name + " may go only on the tile just placed, not on (" +
                                std::to_string(a.pos.x) + ", " + std::to_string(a.pos.y) + ")");
  }
  if (pos.players[pos.turn.player].supply[kind] <= 0) {
    return Verdict::Illegal(rulings.supply, "the player has no " + name + " left in their supply");
  }
  const int root = pos.board.Find(Board::Node(placed, a.segment));
  // The evidence: the tiles the feature is joined through, where it ends, the figures met.
  if (pos.AnyFigureIn(root)) {
    std::string met;
    for (const FigureSeen& f : FiguresSeen(pos, pos.FiguresIn(root)))
      met += (met.empty() ? "" : " and ") + FigureText(pos, f);
    // How the figure met is joined to the segment asked for (BASE-FEATURE-JOIN).
    const int node = Board::Node(placed, a.segment);
    const std::string how = ConnectionToNearestFigure(pos, node, SegmentPlaceText(pos, node));
    return Verdict::Illegal(rulings.free, FeatureText(pos, root) + " already holds " + met +
                                              (how.empty() ? "" : ": " + how) +
                                              "; a figure may go only on a feature with no "
                                              "figure anywhere in it");
  }
  Verdict v;
  if (!pos.explain) return v;  // the lean path: legal, no reasons
  const std::string nearby = NearbyFiguresText(pos, root);
  v.reasons.push_back({rulings.free, FeatureText(pos, root) + " holds no figure anywhere" +
                                         (nearby.empty() ? "" : "; " + nearby)});
  const std::string role = RoleName(pos.board.Info(root).kind);
  v.reasons.push_back({rulings.tile, "the " + (kind == kMeeple ? role : name + " " + role) +
                                         " goes on the tile just placed"});
  return v;
}

void ListFigurePlacements(const Position& pos, int kind, std::vector<Action>& out) {
  const int placed = pos.turn.placed;
  if (placed < 0 || pos.players[pos.turn.player].supply[kind] <= 0) return;
  const RotatedTile& rt = pos.board.rotated(placed);
  // The features holding figures: each figure's root, found once (no list built).
  constexpr int kFew = 64;
  int held[kFew];
  const int n_figs = static_cast<int>(pos.figures.size());
  if (n_figs <= kFew)
    for (int f = 0; f < n_figs; ++f) held[f] = pos.board.Find(pos.figures[f].node);
  for (size_t i = 0; i < rt.segments.size(); ++i) {
    int root = pos.board.Find(Board::Node(placed, static_cast<int>(i)));
    if (n_figs <= kFew ? std::find(held, held + n_figs, root) != held + n_figs
                       : pos.AnyFigureIn(root))
      continue;
    out.push_back({.type = ActionType::kPlaceFigure,
                   .pos = pos.board.tile(placed).pos,
                   .has_pos = true,
                   .figure_kind = kind,
                   .segment = static_cast<int>(i)});
  }
}

void PlaceFigure(Position& pos, const Action& a) {
  PlaceFigureAt(pos, pos.turn.player, a.figure_kind, Board::Node(pos.turn.placed, a.segment));
}

void PlaceFigureAt(Position& pos, PlayerId player, int kind, int node, std::optional<bool> lying) {
  Figure f;
  f.owner = player;
  f.kind = kind;
  f.node = node;
  f.lying = lying.value_or(pos.board.segment(node).kind == FeatureKind::kField);
  pos.players[f.owner].supply[f.kind] -= 1;
  pos.figures.push_back(f);
  const int index = static_cast<int>(pos.figures.size()) - 1;
  pos.turn.figures_this_turn.push_back(index);
  // BASE-MEEPLE-TILE: on a road, city or monastery a figure stands, unless an expansion has laid
  // that feature's figures down (every figure joining it then lies too).
  if (!lying && !pos.figures[index].lying)
    pos.figures[index].lying = LaidDownByExpansion(pos, index);
}

bool LaidDownByExpansion(const Position& pos, int figure) {
  for (const auto& h : pos.cfg().hooks.excuse)
    if (h.fn(pos, figure, Excuse::kLaidDown)) return true;
  return false;
}

}  // namespace carc::model

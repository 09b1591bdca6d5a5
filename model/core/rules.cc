#include "model/core/rules.h"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>

#include "model/core/check.h"
#include "model/core/scoring.h"

namespace carc::model {

namespace {

// An expansion's ruling on an action the turn cannot take where it stands: the action's own
// expansion first, then every other one (a step of one module may refuse a core action).
std::optional<Verdict> ExpansionJudges(const Position& pos, const Action& a) {
  const auto& judges = pos.cfg().hooks.judge_out_of_step;
  if (a.type == ActionType::kExpansion && a.expansion)
    for (const auto& h : judges)
      if (h.module == a.expansion)
        if (auto v = h.fn(pos, a)) return v;
  for (const auto& h : judges)
    if (h.module != a.expansion)
      if (auto v = h.fn(pos, a)) return v;
  return std::nullopt;
}

// BASE-END: after final scoring no move of the game can be made.
Verdict AfterTheEnd(const Position& pos, const Action& a) {
  if (auto v = ExpansionJudges(pos, a)) return *v;
  return Verdict::Illegal("BASE-END",
                          "the game is over and final scoring is done: no move can "
                          "follow it (" +
                              Describe(pos, a) + ")");
}

// An action attempted in a turn that ended before any step took it: `last` is the position
// right after the turn's last decision (the rest of the turn needed none), `ended` where the
// turn passed on. BASE-PLACE-UNPLACEABLE: one tile per turn, a second draw only for a tile that
// fits nowhere; BASE-SCORE-TIMING: the turn ends with the scoring after the figure placement.
Verdict AfterTheTurn(const Position& last, const Position& ended, PlayerId player,
                     const Action& a) {
  if (auto v = ExpansionJudges(last, a)) return *v;
  const std::string& name = ended.players[player].name;
  const std::string next = ended.players[ended.turn.player].name;
  if (a.type == ActionType::kDraw || a.type == ActionType::kPlaceTile)
    return Verdict::Illegal("BASE-PLACE-UNPLACEABLE",
                            name +
                                " has placed this turn's tile: a player places one tile per "
                                "turn and draws again only when the drawn tile fits nowhere (" +
                                Describe(ended, a) + "); the turn has passed to " + next);
  return Verdict::Illegal("BASE-SCORE-TIMING",
                          name + "'s turn has no step left that takes this action (" +
                              Describe(ended, a) +
                              "): after the figure placement the completed features are scored "
                              "and the turn passes to " +
                              next);
}

}  // namespace

std::vector<Action> LegalActions(const Position& pos) {
  std::vector<Action> out;
  LegalActionsInto(pos, out);
  return out;
}

void LegalActionsInto(const Position& pos, std::vector<Action>& out) {
  out.clear();
  if (pos.turn.game_over) return;
  const Step& s = pos.current_step();
  if (s.NeedsDecision(pos)) s.Legal(pos, out);
}

// PH-ALONE (via the core's implicit pass): see rules.h.
std::vector<Action> ShortcutActions(const Position& pos) {
  std::vector<Action> out;
  if (pos.turn.game_over) return out;
  const Step& s = pos.current_step();
  if (s.Name() != kPlaceFigure || !s.NeedsDecision(pos) || !s.CanPass(pos)) return out;
  Position next = pos;
  ApplyResult r = s.Apply(next, {.type = ActionType::kPass});
  if (!r.verdict.legal || !r.input_error.empty()) return out;
  Advance(next, r);
  if (next.turn.game_over || next.turn.player != pos.turn.player ||
      next.turn.placed != pos.turn.placed)
    return out;
  for (const Action& a : LegalActions(next))
    if (a.type == ActionType::kPlaceFigure && !s.Handles(pos, a)) out.push_back(a);
  return out;
}

void Advance(Position& pos, ApplyResult& result) {
  const int n = static_cast<int>(pos.cfg().pipeline.size());
  for (int guard = 0; !pos.turn.game_over; ++guard) {
    CARC_CHECK(guard < 4 * n);
    // The pipeline's own steps: a preempting step decides before the next decision, so the turn
    // stands at a step a position file can state (Step::Preempts).
    const Step& s = pos.pipeline_step();
    if (s.NeedsDecision(pos)) return;
    s.Run(pos, result);
    if (pos.turn.game_over) return;
    pos.turn.step = (pos.turn.step + 1) % n;
  }
}

namespace {

// What Apply asks of the position alone, whatever the action: whether each step the turn has
// gone through needs a decision (a card window's answer looks for a card that can be played),
// and, when the current step needs none, whether the rest of the turn, run on, ends the turn.
// Each is asked on first need, once per Apply.
struct PositionAnswers {
  uint64_t asked = 0;          // by step index (below 64; a later step is asked every time)
  uint64_t needs = 0;          // the steps asked that need a decision
  int8_t rest_ends_turn = -1;  // -1: not asked yet
};

// Whether step i of pos's pipeline needs a decision at pos, asked once per PositionAnswers.
bool Needs(const Position& pos, int i, PositionAnswers& answers) {
  if (i >= 64) return pos.cfg().pipeline[i]->NeedsDecision(pos);
  const uint64_t bit = uint64_t{1} << i;
  if (!(answers.asked & bit)) {
    answers.asked |= bit;
    if (pos.cfg().pipeline[i]->NeedsDecision(pos)) answers.needs |= bit;
  }
  return answers.needs & bit;
}

// JudgeAfterDecision, also telling whether the current step needs a decision (`current_needs`,
// set whenever the game is not over), so that Apply does not ask the step again: a card
// window's answer lists plays, and the position does not change in between. What it asks of
// pos alone is in `answers`.
std::optional<Verdict> JudgeAfter(const Position& pos, const Action& action, bool& current_needs,
                                  PositionAnswers& answers) {
  current_needs = false;
  if (pos.turn.game_over) return std::nullopt;
  // The steps the turn has gone through since its last decision, latest first (a decision that
  // passed earlier steps implicitly leaves them behind the current one).
  const auto& pipeline = pos.cfg().pipeline;
  bool known = false;
  for (int i = pos.turn.step; i >= 0; --i) {
    const Step& s = *pipeline[i];
    const bool needs = Needs(pos, i, answers);
    if (i == pos.turn.step) {  // the current step
      current_needs = needs;
      known = true;
    }
    if (needs) break;
    if (auto v = s.AfterDecision(pos, action)) return v;
  }
  if (!known) current_needs = Needs(pos, pos.turn.step, answers);
  // The rest of the turn needs no decision: an expansion may rule on an action that belonged to
  // the turn now ending (a further message), before the position moves on to the next turn.
  if (current_needs) return std::nullopt;
  if (answers.rest_ends_turn < 0) {
    Position rest = pos;
    ApplyResult ignored;
    Advance(rest, ignored);
    answers.rest_ends_turn = rest.turn.game_over || rest.turn.player != pos.turn.player;
  }
  if (answers.rest_ends_turn)
    for (const auto& h : pos.cfg().hooks.judge_out_of_step)
      if (auto v = h.fn(pos, action)) return v;
  return std::nullopt;
}

}  // namespace

std::optional<Verdict> JudgeAfterDecision(const Position& pos, const Action& action) {
  bool current_needs = false;
  PositionAnswers answers;
  return JudgeAfter(pos, action, current_needs, answers);
}

namespace {

// Apply's outcomes, each returned as built (no result moved from one object to another).
ApplyResult Refused(Verdict v) {
  ApplyResult r;
  r.verdict = std::move(v);
  return r;
}

// The current step takes the action (steps change nothing when they refuse).
ApplyResult ApplyHere(Position& pos, const Step& cur, const Action& action, bool finish_turn) {
  ApplyResult r = cur.Apply(pos, action);
  if (r.input_error.empty() && r.verdict.legal && finish_turn) Advance(pos, r);
  return r;
}

// The action belongs to a later step of the turn (or to none): see Apply.
ApplyResult ApplyLater(Position& pos, const Action& action, bool finish_turn) {
  ApplyResult result;
  Position work = pos;
  Position last = pos;  // right after the latest decision, before the turn runs on
  Advance(work, result);
  // Offer the action to the current decision step; steps the player may pass are passed
  // implicitly when the action belongs to a later step of the same turn.
  const PlayerId player = work.turn.player;
  for (int guard = 0;; ++guard) {
    CARC_CHECK(guard < 64);
    // A move the player can attempt is ruled on, never refused as input: after the end of the
    // game, after the end of the turn, or at a step that does not take it.
    if (work.turn.game_over || work.turn.player != player) {
      result.verdict = work.turn.game_over ? AfterTheEnd(work, action)
                                           : AfterTheTurn(last, work, player, action);
      result.scores.clear();
      result.notes.clear();
      return result;
    }
    const Step& s = work.current_step();
    if (s.Handles(work, action)) break;
    if (!s.CanPass(work)) {
      // With the draw order known the model draws by itself: a draw action states nothing the
      // position does not, and naming a tile there is a second, possibly contradicting, value.
      if (action.type == ActionType::kDraw && work.supply.ordered) {
        result = {};
        result.input_error =
            "the position's supply.draw_order already states every draw: a draw action is "
            "surplus there (leave it out, or give supply.remaining counts instead)";
        return result;
      }
      const auto chance = s.ChanceToState(work);
      if (auto v = ExpansionJudges(work, action)) {
        result.verdict = *v;
      } else if (chance && !(action.type == ActionType::kPlaceFigure && work.turn.placed < 0)) {
        // An unstated draw, not a move (a figure before any tile is placed is a move, ruled
        // whatever the draw).
        result = {};
        result.input_error = "the question does not state " + *chance + " at step " +
                             std::string(s.Name()) + ", before this action";
        return result;
      } else {
        result.verdict = {false, {s.OutOfStep(work, action)}};
      }
      result.scores.clear();
      result.notes.clear();
      return result;
    }
    ApplyResult pass = s.Apply(work, {.type = ActionType::kPass});
    CARC_CHECK(pass.verdict.legal);
    // What the implicit pass decided is part of the ruling (e.g. an optional choice not taken).
    result.verdict.reasons.insert(result.verdict.reasons.end(), pass.verdict.reasons.begin(),
                                  pass.verdict.reasons.end());
    result.notes.insert(result.notes.end(), pass.notes.begin(), pass.notes.end());
    result.scores.insert(result.scores.end(), pass.scores.begin(), pass.scores.end());
    last = work;
    Advance(work, result);
  }
  ApplyResult r = work.current_step().Apply(work, action);
  if (!r.input_error.empty() || !r.verdict.legal) return r;
  result.verdict.reasons.insert(result.verdict.reasons.end(), r.verdict.reasons.begin(),
                                r.verdict.reasons.end());
  result.scores.insert(result.scores.end(), r.scores.begin(), r.scores.end());
  result.notes.insert(result.notes.end(), r.notes.begin(), r.notes.end());
  if (finish_turn) Advance(work, result);
  pos = std::move(work);
  return result;
}

}  // namespace

ApplyResult Apply(Position& pos, const Action& action, bool finish_turn) {
  if (pos.turn.game_over) return Refused(AfterTheEnd(pos, action));
  bool current_needs = false;  // the current step needs a decision (asked once, by JudgeAfter)
  PositionAnswers answers;
  if (auto v = JudgeAfter(pos, action, current_needs, answers)) return Refused(std::move(*v));
  // Fast path: the current step takes the action.
  if (const Step& cur = pos.current_step(); current_needs && cur.Handles(pos, action))
    return ApplyHere(pos, cur, action, finish_turn);
  return ApplyLater(pos, action, finish_turn);
}

namespace {

// A figure a rule would refuse that an expansion's state excuses, for the reason `excuse`.
bool Excused(const Position& pos, size_t f, Excuse excuse) {
  for (const auto& h : pos.cfg().hooks.excuse)
    if (h.fn(pos, static_cast<int>(f), excuse)) return true;
  return false;
}

void ValidateSetup(const Position& pos, std::vector<Violation>& out) {
  const Board& b = pos.board;
  const TileCatalog& cat = *pos.cfg().catalog;
  // BASE-SETUP: the tile set and the number of players.
  if (pos.players.size() < 2 || pos.players.size() > 6)
    out.push_back(
        {"BASE-SETUP", "/players",
         "a game has 2 to 6 players, the file has " + std::to_string(pos.players.size())});
  if (b.size() == 0)
    out.push_back({"BASE-SETUP", "/board",
                   pos.board_partial ? "a partial board states at least one tile"
                                     : "the start tile is not on the board"});
  std::vector<int> used(cat.size(), 0);
  for (int i = 0; i < b.size(); ++i) used[b.tile(i).type]++;
  if (pos.turn.drawn) used[*pos.turn.drawn]++;
  for (TileType t = 0; t < cat.size(); ++t) {
    int n = used[t] + pos.supply.counts[t];
    if (n > cat.def(t).count)
      out.push_back({"BASE-SETUP", "/board",
                     "tile " + cat.Name(t) + " appears " + std::to_string(n) +
                         " times (board, hand and supply) but the set has " +
                         std::to_string(cat.def(t).count)});
  }
}

void ValidatePlacement(const Position& pos, std::vector<Violation>& out) {
  const Board& b = pos.board;
  // BASE-PLACE-EDGE and BASE-PLACE-ADJ between every pair of neighbours; the board is one piece
  // unless it is partial (the stated tiles may connect through tiles the file leaves out).
  // Each tile's four neighbours looked up once for both (Validate runs after every
  // listed action in the soak).
  std::vector<int> beside(static_cast<size_t>(b.size()) * 4);
  for (int i = 0; i < b.size(); ++i)
    for (int side = 0; side < 4; ++side) {
      const auto n = b.At(Neighbour(b.tile(i).pos, side));
      beside[i * 4 + side] = n ? *n : -1;
    }
  for (int i = 0; i < b.size(); ++i) {
    for (int side = 1; side <= 2; ++side) {  // east and south: each pair once
      const int n = beside[i * 4 + side];
      if (n >= 0 && b.rotated(i).edges[side] != b.rotated(n).edges[(side + 2) % 4])
        out.push_back({"BASE-PLACE-EDGE", "/board/" + std::to_string(i),
                       "the tile at (" + std::to_string(b.tile(i).pos.x) + ", " +
                           std::to_string(b.tile(i).pos.y) + ") does not match its " +
                           (side == 1 ? "east" : "south") + " neighbour"});
    }
  }
  if (b.size() > 0 && !pos.board_partial) {
    std::vector<char> seen(b.size(), 0);  // breadth first from the start tile
    std::vector<int> q;
    q.reserve(b.size());
    q.push_back(0);
    seen[0] = 1;
    for (size_t h = 0; h < q.size(); ++h)
      for (int side = 0; side < 4; ++side) {
        const int n = beside[q[h] * 4 + side];
        if (n >= 0 && !seen[n]) {
          seen[n] = 1;
          q.push_back(n);
        }
      }
    for (int i = 0; i < b.size(); ++i)
      if (!seen[i])
        out.push_back({"BASE-PLACE-ADJ", "/board/" + std::to_string(i),
                       "the tile at (" + std::to_string(b.tile(i).pos.x) + ", " +
                           std::to_string(b.tile(i).pos.y) +
                           ") is not connected to the start tile"});
  }
}

void ValidateSupply(const Position& pos, std::vector<Violation>& out) {
  // BASE-MEEPLE-SUPPLY: supply + board = the figures each player owns; on a partial board at
  // most that many (the others may stand on tiles the file leaves out).
  const auto& kinds = pos.cfg().figure_kinds;
  // Position::FiguresOnBoard of every (player, kind), in one pass over the figures.
  const size_t np = pos.players.size(), nk = kinds.size();
  std::vector<int> on_board_of(np * nk, 0);
  for (const Figure& f : pos.figures)
    if (f.owner >= 0 && static_cast<size_t>(f.owner) < np && f.kind >= 0 &&
        static_cast<size_t>(f.kind) < nk)
      ++on_board_of[f.owner * nk + f.kind];
  for (size_t p = 0; p < np; ++p)
    for (size_t k = 0; k < nk; ++k) {
      int on_board = on_board_of[p * nk + k];
      int in_supply = pos.players[p].supply[k];
      const int stated = on_board + in_supply;
      if (in_supply < 0 ||
          (pos.board_partial ? stated > kinds[k].per_player : stated != kinds[k].per_player))
        out.push_back({kinds[k].supply_ruling, "/players/" + std::to_string(p) + "/supply",
                       pos.players[p].name + " has " + std::to_string(in_supply) + " " +
                           kinds[k].name + " in supply and " + std::to_string(on_board) +
                           " on the board, but owns " + std::to_string(kinds[k].per_player)});
    }
}

void ValidateFiguresOnTiles(const Position& pos, std::vector<Violation>& out) {
  const Board& b = pos.board;
  const auto& kinds = pos.cfg().figure_kinds;
  auto excused = [&](size_t f, Excuse excuse) { return Excused(pos, f, excuse); };
  // BASE-MEEPLE-TILE: a figure lies only in a field (a farmer); on a road, city or monastery it
  // stands unless an expansion's state lays it down (Excuse::kLaidDown).
  for (size_t f = 0; f < pos.figures.size(); ++f) {
    const Figure& fig = pos.figures[f];
    if (fig.lying && b.segment(fig.node).kind != FeatureKind::kField &&
        !excused(f, Excuse::kLaidDown))
      out.push_back({"BASE-MEEPLE-TILE", "/figures/" + std::to_string(f),
                     "a " + kinds[fig.kind].name +
                         " lying on a road, city or monastery: only a farmer lies, and no rule "
                         "in play has laid this feature's figures down"});
  }
  // BASE-MEEPLE-TILE: figures are placed one per turn on the new tile and never move, so a tile
  // holds at most one figure of each kind.
  // (tile, kind, figure) sorted: a figure is a second one when an earlier figure shares its
  // tile and kind (sorted vectors, not sets: Validate runs after every listed action in the soak).
  const size_t nf = pos.figures.size();
  std::vector<std::tuple<int, int, size_t>> by_tile_kind(nf);
  for (size_t f = 0; f < nf; ++f)
    by_tile_kind[f] = {Board::TileOf(pos.figures[f].node), pos.figures[f].kind, f};
  std::sort(by_tile_kind.begin(), by_tile_kind.end());
  std::vector<char> second(nf, 0);
  for (size_t k = 1; k < nf; ++k)
    second[std::get<2>(by_tile_kind[k])] =
        std::get<0>(by_tile_kind[k]) == std::get<0>(by_tile_kind[k - 1]) &&
        std::get<1>(by_tile_kind[k]) == std::get<1>(by_tile_kind[k - 1]);
  for (size_t f = 0; f < nf; ++f) {
    const Figure& fig = pos.figures[f];
    if (second[f] && !excused(f, Excuse::kNotOnPlacedTile))
      out.push_back({"BASE-MEEPLE-TILE", "/figures/" + std::to_string(f),
                     "a second " + kinds[fig.kind].name +
                         " on one tile: figures go only on the tile just placed, one per turn"});
  }
}

void ValidateSharedSegments(const Position& pos, std::vector<Violation>& out) {
  const auto& kinds = pos.cfg().figure_kinds;
  const size_t nf = pos.figures.size();
  auto excused = [&](size_t f, Excuse excuse) { return Excused(pos, f, excuse); };
  // BASE-MEEPLE-FREE: two figures on one segment of one tile cannot arise (the second would
  // have gone on an occupied feature). One violation per segment, listing its figures (one
  // per pair made 3,000 figures cost 6 GB).
  std::vector<std::pair<int, size_t>> on_segment(nf);  // (node, figure) sorted: by segment
  for (size_t f = 0; f < nf; ++f) on_segment[f] = {pos.figures[f].node, f};
  std::sort(on_segment.begin(), on_segment.end());
  std::vector<size_t> figs;
  for (size_t k = 0; k < nf;) {
    figs.clear();
    for (const int node = on_segment[k].first; k < nf && on_segment[k].first == node; ++k)
      figs.push_back(on_segment[k].second);
    if (figs.size() < 2) continue;
    std::optional<size_t> first_bad;
    for (size_t i = 1; i < figs.size() && !first_bad; ++i)
      if (!excused(figs[i], Excuse::kOccupiedFeature)) first_bad = figs[i];
    if (!first_bad) continue;
    std::string names;
    for (size_t f : figs) {
      const Figure& fig = pos.figures[f];
      const std::string owner = fig.owner >= 0 && fig.owner < static_cast<int>(pos.players.size())
                                    ? pos.players[fig.owner].name
                                    : "?";
      names += (names.empty() ? "" : ", ") + owner + "'s " + kinds[fig.kind].name;
    }
    out.push_back(
        {"BASE-MEEPLE-FREE", "/figures/" + std::to_string(*first_bad),
         std::to_string(figs.size()) + " figures on the same feature of one tile: " + names});
  }
}

void ValidateReturnsAndScores(const Position& pos, std::vector<Violation>& out) {
  const Board& b = pos.board;
  auto excused = [&](size_t f, Excuse excuse) { return Excused(pos, f, excuse); };
  // BASE-RETURN: no figure stays on a completed road, city or monastery, except one completed
  // by this turn's tile before the scoring step.
  const bool before_scoring = pos.turn.placed >= 0;
  for (size_t f = 0; f < pos.figures.size(); ++f) {
    int root = b.Find(pos.figures[f].node);
    if (!b.IsComplete(root)) continue;
    // Pending: a road or city that contains this turn's tile, or a monastery on it or next to it.
    bool pending = false;
    if (before_scoring) {
      const FeatureInfo& fi = b.Info(root);
      if (fi.kind == FeatureKind::kMonastery) {
        Coord c = b.tile(pos.turn.placed).pos, m = b.tile(Board::TileOf(root)).pos;
        pending = std::abs(m.x - c.x) <= 1 && std::abs(m.y - c.y) <= 1;
      } else {
        pending = std::find(fi.tiles.begin(), fi.tiles.end(), pos.turn.placed) != fi.tiles.end();
      }
    }
    if (!pending && !excused(f, Excuse::kStaysOnCompleted))
      out.push_back({"BASE-RETURN", "/figures/" + std::to_string(f),
                     "the figure stands in a completed " +
                         std::string(FeatureKindName(b.Info(root).kind)) +
                         ", which would have been scored and the figure returned"});
  }
  // BASE-TRACK: scores are reached by adding points; none is negative.
  for (size_t p = 0; p < pos.players.size(); ++p)
    if (pos.players[p].score < 0)
      out.push_back(
          {"BASE-TRACK", "/players/" + std::to_string(p) + "/score", "a score cannot be negative"});
}

}  // namespace

std::vector<Violation> Validate(const Position& pos) {
  std::vector<Violation> out;
  ValidateSetup(pos, out);
  ValidatePlacement(pos, out);
  ValidateSupply(pos, out);
  ValidateFiguresOnTiles(pos, out);
  ValidateSharedSegments(pos, out);
  ValidateReturnsAndScores(pos, out);
  for (const auto& h : pos.cfg().hooks.validate) h.fn(pos, out);
  return out;
}

std::vector<ScoreEvent> ScoreFinal(Position& pos) {
  std::vector<ScoreEvent> out;
  FinalScoring(pos, out);
  return out;
}

uint64_t Perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  std::vector<Action> legal = LegalActions(pos);
  if (depth == 1) return legal.size();
  uint64_t n = 0;
  Position next;  // assigned per action: its buffers are reused
  for (const Action& a : legal) {
    next = pos;
    next.explain = false;  // counts only: the lean path
    ApplyResult r = Apply(next, a);
    CARC_CHECK(r.verdict.legal && r.input_error.empty());
    n += Perft(next, depth - 1);
  }
  return n;
}

namespace {
bool IsVowel(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }
}  // namespace

std::string Describe(const Position& pos, const Action& a) {
  const TileCatalog& cat = *pos.cfg().catalog;
  auto at = [](Coord c) { return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")"; };
  switch (a.type) {
    case ActionType::kDraw:
      return "draw tile " + cat.Name(a.tile);
    case ActionType::kPlaceTile:
      return "place tile " +
             (a.tile >= 0      ? cat.Name(a.tile)
              : pos.turn.drawn ? cat.Name(*pos.turn.drawn)
                               : std::string("?")) +
             " at " + at(a.pos) + " rotated " + std::to_string(90 * a.rotation);
    case ActionType::kPlaceFigure: {
      // Named by its role on the feature: "place a thief"; a figure of another kind than the
      // meeple: "place a <kind> knight".
      const std::string& kind = pos.cfg().figure_kinds[a.figure_kind].name;
      std::string s = "place " + kind;
      const RotatedTile* rt = nullptr;
      if (auto t = pos.board.At(a.pos); t && a.has_pos) rt = &pos.board.rotated(*t);
      if (rt && a.segment >= 0 && a.segment < static_cast<int>(rt->segments.size())) {
        const Segment& seg = rt->segments[a.segment];
        const std::string role = RoleName(seg.kind);
        const std::string name = a.figure_kind == kMeeple ? role : kind + " " + role;
        s = "place " + std::string(IsVowel(name[0]) ? "an " : "a ") + name + " on " +
            std::string(FeatureKindName(seg.kind));
        if (seg.kind == FeatureKind::kField) s += ":" + HalvesName(seg.halves);
        if (seg.kind == FeatureKind::kRoad || seg.kind == FeatureKind::kCity)
          s += ":" + SidesName(seg.sides);
      }
      return s + " of the tile at " + at(a.pos);
    }
    case ActionType::kPass:
      return "pass";
    case ActionType::kExpansion:
      return DescribeModuleAction(pos, a);
  }
  return "?";
}

}  // namespace carc::model

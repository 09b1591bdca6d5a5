// The Messengers' two steps: assign_points (after the core scoring step) and message (before
// the end of the turn). Both take assign_points actions while points wait for their figure.
#include <algorithm>

#include "model/core/core_steps.h"
#include "model/core/position.h"
#include "model/core/step.h"
#include "model/expansions/messengers/messages.h"
#include "model/expansions/messengers/messengers.h"

namespace carc::exp::messengers {

namespace {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::Position;
using model::Reason;
using model::Verdict;

std::string PlayerName(const Position& pos, PlayerId p) { return pos.players[p].name; }

// "12 (space 12)": a scoring figure's place on the track (MSG-DARK).
std::string TrackText(int points) {
  return std::to_string(points) + " (space " + std::to_string(Space(points)) + ")";
}

// MSG-FN1 (c2-printed-alone): the figure must stand alone on its space; MSG-Q-ALONE: only
// another player's scoring figure blocks it (adopted), or any other figure (variant).
bool AloneOk(const State& s, PlayerId p, Figure f, int points, std::string* blocker = nullptr) {
  if (s.variant != Variant::kC2PrintedAlone) return true;
  for (size_t q = 0; q < s.tracks.size(); ++q)
    for (int g = 0; g < kFigures; ++g) {
      const bool self = static_cast<int>(q) == p;
      if (self && (g == static_cast<int>(f) || !s.readings.any_other_figure_blocks)) continue;
      if (g == 1 && s.tracks[q].dame_returned) continue;
      if (Space(s.tracks[q].points[g]) != Space(points)) continue;
      if (blocker)
        *blocker = std::string(self ? "the player's own " : "another player's ") +
                   std::string(FigureName(static_cast<Figure>(g)));
      return false;
    }
  return true;
}

bool IsMe(const Action& a) { return a.type == ActionType::kExpansion && a.expansion == &Get(); }

// Is a message due for the active player now? Rules: MSG-DARK (a figure of theirs that moved
// this turn part ends on a dark space), MSG-FN13 (final positions after the scoring round;
// variant any-intermediate-stop), MSG-Q-MOVED (moved figures only; variant any-figure-on-dark),
// MSG-ONE (one per turn part), MSG-SECOND (one more for points scored through a message),
// MSG-FN15 (the C1 chain: no cap), MSG-FN1 / MSG-Q-ALONE (c2-printed-alone). Due's test without
// its text (Handles and NeedsDecision ask it at every candidate): the first figure
// whose stand makes a message due, or -1.
int DueFigure(const Position& pos, const State& s) {
  if (!s.pending.empty() || pos.turn.game_over) return -1;
  const PlayerId p = pos.turn.player;
  if (s.DameReturned(p)) return -1;
  const bool second = s.part.taken > 0;
  if (second && s.part.taken >= 2 && !s.Chain()) return -1;
  const auto& moved = second ? s.part.msg_moved : s.part.moved;
  const auto& stops = second ? s.part.msg_dark_stop : s.part.dark_stop;
  const bool any_moved = moved[0] || moved[1];
  for (int g = 0; g < kFigures; ++g) {
    const Figure f = static_cast<Figure>(g);
    const int pts = s.Points(p, f);
    bool ok;
    if (s.readings.any_figure_on_dark)
      ok = any_moved && Dark(pts) && AloneOk(s, p, f, pts);
    else if (s.readings.any_intermediate_stop)
      ok = stops[g];
    else
      ok = moved[g] && Dark(pts) && AloneOk(s, p, f, pts);
    if (ok) return g;
  }
  return -1;
}

}  // namespace

// Due: DueFigure's answer with the ruling and text that give it.
std::optional<Reason> Due(const Position& pos, const State& s) {
  const int g = DueFigure(pos, s);
  if (g < 0) return std::nullopt;
  const PlayerId p = pos.turn.player;
  const bool second = s.part.taken > 0;
  const auto& moved = second ? s.part.msg_moved : s.part.moved;
  const Figure f = static_cast<Figure>(g);
  const int pts = s.Points(p, f);
  std::string who = PlayerName(pos, p) + "'s " + std::string(FigureName(f));
  std::string text = s.readings.any_intermediate_stop
                         ? who +
                               " stopped on a dark space during this scoring round (MSG-FN13 "
                               "any-intermediate-stop)"
                         : who + (moved[g] ? " moved this turn part and" : "") + " stands on " +
                               TrackText(pts) + ", a dark space";
  if (!second) return Reason{"MSG-DARK", text + ": the active player takes the top message"};
  return Reason{s.part.taken == 1 ? "MSG-SECOND" : "MSG-FN15",
                text +
                    " through the points of a message: the player may take another "
                    "message" +
                    (s.part.taken == 1 ? "" : " (original edition: the chain goes on)")};
}

namespace {

// ---- assign_points (MSG-CHOOSE, MSG-SPLIT, MSG-C31, MSG-ACTIVE, MSG-Q-OUTSIDE)

void ListAssign(const Position& pos, std::vector<Action>& out) {
  const State& s = Slice(pos);
  const Pending& e = s.pending.front();
  const int fixed =
      s.variant == Variant::kRevision2025 && e.player < static_cast<int>(s.turn_figure.size())
          ? s.turn_figure[e.player]
          : -1;
  for (int f = 0; f < kFigures; ++f)
    if (fixed < 0 || fixed == f)
      out.push_back(
          {.type = ActionType::kExpansion, .expansion = &Get(), .code = kAssign, .args = {f}});
}

ApplyResult ApplyAssign(Position& pos, const Action& a) {
  ApplyResult r;
  State& s = Slice(pos);
  s.Sync(static_cast<int>(pos.players.size()));
  const Pending e = s.pending.front();
  const Figure f = kFigureArg(a);
  const std::string who = PlayerName(pos, e.player);
  const int fixed = s.variant == Variant::kRevision2025 ? s.turn_figure[e.player] : -1;
  if (fixed >= 0 && fixed != static_cast<int>(f)) {
    r.verdict =
        Verdict::Illegal("MSG-C31", "2025 revision: " + who + " already moved the " +
                                        std::string(FigureName(static_cast<Figure>(fixed))) +
                                        " this turn; all of a turn's points go to the same figure");
    return r;
  }
  int& pts = s.tracks[e.player].points[static_cast<int>(f)];
  const int from = pts;
  pts += e.points;
  r.verdict.reasons.push_back({"MSG-CHOOSE", who + "'s " + std::string(FigureName(f)) +
                                                 " takes the " + std::to_string(e.points) +
                                                 " points of " + e.source + ": " +
                                                 std::to_string(from) + " -> " + TrackText(pts)});
  if (s.variant == Variant::kRevision2025) {
    s.turn_figure[e.player] = static_cast<int>(f);
    r.verdict.reasons.push_back({"MSG-C31", "2025 revision: " + who +
                                                " moves only this figure for the rest of "
                                                "the turn"});
  }
  s.pending.erase(s.pending.begin());
  const bool other_pending = std::any_of(s.pending.begin(), s.pending.end(),
                                         [&](const Pending& x) { return x.player == e.player; });
  const PlayerId active = pos.turn.player;
  if (e.player != active) {
    if (Dark(pts))
      r.verdict.reasons.push_back(
          {"MSG-ACTIVE", who + "'s " + std::string(FigureName(f)) + " ends on " + TrackText(pts) +
                             ", a dark space, but it is not " + who +
                             "'s turn: points scored in another player's turn never give a "
                             "message"});
    if (other_pending)
      r.verdict.reasons.push_back(
          {"MSG-SPLIT", "each scoring event's points go whole to a figure of the player's choice"});
    return r;
  }
  // Any move of the active player's figure, for the end-of-part notes (MSG-Q-MOVED).
  s.part.moved_any[static_cast<int>(f)] = true;
  if (e.origin == Origin::kOutside && s.readings.step3_only) {
    r.verdict.reasons.push_back(
        {"MSG-Q-OUTSIDE",
         "points scored outside step 3 move the figure but do not count for "
         "the message check (step-3-only)"});
    return r;
  }
  if (e.origin == Origin::kOutside)
    r.verdict.reasons.push_back(
        {"MSG-Q-OUTSIDE",
         "points the active player scored in this turn outside step 3 count "
         "for the message check after step 3 (whole-turn-counts)"});
  const bool msg = e.origin == Origin::kMessage;
  auto& moved = msg ? s.part.msg_moved : s.part.moved;
  auto& stops = msg ? s.part.msg_dark_stop : s.part.dark_stop;
  const int g = static_cast<int>(f);
  if (!msg && (other_pending || moved[1 - g] || moved[g]))
    r.verdict.reasons.push_back(
        {"MSG-SPLIT",
         "each scoring event's points go whole to a figure of the player's choice; "
         "several events of one turn may go to different figures (MSG-FN12)"});
  moved[g] = true;
  std::string blocker;
  if (Dark(pts) && AloneOk(s, e.player, f, pts, &blocker)) stops[g] = true;
  if (Dark(pts) && !blocker.empty())
    r.verdict.reasons.push_back(
        {"MSG-FN1",
         "C2 printed rules: the space " + std::to_string(Space(pts)) + " is shared with " +
             blocker + ", so it gives no message" +
             (blocker.find("own") != std::string::npos ? " (MSG-Q-ALONE any-other-figure-blocks)"
                                                       : "")});
  return r;
}

// MSG-CHOOSE: the figure for waiting points is the player's choice, and a question that goes
// on past it without stating it is incomplete (exit 65 naming the choice, as an unstated draw
// is), not a move to rule on: Step::ChanceToState is the core's way of naming it.
std::optional<std::string> UnstatedFigure(const Position& pos) {
  const State& s = Slice(pos);
  if (s.pending.empty()) return std::nullopt;
  const Pending& e = s.pending.front();
  return "the scoring figure that takes " + PlayerName(pos, e.player) + "'s " +
         std::to_string(e.points) + " point(s) of " + e.source +
         " ({\"type\": \"assign_points\", \"kind\": \"meeple\"} or \"dame\"; MSG-CHOOSE)";
}

class AssignStep final : public model::Step {
 public:
  std::string_view Name() const override { return kAssignStep; }
  bool NeedsDecision(const Position& pos) const override {
    return !Slice(pos).pending.empty() && !pos.turn.game_over;
  }
  bool Handles(const Position& pos, const Action& a) const override {
    return IsMe(a) && a.code == kAssign && !Slice(pos).pending.empty();
  }
  void Legal(const Position& pos, std::vector<Action>& out) const override { ListAssign(pos, out); }
  ApplyResult Apply(Position& pos, const Action& a) const override { return ApplyAssign(pos, a); }
  std::optional<std::string> ChanceToState(const Position& pos) const override {
    return UnstatedFigure(pos);
  }
  // MSG-CHOOSE: whenever points are scored the player chooses the figure they move, then: points
  // scored before the scoring step (a card played before the tile is placed) are assigned at
  // once, before the turn goes on; the message check after step 3 sees the move (MSG-Q-OUTSIDE).
  bool Preempts() const override { return true; }
  // MSG-CHOOSE: the points just scored wait for their figure before anything else.
  Reason OutOfStep(const Position& pos, const Action&) const override {
    const Pending& e = Slice(pos).pending.front();
    return {"MSG-CHOOSE", std::to_string(e.points) + " point(s) scored wait for " +
                              PlayerName(pos, e.player) +
                              " to choose the scoring figure they move (assign_points)"};
  }
};

// ---- message (MSG-DARK, MSG-RESOLVE, MSG-1..8, MSG-ONE, MSG-SECOND, MSG-FN15, MSG-4/FN6)

// MSG-RESOLVE: under an unknown stack, a message used recently cannot be drawn.
bool IsUsed(const State& s, Message m) {
  return std::find(s.used.begin(), s.used.end(), m) != s.used.end();
}

Message Current(const State& s) { return s.in_hand ? *s.in_hand : s.stack.front(); }

// The player may decline a second (or, in the C1 chain, further) message (MSG-SECOND "may").
bool CanDecline(const State& s) { return s.part.taken > 0 && !s.in_hand; }

// MSG-4, MSG-FN6, MSG-FN19: the extra tile is a whole turn part with its own scoring round.
void StartExtraPart(Position& pos, State& s, ApplyResult& r) {
  model::TurnState next;
  next.player = pos.turn.player;
  next.step = pos.cfg().core_step.draw_tile;
  s.part = TurnPart{.part = s.part.part + 1};
  next.part = s.part.part;  // the turn goes on: cards of its earlier parts are still its own
  pos.turn = next;
  r.notes.push_back({"MSG-FN6",
                     "the extra tile is a full turn part: draw, place the tile and a figure, "
                     "score, and possibly another message (turn part " +
                         std::to_string(s.part.part) + ")"});
}

class MessageStep final : public model::Step {
 public:
  std::string_view Name() const override { return kMessageStep; }
  std::string Declines(const Position&) const override { return "declines a further message"; }
  bool NeedsDecision(const Position& pos) const override {
    const State& s = Slice(pos);
    if (pos.turn.game_over) return false;
    return !s.pending.empty() || s.in_hand || DueFigure(pos, s) >= 0;
  }
  bool Handles(const Position& pos, const Action& a) const override {
    const State& s = Slice(pos);
    if (!s.pending.empty()) return IsMe(a) && a.code == kAssign;
    // The action's own test first: whether a message is due only for one the step could take.
    const bool fits = a.type == ActionType::kPass ? CanDecline(s) : IsMe(a) && a.code != kAssign;
    return fits && (s.in_hand || DueFigure(pos, s) >= 0);
  }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    const State& s = Slice(pos);
    if (!s.pending.empty()) return ListAssign(pos, out);
    if (CanDecline(s)) out.push_back({.type = ActionType::kPass});
    auto act = [&](int code, model::ActionArgs args) {
      out.push_back(
          {.type = ActionType::kExpansion, .expansion = &Get(), .code = code, .args = args});
    };
    if (!s.in_hand && !s.stack_known) {
      // MSG-RESOLVE: a used message lies under the stack until the others have come up.
      for (int m = 0; m < kMessages; ++m)
        if (!IsUsed(s, static_cast<Message>(m))) act(kDrawMessage, {m});
      return;
    }
    const Message m = Current(s);
    act(kSeal, {static_cast<int>(m)});
    if (!HasTarget(m)) return act(kCarryOut, {static_cast<int>(m), -1, -1});
    std::vector<int> targets = Targets(pos, m, pos.turn.player);
    if (targets.empty()) return act(kCarryOut, {static_cast<int>(m), -1, -1});
    // MSG-8: one action per figure; the kind is named only where two of the player's kinds
    // share a segment (the choice the question must then state).
    std::vector<int> seen;
    for (int node : targets) {
      if (std::find(seen.begin(), seen.end(), node) != seen.end()) continue;
      seen.push_back(node);
      const std::vector<int> kinds = m == Message::kScoreAndReturn
                                         ? OwnKindsAt(pos, node, pos.turn.player)
                                         : std::vector<int>{};
      if (kinds.size() < 2) {
        act(kCarryOut, {static_cast<int>(m), node, -1});
        continue;
      }
      for (int k : kinds) act(kCarryOut, {static_cast<int>(m), node, k});
    }
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    State& s = Slice(pos);
    if (!s.pending.empty()) return ApplyAssign(pos, a);
    ApplyResult r;
    std::optional<Reason> why = s.in_hand ? std::nullopt : Due(pos, s);
    if (a.type == ActionType::kPass) {
      // MSG-SECOND: the further message is optional.
      s.part.msg_moved = {false, false};
      s.part.msg_dark_stop = {false, false};
      r.verdict.reasons.push_back(
          {"MSG-SECOND", "the player declines the further message they may take"});
      return r;
    }
    if (a.code == kDrawMessage) {
      if (s.in_hand || s.stack_known) {
        r.input_error = s.in_hand ? "a message is already drawn: carry it out or take its seal"
                                  : "the message stack's order is known: the top message is " +
                                        MessageLabel(s, Current(s)) +
                                        "; carry it out or take "
                                        "its seal";
        return r;
      }
      const Message drawn = kMessageArg(a);
      if (IsUsed(s, drawn)) {
        r.verdict = Verdict::Illegal(
            "MSG-RESOLVE", MessageLabel(s, drawn) +
                               " was used since the stack order became unknown and lies face "
                               "down under the stack: it cannot come up before the other " +
                               std::to_string(kMessages - static_cast<int>(s.used.size())) +
                               " message(s)");
        return r;
      }
      s.in_hand = drawn;
      if (why) r.verdict.reasons.push_back(*why);
      r.verdict.reasons.push_back(
          {"MSG-RESOLVE", "the message drawn is " + MessageLabel(s, *s.in_hand)});
      return r;
    }
    if (!s.in_hand && !s.stack_known) {
      r.input_error =
          "the order of the message stack is unknown (no /expansions/messengers/stack): the "
          "question must state the message drawn with {\"type\": \"draw_message\", "
          "\"kind\": ...}";
      return r;
    }
    const Message m = Current(s);
    if (kMessageArg.Has(a) && kMessageArg(a) != m) {
      r.verdict = Verdict::Illegal("MSG-RESOLVE", "the message drawn is " + MessageLabel(s, m) +
                                                      ", not " + MessageLabel(s, kMessageArg(a)));
      return r;
    }
    int node = -1, figure = -1;
    if (a.code == kCarryOut) {
      TargetCheck tc = CheckTarget(pos, m, pos.turn.player, kNodeArg(a), kKindArg(a));
      if (!tc.input_error.empty()) {
        r.input_error = tc.input_error;
        return r;
      }
      if (!tc.verdict.legal) {
        r.verdict = tc.verdict;
        return r;
      }
      node = tc.node;
      figure = tc.figure;
    }
    // Legal from here on.
    if (why) r.verdict.reasons.push_back(*why);
    if (!s.in_hand) s.stack.erase(s.stack.begin());
    s.in_hand.reset();
    s.part.taken += 1;
    s.part.msg_moved = {false, false};
    s.part.msg_dark_stop = {false, false};
    s.resolving = true;
    if (a.code == kSeal) {
      r.verdict.reasons.push_back(
          {"MSG-RESOLVE", "instead of carrying out " + MessageLabel(s, m) +
                              ", the player takes the 2 points of its seal"});
      TakeSeal(pos, m, r);
    } else {
      r.verdict.reasons.push_back(
          {std::string(MessageRuling(m)), "the player carries out " + MessageLabel(s, m)});
      if (m != Message::kExtraTile) CarryOut(pos, m, node, r, figure);
    }
    s.resolving = false;
    if (s.stack_known) {
      s.stack.push_back(m);
    } else {
      // MSG-RESOLVE: remember it until 7 others have been used after it.
      s.used.push_back(m);
      if (static_cast<int>(s.used.size()) > kMaxUsed) s.used.erase(s.used.begin());
    }
    r.notes.push_back({"MSG-RESOLVE", "the message goes face down under the stack"});
    if (a.code == kCarryOut && m == Message::kExtraTile) StartExtraPart(pos, s, r);
    return r;
  }
  // The message drawn from a stack of unknown order is a chance outcome.
  std::optional<std::string> ChanceToState(const Position& pos) const override {
    const State& s = Slice(pos);
    if (!s.pending.empty()) return UnstatedFigure(pos);
    if (s.in_hand || s.stack_known) return std::nullopt;
    return "the message drawn ({\"type\": \"draw_message\", \"kind\": ...})";
  }
  // MSG-CHOOSE, MSG-RESOLVE: waiting points first, then the message drawn is carried out or
  // sealed.
  Reason OutOfStep(const Position& pos, const Action&) const override {
    const State& s = Slice(pos);
    if (!s.pending.empty())
      return {"MSG-CHOOSE", "points wait for " + PlayerName(pos, s.pending.front().player) +
                                " to choose the scoring figure they move (assign_points)"};
    return {"MSG-RESOLVE", PlayerName(pos, pos.turn.player) +
                               " takes the message now: carry it out or take its 2-point seal"};
  }
  // No message (any more) this turn part: explain a dark space that gives none, then clear the
  // turn's bookkeeping.
  void Run(Position& pos, ApplyResult& r) const override {
    State& s = Slice(pos);
    const PlayerId p = pos.turn.player;
    for (int g = 0; g < kFigures && !s.DameReturned(p); ++g) {
      const Figure f = static_cast<Figure>(g);
      const int pts = s.Points(p, f);
      if (!Dark(pts)) {
        if (s.part.dark_stop[g] && s.part.taken == 0 && !s.readings.any_intermediate_stop)
          r.notes.push_back(
              {"MSG-FN13", PlayerName(pos, p) + "'s " + std::string(FigureName(f)) +
                               " stopped on a dark space during the scoring round but ends on " +
                               TrackText(pts) +
                               ": only the final position after the round counts"});
        continue;
      }
      // moved_any: moved by any points of this turn part, a message's included (MSG-Q-MOVED).
      const bool moved = s.part.moved_any[g];
      if (s.part.taken > 0 && moved) {
        r.notes.push_back({s.part.taken == 1 ? "MSG-ONE" : "MSG-FN15",
                           PlayerName(pos, p) + "'s " + std::string(FigureName(f)) + " stands on " +
                               TrackText(pts) +
                               " but the message(s) of this turn part are taken or declined"});
      } else if (!moved && s.part.moved_any[1 - g]) {
        r.notes.push_back({"MSG-Q-MOVED", PlayerName(pos, p) + "'s " + std::string(FigureName(f)) +
                                              " stands on " + TrackText(pts) +
                                              " but did not move this turn part: no message"});
      } else if (moved && !AloneOk(s, p, f, pts)) {
        r.notes.push_back({"MSG-FN1", "the space " + std::to_string(Space(pts)) +
                                          " is shared: no message under the C2 printed rules"});
      }
    }
    s.part = TurnPart{};
    std::fill(s.turn_figure.begin(), s.turn_figure.end(), -1);
  }
};

}  // namespace

// MSG-ONE, MSG-SECOND, MSG-FN15, MSG-FN1, MSG-Q-MOVED, MSG-DARK, MSG-ACTIVE, MSG-CHOOSE: why the
// turn cannot take a message action where it stands. `pos` is at a decision step that does not
// take it, after the turn's last decision (the rest of the turn needs none), at another player's
// turn or after the end of the game.
std::optional<Verdict> OutOfStepRuling(const Position& at, const Action& a) {
  if (!IsMe(a)) return std::nullopt;
  // After the turn's last decision, the scoring may still be ahead: run the steps that need no
  // decision up to the message step (not its end-of-part bookkeeping), so that the ruling sees
  // the scoring's outcome.
  Position pos = at;
  if (!pos.turn.game_over) {
    const int msg = pos.cfg().StepIndex(kMessageStep);
    ApplyResult ignored;
    while (pos.turn.step < msg && !pos.current_step().NeedsDecision(pos)) {
      pos.current_step().Run(pos, ignored);
      if (pos.turn.game_over) break;
      ++pos.turn.step;
    }
  }
  const State& s = Slice(pos);
  const PlayerId p = pos.turn.player;
  const std::string who = PlayerName(pos, p);
  if (pos.turn.game_over)
    return Verdict::Illegal("MSG-FINAL",
                            "the game is over: both scoring figures were summed "
                            "before final scoring and no message is taken any more");
  if (a.code == kAssign) {
    if (!s.pending.empty())
      return std::nullopt;  // a step that takes it comes later: not this ruling's business
    return Verdict::Illegal("MSG-CHOOSE", "no points wait for " + who +
                                              " to choose a scoring figure: a figure is chosen "
                                              "for points just scored");
  }
  // Points waiting at the step that takes their figure: the question left that choice out
  // (the step names it, UnstatedFigure), which is not a move to rule on.
  if (!s.pending.empty() &&
      (pos.current_step().Name() == kAssignStep || pos.current_step().Name() == kMessageStep))
    return std::nullopt;
  if (!s.pending.empty())
    return Verdict::Illegal("MSG-CHOOSE",
                            "points scored wait for " + PlayerName(pos, s.pending.front().player) +
                                " to choose the scoring figure they move; a message comes only "
                                "after the figures have moved (MSG-FN13)");
  const bool after_scoring =
      pos.turn.placed >= 0 && pos.turn.step >= pos.cfg().core_step.score_completed;
  if (!after_scoring)
    return Verdict::Illegal("MSG-DARK",
                            "a message is taken after the scoring of the turn (step 3), when a "
                            "scoring figure of the active player ended on a dark space; " +
                                who + " has not reached the scoring yet");
  if (s.DameReturned(p))
    return Verdict::Illegal("MSG-FINAL", who + "'s dame has left the track: no message");
  if (s.part.taken == 1) {
    Verdict v = Verdict::Illegal("MSG-ONE", who + " already took the one message of this turn" +
                                                (s.part.part > 1 ? " part" : "") +
                                                ": at most one message per turn");
    v.reasons.push_back({"MSG-SECOND",
                         "a second message needs the points of the first to put a scoring figure "
                         "on a dark space, and they did not (or the second was declined)"});
    return v;
  }
  if (s.part.taken >= 2)
    return Verdict::Illegal(
        s.Chain() ? "MSG-SECOND" : "MSG-FN15",
        who + " already took " + std::to_string(s.part.taken) + " messages this turn: " +
            (s.Chain() ? "the last one's points put no scoring figure on a dark space"
                       : "only one second message is allowed (the endless chain was the original "
                         "edition's rule)"));
  // No message taken: say why none is due.
  for (int g = 0; g < kFigures; ++g) {
    const Figure f = static_cast<Figure>(g);
    const int pts = s.Points(p, f);
    if (!Dark(pts)) continue;
    std::string blocker;
    if (s.part.moved[g] && !AloneOk(s, p, f, pts, &blocker))
      return Verdict::Illegal("MSG-FN1", "C2 printed rules: " + who + "'s " +
                                             std::string(FigureName(f)) + " ends on space " +
                                             std::to_string(Space(pts)) + ", shared with " +
                                             blocker + ", so it gives no message");
    if (!s.part.moved[g] && !s.readings.any_figure_on_dark)
      return Verdict::Illegal("MSG-Q-MOVED", who + "'s " + std::string(FigureName(f)) +
                                                 " stands on " + TrackText(pts) +
                                                 " but did not move this turn: no message");
  }
  return Verdict::Illegal("MSG-DARK", "neither of " + who +
                                          "'s scoring figures ended this turn's scoring on a "
                                          "dark space (0, 5, 10, ...): no message");
}

// MSG-CHOOSE: points are assigned right after the scoring step (and, the step preempting,
// right after points scored earlier in the turn); MSG-DARK, MSG-RESOLVE: the message is taken
// and resolved before the end of the turn.
void DeclareSteps(model::ModuleLoader& loader) {
  static const AssignStep assign;
  static const MessageStep message;
  loader.AddStep(model::kScoreCompleted, model::Place::kAfter, &assign);
  loader.AddStep(model::kEndTurn, model::Place::kBefore, &message);
}

}  // namespace carc::exp::messengers

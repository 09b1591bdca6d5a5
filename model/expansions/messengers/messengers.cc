#include "model/expansions/messengers/messengers.h"

#include <algorithm>

#include "model/core/check.h"
#include "model/core/position.h"
#include "model/expansions/messengers/io.h"
#include "model/expansions/messengers/messages.h"
#include "model/expansions/messengers/picture.h"

namespace carc::exp::messengers {

using model::Position;
using model::ScoreEvent;

const Messengers& Get() {
  static const Messengers expansion;
  return expansion;
}

namespace {

std::string SourceOf(const ScoreEvent& ev) {
  if (ev.cause == MakeCause(Cause::kMessage) || ev.cause == MakeCause(Cause::kSeal))
    return ev.formula.substr(0, ev.formula.find(':'));
  const std::string cause(model::CauseName(ev.cause));
  if (ev.root < 0 && ev.tiles.empty()) return cause;  // points for no feature (a card)
  return std::string(model::FeatureKindName(ev.kind)) + " (" + cause + ")";
}

// MSG-CHOOSE: every point scored during the game waits for the player to choose the figure it
// moves (steps assign_points / message); the score itself counts at once. MSG-FINAL: after the
// final sum the points go to the one remaining figure.
bool InterceptAward(Position& pos, const ScoreEvent& ev, PlayerId player, int points) {
  State& s = Slice(pos);
  s.Sync(static_cast<int>(pos.players.size()));
  if (s.DameReturned(player)) {
    s.tracks[player].points[0] += points;
    pos.players[player].score += points;
    return true;
  }
  if (points <= 0) return false;
  Origin origin = Origin::kOutside;  // MSG-Q-OUTSIDE
  if (s.resolving)
    origin = Origin::kMessage;
  else if (pos.turn.step == pos.cfg().core_step.score_completed)
    origin = Origin::kScoring;
  pos.players[player].score += points;
  s.pending.push_back({player, points, origin, SourceOf(ev)});
  return true;
}

// MSG-FINAL, MSG-FN16, MSG-FN17: both figures are summed onto one before final scoring; the
// dame leaves the track and no message is taken any more.
void BeforeFinalScoring(Position& pos, std::vector<ScoreEvent>& out) {
  State& s = Slice(pos);
  s.Sync(static_cast<int>(pos.players.size()));
  for (size_t p = 0; p < pos.players.size(); ++p) {
    Track& t = s.tracks[p];
    if (t.dame_returned) continue;
    int waiting = 0;
    for (const Pending& e : s.pending)
      if (e.player == static_cast<int>(p)) waiting += e.points;
    const int sum = t.points[0] + t.points[1] + waiting;
    ScoreEvent ev;
    ev.cause = MakeCause(Cause::kFinalSum);
    ev.winners = {static_cast<PlayerId>(p)};
    ev.formula = "scoring meeple " + std::to_string(t.points[0]) + " + dame " +
                 std::to_string(t.points[1]) +
                 (waiting ? " + " + std::to_string(waiting) + " not yet moved" : "") + " = " +
                 std::to_string(sum) + ": one figure goes on " + std::to_string(sum) +
                 ", the other leaves the track";
    ev.rulings = {"MSG-FINAL"};
    if (sum >= 50) {
      ev.formula += " (scoring tile " + std::to_string(sum / 50 * 50) + ")";
      ev.rulings.push_back("MSG-FN16");
      ev.rulings.push_back("MSG-FN17");
    }
    t.points = {sum, 0};
    t.dame_returned = true;
    out.push_back(ev);
  }
  s.pending.clear();
  s.in_hand.reset();
  // The part the game ended in stays stated (TurnState::part): a card drawn in an earlier part
  // of the last turn is still that turn's.
  s.part = TurnPart{.part = s.part.part};
}

void Validate(const Position& pos, std::vector<model::Violation>& out) {
  const State& s = Slice(pos);
  const int players = static_cast<int>(pos.players.size());
  const std::string base = "/expansions/messengers";
  const std::string step =
      pos.turn.game_over ? "game_over" : std::string(pos.current_step().Name());
  // MSG-SETUP / MSG-CHOOSE: the two figures together hold every point not waiting for its
  // figure.
  for (int p = 0; p < players; ++p) {
    int waiting = 0;
    for (const Pending& e : s.pending)
      if (e.player == p) waiting += e.points;
    const int m = s.Points(p, Figure::kMeeple), d = s.Points(p, Figure::kDame);
    if (m < 0 || d < 0)
      out.push_back({"MSG-SETUP", base + "/tracks/" + std::to_string(p),
                     "a scoring figure cannot stand below 0"});
    if (m + d + waiting != pos.players[p].score)
      out.push_back({"MSG-CHOOSE", "/players/" + std::to_string(p) + "/score",
                     "player " + std::to_string(p) + " has " +
                         std::to_string(pos.players[p].score) +
                         " points but the scoring meeple and dame hold " + std::to_string(m) +
                         " + " + std::to_string(d) +
                         (waiting ? " with " + std::to_string(waiting) + " waiting" : "") +
                         " (every point moves one of the two figures; give " + base + "/tracks)"});
    // MSG-FINAL: the dame leaves the track only at the final sum.
    if (s.DameReturned(p) && !pos.turn.game_over)
      out.push_back({"MSG-FINAL", base + "/tracks/" + std::to_string(p),
                     "the dame leaves the track only when both figures are summed before final "
                     "scoring"});
    if (pos.turn.game_over && !s.DameReturned(p) && d > 0)
      out.push_back({"MSG-FINAL", base + "/tracks/" + std::to_string(p),
                     "after final scoring both figures have been summed onto one"});
  }
  // MSG-SETUP: 8 message tiles, each once.
  if (s.stack_known) {
    std::vector<int> seen(kMessages, 0);
    for (Message m : s.stack) seen[static_cast<int>(m)]++;
    if (s.in_hand) seen[static_cast<int>(*s.in_hand)]++;
    for (int m = 0; m < kMessages; ++m)
      if (seen[m] != 1)
        out.push_back({"MSG-SETUP", base + "/stack",
                       "the 8 message tiles each appear once (stack and hand); " +
                           std::string(MessageName(static_cast<Message>(m))) + " appears " +
                           std::to_string(seen[m]) + " times"});
  }
  // MSG-RESOLVE: under an unknown stack order, the messages used lately lie under the stack.
  if (!s.used.empty()) {
    if (s.stack_known)
      out.push_back({"MSG-RESOLVE", base + "/used",
                     "used messages are listed only when the stack order is unknown (the known "
                     "stack already shows them at its bottom)"});
    if (static_cast<int>(s.used.size()) > kMaxUsed)
      out.push_back({"MSG-RESOLVE", base + "/used",
                     "at most the last 7 messages used are listed: after 8 the stack has come "
                     "round"});
    for (size_t i = 0; i < s.used.size(); ++i) {
      const Message m = s.used[i];
      const bool again = std::find(s.used.begin(), s.used.begin() + i, m) != s.used.begin() + i;
      if (again || (s.in_hand && *s.in_hand == m))
        out.push_back({"MSG-RESOLVE", base + "/used/" + std::to_string(i),
                       std::string(MessageName(m)) +
                           " lies face down under the stack after its use: it cannot come up "
                           "again before the other messages"});
    }
  }
  // MSG-RESOLVE: a drawn message is resolved in the message step.
  if (s.in_hand && step != kMessageStep)
    out.push_back({"MSG-RESOLVE", base + "/in_hand",
                   "a drawn message is resolved at once, in the step message"});
  // MSG-DARK, MSG-SECOND, MSG-FN15: a message is in hand only when one was due when it was
  // drawn; drawing it changes nothing else, so it must still be due.
  if (s.in_hand && step == kMessageStep && !pos.turn.game_over) {
    if (s.part.taken >= 2 && !s.Chain())
      out.push_back({"MSG-FN15", base + "/in_hand",
                     "a third message in one turn part: only the original edition's unlimited "
                     "chain allows it (variant original-unlimited-chain)"});
    else if (!Due(pos, s))
      out.push_back({s.part.taken == 0 ? "MSG-DARK" : "MSG-SECOND", base + "/in_hand",
                     s.part.taken == 0
                         ? "a message is drawn only when a figure of the active player that "
                           "moved this turn part ends on a dark space (turn_part, tracks)"
                         : "a further message is drawn only when the points of the last message "
                           "moved a figure onto a dark space (turn_part, tracks)"});
  }
  for (size_t i = 0; i < s.pending.size(); ++i) {
    const Pending& e = s.pending[i];
    std::string w = base + "/pending/" + std::to_string(i);
    if (e.points <= 0)
      out.push_back({"MSG-CHOOSE", w + "/points", "points waiting for a figure are positive"});
    if (e.origin == Origin::kMessage && step != kMessageStep)
      out.push_back(
          {"MSG-SECOND", w + "/origin", "points from a message are assigned in the step message"});
  }
  // MSG-ONE / MSG-FN15: one message per turn part, plus the second one.
  if (s.part.taken > 2 && !s.Chain())
    out.push_back({"MSG-FN15", base + "/turn_part/messages_taken",
                   "at most one message and one second message per turn part"});
  // MSG-DARK / MSG-FN13: the scoring round comes after tile and figure placement.
  const bool before_scoring = step == model::kDrawTile || step == model::kPlaceTile ||
                              pos.turn.step < pos.cfg().core_step.score_completed;
  // Points scored earlier in the turn outside the scoring step (a card's) move a figure at once
  // (MSG-CHOOSE, MSG-Q-OUTSIDE): only those moves may be recorded before it.
  const TurnPart outside_moves{.part = s.part.part,
                               .moved = s.part.moved,
                               .dark_stop = s.part.dark_stop,
                               .moved_any = s.part.moved_any};
  if (!pos.turn.game_over && before_scoring && !(outside_moves == s.part))
    out.push_back({"MSG-DARK", base + "/turn_part",
                   "figures move and messages are taken only after the scoring step of a turn "
                   "part"});
  // MSG-C31: the figure of the turn is recorded only under the 2025 revision.
  for (int f : s.turn_figure)
    if (f >= 0 && s.variant != Variant::kRevision2025)
      out.push_back({"MSG-C31", base + "/turn_figures",
                     "one figure per turn is the 2025 revision's rule (variant revision-2025)"});
}

}  // namespace

void Messengers::Load(model::ModuleLoader& loader) const {
  DeclareSteps(loader);
  DeclareState(loader);
  DeclareActions(loader);
  DeclareVariants(loader);
  loader.OnValidate(Validate);
  loader.OnJudgeOutOfStep(OutOfStepRuling);  // rulings: see OutOfStepRuling (steps.cc)
  loader.OnInterceptAward(InterceptAward);
  loader.OnBeforeFinalScoring(BeforeFinalScoring);
  loader.OnDescribeState(DescribeState);  // picture.cc
}

}  // namespace carc::exp::messengers

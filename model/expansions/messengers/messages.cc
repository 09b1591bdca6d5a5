#include "model/expansions/messengers/messages.h"

#include <algorithm>
#include <limits>

#include "model/core/json_reader.h"
#include "model/core/scoring.h"
#include "model/expansions/messengers/messengers.h"

namespace carc::exp::messengers {

namespace {

using model::ApplyResult;
using model::FeatureKind;
using model::Position;
using model::ScoreEvent;
using model::Verdict;

FeatureKind KindOf(Message m) {
  switch (m) {
    case Message::kSmallestRoad:
      return FeatureKind::kRoad;
    case Message::kSmallestCity:
      return FeatureKind::kCity;
    default:
      return FeatureKind::kMonastery;
  }
}

bool IsSmallest(Message m) {
  return m == Message::kSmallestRoad || m == Message::kSmallestCity || m == Message::kMonastery;
}

bool Has(const std::vector<PlayerId>& v, PlayerId p) {
  return std::find(v.begin(), v.end(), p) != v.end();
}

// The points a feature is worth for messages 1-3: its own value as at final scoring
// (MSG-Q-SMALLEST feature-value), or what p would receive there (own-payout: 0 in the minority,
// and only p's share where a module splits the value between tied leaders, XMAS-Q-SHARE
// split-value). Only the feature's own points, no figure bonus (MSG-FN3).
ScoreEvent SmallValue(const Position& pos, int root, PlayerId p) {
  ScoreEvent ev = model::FinalValue(pos, root);
  if (!Slice(pos).readings.own_payout) return ev;
  const int mine = ev.ReceivesOf(p);
  if (!Has(ev.winners, p))
    ev.formula += ", but the player is in the minority: 0 (MSG-Q-SMALLEST own-payout)";
  else if (mine != ev.points)
    ev.formula += "; " + pos.players[p].name +
                  "'s own share at final scoring: " + std::to_string(mine) +
                  " (MSG-Q-SMALLEST own-payout)";
  ev.points = mine;
  ev.receives.clear();
  return ev;
}

// The roots (with the node of p's first figure) of features of `kind` holding a figure of p.
std::vector<std::pair<int, int>> OwnFeatures(const Position& pos, FeatureKind kind, PlayerId p) {
  std::vector<std::pair<int, int>> out;
  for (const model::Figure& f : pos.figures) {
    if (f.owner != p) continue;
    int root = pos.board.Find(f.node);
    if (pos.board.Info(root).kind != kind) continue;
    if (std::none_of(out.begin(), out.end(), [&](auto& r) { return r.first == root; }))
      out.push_back({root, f.node});
  }
  return out;
}

// MSG-8: the chosen figure's feature as at final scoring under the game's options
// (model::FinalValue, model::FarmFinalValues): one event, or under c1-four-per-city one per
// completed city touching the farm (BASE-END-FARM-C1-4PT), each stated with its city.
std::vector<ScoreEvent> Msg8Values(const Position& pos, int root) {
  if (pos.board.Info(root).kind != FeatureKind::kField) return {model::FinalValue(pos, root)};
  std::vector<ScoreEvent> values = model::FarmFinalValues(pos, root);
  if (pos.cfg().options.farm_scoring == model::FarmScoring::kC1FourPerCity)
    for (ScoreEvent& v : values)
      if (v.root != root)  // a city's event (the farm's own when it touches none)
        v.formula = "4 for the completed city at " + model::TileAt(pos, v.root) +
                    ", to the majority of the farmers of every farm touching it";
  return values;
}

// The player's figure on the segment (another player's may share it: Gifts' Synod, Change
// Position, a Christmas card).
int FigureAt(const Position& pos, int node, PlayerId owner, int kind = -1) {
  for (size_t f = 0; f < pos.figures.size(); ++f)
    if (pos.figures[f].node == node && pos.figures[f].owner == owner &&
        (kind < 0 || pos.figures[f].kind == kind))
      return static_cast<int>(f);
  return -1;
}

// The rulings of a value as at final scoring without BASE-MAJORITY (the message adds it when the
// player leads): the value's own BASE-END-* first, then what modules added to the majority.
std::vector<std::string> EndRulings(const ScoreEvent& ev) {
  std::vector<std::string> out;
  for (const std::string& r : ev.rulings)
    if (r != "BASE-MAJORITY") out.push_back(r);
  std::stable_partition(out.begin(), out.end(),
                        [](const std::string& r) { return r.rfind("BASE-END", 0) == 0; });
  return out;
}

// Pays each winner what the event states (model::Award: ev.receives where a module split the
// value, e.g. XMAS-Q-SHARE split-value, else ev.points).
void AwardEach(Position& pos, const ScoreEvent& ev) {
  if (ev.points <= 0) return;
  model::Award(pos, ev);
}

}  // namespace

std::string MessageLabel(const State& s, Message m) {
  return "message " + std::to_string(MessageNumber(s.numbering, m)) + " (" +
         std::string(MessageTitle(m)) + ")";
}

bool HasTarget(Message m) { return IsSmallest(m) || m == Message::kScoreAndReturn; }

// Rules: MSG-1, MSG-2, MSG-3 (presence is enough, the smallest one, ties chosen by the player:
// MSG-Q-SMALLEST), MSG-8 (one of the player's figures on the board).
std::vector<int> Targets(const Position& pos, Message m, PlayerId p) {
  std::vector<int> out;
  if (m == Message::kScoreAndReturn) {
    for (const model::Figure& f : pos.figures)
      if (f.owner == p) out.push_back(f.node);
    return out;
  }
  if (!IsSmallest(m)) return out;
  int best = std::numeric_limits<int>::max();
  for (auto [root, node] : OwnFeatures(pos, KindOf(m), p)) {
    int v = SmallValue(pos, root, p).points;
    if (v < best) {
      best = v;
      out.clear();
    }
    if (v == best) out.push_back(node);
  }
  return out;
}

std::vector<int> OwnKindsAt(const Position& pos, int node, PlayerId p) {
  std::vector<int> out;
  for (const model::Figure& f : pos.figures)
    if (f.node == node && f.owner == p && std::find(out.begin(), out.end(), f.kind) == out.end())
      out.push_back(f.kind);
  return out;
}

TargetCheck CheckTarget(const Position& pos, Message m, PlayerId p, int node, int figure_kind) {
  TargetCheck tc;
  const State& s = Slice(pos);
  const std::string label = MessageLabel(s, m);
  // A target or figure the message never reads is refused, not ignored: the question meant
  // another message, or another action.
  if (!HasTarget(m)) {
    if (node >= 0)
      tc.input_error = label +
                       " scores no chosen feature or figure: leave \"x\", \"y\" and "
                       "\"feature\" out of the carry_out_message action";
    return tc;
  }
  if (figure_kind >= 0 && m != Message::kScoreAndReturn) {
    tc.input_error = label +
                     " scores a feature, and no figure returns: leave \"figure\" out of the "
                     "carry_out_message action";
    return tc;
  }
  const std::string ruling(MessageRuling(m));
  std::vector<int> targets = Targets(pos, m, p);
  if (node < 0) {
    if (targets.size() > 1) {
      tc.input_error = label + ": the player has a choice of " + std::to_string(targets.size()) +
                       (m == Message::kScoreAndReturn
                            ? " figures on the board; the question must name one by the tile and "
                              "feature it stands on, with \"x\", \"y\" and \"feature\" in "
                              "the carry_out_message action"
                            : " features worth the fewest points; the question must name one "
                              "with \"x\", \"y\" and \"feature\" in the carry_out_message "
                              "action");
      return tc;
    }
    tc.node = targets.empty() ? -1 : targets.front();
    return tc;
  }
  if (m == Message::kScoreAndReturn) {
    // MSG-8: the player chooses one of their figures; two of their figure kinds on the named
    // segment (a phantom beside a meeple, a card's figure) leave the choice open unless the
    // question names the kind ("figure").
    const std::vector<int> kinds = OwnKindsAt(pos, node, p);
    if (figure_kind < 0 && kinds.size() > 1) {
      tc.input_error = label + ": the player has " + std::to_string(kinds.size()) +
                       " figure kinds on the feature named at " + model::TileAt(pos, node) +
                       "; the question must name the figure that returns with \"figure\" (a "
                       "figure kind, e.g. \"" +
                       pos.cfg().figure_kinds[kinds.back()].name +
                       "\") in the carry_out_message action";
      return tc;
    }
    int f = FigureAt(pos, node, p, figure_kind);
    if (f < 0) {
      tc.verdict = Verdict::Illegal(
          "MSG-8",
          label + ": no " +
              (figure_kind < 0 ? std::string("figure") : pos.cfg().figure_kinds[figure_kind].name) +
              " of the player stands on the feature named at " + model::TileAt(pos, node) +
              "; the message scores one of the player's own figures");
      return tc;
    }
    tc.node = node;
    tc.figure = f;
    return tc;
  }
  const int root = pos.board.Find(node);
  const FeatureKind want = KindOf(m);
  if (pos.board.Info(root).kind != want) {
    tc.verdict = Verdict::Illegal(
        ruling, label + " scores a " + std::string(model::FeatureKindName(want)) +
                    "; the feature named at " + model::TileAt(pos, node) + " is a " +
                    std::string(model::FeatureKindName(pos.board.Info(root).kind)));
    return tc;
  }
  bool own = false;
  for (int f : pos.FiguresIn(root)) own |= pos.figures[f].owner == p;
  if (!own) {
    tc.verdict =
        Verdict::Illegal(ruling, label + ": the player has no figure on the " +
                                     std::string(model::FeatureKindName(want)) + " named at " +
                                     model::TileAt(pos, node) +
                                     " (at least one own figure is needed; the majority is not)");
    return tc;
  }
  for (int t : targets)
    if (pos.board.Find(t) == root) {
      tc.node = t;
      return tc;
    }
  int v = SmallValue(pos, root, p).points;
  int best = targets.empty() ? 0 : SmallValue(pos, pos.board.Find(targets.front()), p).points;
  tc.verdict = Verdict::Illegal(
      ruling, label + ": the " + std::string(model::FeatureKindName(want)) + " named at " +
                  model::TileAt(pos, node) + " is worth " + std::to_string(v) +
                  " at final scoring, but the player's smallest one is worth " +
                  std::to_string(best) + "; the message must score the smallest");
  tc.verdict.reasons.push_back(
      {"MSG-Q-SMALLEST", "features are ranked by the points they would give at final scoring"});
  return tc;
}

// MSG-1/2/3: the feature's own value as at final scoring (MSG-FN3); figures stay and the
// feature stays open.
static void CarryOutSmallest(Position& pos, Message m, int node, const std::string& label,
                             const std::string& ruling, ScoreEvent& ev, ApplyResult& out) {
  if (node < 0) {
    ev.kind = KindOf(m);
    ev.formula = label + ": the player has no figure on any " +
                 std::string(model::FeatureKindName(ev.kind)) + ": nothing to score";
    ev.rulings = {ruling};
    out.scores.push_back(ev);
    return;
  }
  ScoreEvent v = SmallValue(pos, pos.board.Find(node), pos.turn.player);
  ev.kind = v.kind;
  ev.root = v.root;
  ev.tiles = v.tiles;
  ev.shields = v.shields;
  ev.strength = v.strength;
  ev.points = v.points;
  ev.formula = label + ": " + v.formula + ", as at final scoring; only the feature's own points";
  ev.rulings = EndRulings(v);
  ev.rulings.insert(ev.rulings.begin(), {ruling, "MSG-FN3", "MSG-Q-SMALLEST"});
  if (m == Message::kMonastery) ev.rulings.push_back("MSG-FN4");
  AwardEach(pos, ev);
  out.scores.push_back(ev);
  out.notes.push_back({ruling, "the player's figures stay on the " +
                                   std::string(model::FeatureKindName(ev.kind)) +
                                   ", which is not closed"});
}

// MSG-5: 2 per coat of arms in every city holding a figure of the player. MSG-6 / MSG-7: 2 per
// own figure in a city / a field, whatever its kind (MSG-FN7: the phantom counts), majority
// irrelevant; the figures stay.
static void CarryOutCount(Position& pos, Message m, const std::string& label,
                          const std::string& ruling, ScoreEvent& ev, ApplyResult& out) {
  const PlayerId p = pos.turn.player;
  if (m == Message::kCoatsOfArms) {
    ev.kind = FeatureKind::kCity;
    int shields = 0, cities = 0;
    for (auto [root, n] : OwnFeatures(pos, FeatureKind::kCity, p)) {
      (void)n;
      shields += pos.board.Info(root).shields;
      ++cities;
    }
    ev.shields = shields;
    ev.points = 2 * shields;
    ev.formula = label + ": 2 x " + model::Plural(shields, "coat") + " of arms in " +
                 model::Plural(cities, "city") + " with the player's knights";
    ev.rulings = {ruling};
  } else {
    const FeatureKind k = m == Message::kKnights ? FeatureKind::kCity : FeatureKind::kField;
    int n = 0;
    for (const model::Figure& f : pos.figures)
      if (f.owner == p && pos.board.segment(f.node).kind == k) ++n;
    ev.kind = k;
    ev.points = 2 * n;
    ev.formula = label + ": 2 x " + model::Plural(n, m == Message::kKnights ? "knight" : "farmer");
    ev.rulings = {ruling};
    if (m == Message::kKnights) ev.rulings.push_back("MSG-FN7");
  }
  AwardEach(pos, ev);
  out.scores.push_back(ev);
}

// MSG-8 where the player leads one scoring: what final scoring would pay (MSG-Q-8-TIED: every
// tied leader scores, unless the reading active-player-only is chosen).
static void Msg8Led(Position& pos, const State& s, const ScoreEvent& v, const std::string& label,
                    const std::string& ruling, ScoreEvent& ev, ApplyResult& out) {
  ev.points = v.points;
  ev.formula = label + ": " + v.formula + ", as at final scoring";
  ev.rulings = {ruling};
  for (const std::string& r : EndRulings(v)) ev.rulings.push_back(r);
  ev.rulings.push_back("BASE-MAJORITY");
  if (v.winners.size() > 1) {
    ev.rulings.push_back("MSG-Q-8-TIED");
    if (!s.readings.active_player_only) {
      ev.winners = v.winners;
      ev.formula += "; every player tied for the majority scores";
    } else {
      ev.formula += "; only the active player scores (MSG-Q-8-TIED active-player-only)";
    }
  }
  // As at final scoring: each scoring player receives what that scoring would pay them.
  if (v.StatesShares())
    for (PlayerId w : ev.winners) ev.receives.push_back(v.ReceivesOf(w));
  if (ev.points == 0) ev.rulings.push_back("MSG-FN8");
  AwardEach(pos, ev);
  out.scores.push_back(ev);
}

// MSG-8 under c1-four-per-city, several cities led: one event for the player (one figure takes
// it), and for each player tied on some of those cities their share (MSG-Q-8-TIED).
static void Msg8Cities(Position& pos, const State& s, const std::vector<ScoreEvent>& led,
                       const std::string& label, ScoreEvent& ev, ApplyResult& out) {
  const PlayerId p = pos.turn.player;
  ev.points = 4 * static_cast<int>(led.size());
  ev.cities = static_cast<int>(led.size());
  ev.formula = label + ": 4 x " + model::Plural(ev.cities, "completed city") +
               " touching the farm where the player leads the farmers of every farm touching "
               "the city, as at final scoring";
  ev.rulings.push_back("BASE-MAJORITY");
  int mine = 0;  // as at final scoring: what those cities pay the player
  for (const ScoreEvent& v : led) mine += v.ReceivesOf(p);
  if (mine != ev.points) ev.receives = {mine};
  AwardEach(pos, ev);
  out.scores.push_back(ev);
  for (size_t q = 0; q < pos.players.size(); ++q) {
    if (static_cast<PlayerId>(q) == p || s.readings.active_player_only) continue;
    int shared = 0, theirs = 0;
    for (const ScoreEvent& v : led) {
      shared += Has(v.winners, static_cast<PlayerId>(q));
      theirs += v.ReceivesOf(static_cast<PlayerId>(q));
    }
    if (shared == 0) continue;
    ScoreEvent tie = ev;
    tie.points = 4 * shared;
    tie.receives.clear();
    if (theirs != tie.points) tie.receives = {theirs};
    tie.cities = shared;
    tie.winners = {static_cast<PlayerId>(q)};
    tie.formula = label + ": tied for the majority of " + model::Plural(shared, "completed city") +
                  ": every player tied for the majority scores, 4 x " + std::to_string(shared);
    tie.rulings.push_back("MSG-Q-8-TIED");
    AwardEach(pos, tie);
    out.scores.push_back(tie);
  }
}

// MSG-8: the chosen figure's feature scored as at game end if the player has the majority
// there (MSG-Q-8-TIED: every tied leader scores); the figure returns (MSG-Q-8-RETURN); the
// other figures stay (MSG-FN10); 0 points is possible (MSG-FN8).
static void CarryOutScoreAndReturn(Position& pos, int node, int figure, const std::string& label,
                                   const std::string& ruling, ScoreEvent& ev, ApplyResult& out) {
  const PlayerId p = pos.turn.player;
  const State& s = Slice(pos);
  if (node < 0) {
    ev.kind = FeatureKind::kRoad;
    ev.formula = label + ": the player has no figure on the board: nothing to score";
    ev.rulings = {ruling, "MSG-FN8"};
    out.scores.push_back(ev);
    return;
  }
  const int root = pos.board.Find(node);
  const std::vector<ScoreEvent> values = Msg8Values(pos, root);
  // The events the player leads (several only under c1-four-per-city: one per city).
  std::vector<ScoreEvent> led;
  for (const ScoreEvent& v : values)
    if (Has(v.winners, p)) led.push_back(v);
  const bool majority = !led.empty();
  const bool c1_four = values.front().kind == FeatureKind::kField &&
                       pos.cfg().options.farm_scoring == model::FarmScoring::kC1FourPerCity;
  const ScoreEvent& shown = majority ? led.front() : values.front();
  ev.kind = shown.kind;
  ev.root = root;  // the farm, also when a city's event is shown
  ev.tiles = shown.tiles;
  ev.shields = shown.shields;
  ev.cities = shown.cities;
  ev.strength = shown.strength;
  ev.rulings = {ruling};
  if (c1_four) ev.rulings.push_back("BASE-END-FARM-C1-4PT");
  if (!majority) {
    ev.points = 0;
    ev.formula = label + ": the player does not have the majority in the " +
                 std::string(model::FeatureKindName(ev.kind)) +
                 (c1_four && values.front().cities > 0
                      ? " (c1-four-per-city: for no completed city touching it, counting the "
                        "farmers of every farm touching that city)"
                      : "") +
                 ": 0 points";
    ev.rulings.push_back("MSG-FN8");
    out.scores.push_back(ev);
  } else if (led.size() == 1) {
    Msg8Led(pos, s, led.front(), label, ruling, ev, out);
  } else {
    Msg8Cities(pos, s, led, label, ev, out);
  }
  if (majority || !s.readings.return_only_with_majority) {
    model::ReturnFigures(pos, {figure >= 0 ? figure : FigureAt(pos, node, p)});
    out.notes.push_back(
        {"MSG-Q-8-RETURN", majority ? "the chosen figure returns to its owner's supply"
                                    : "without the majority the chosen figure still returns "
                                      "to its owner's supply (return-always)"});
  } else {
    out.notes.push_back({"MSG-Q-8-RETURN",
                         "without the majority nothing happens: the chosen figure stays "
                         "(return-only-with-majority)"});
  }
  out.notes.push_back({"MSG-FN10", "every other figure stays where it is"});
}

void CarryOut(Position& pos, Message m, int node, ApplyResult& out, int figure) {
  const State& s = Slice(pos);
  const std::string label = MessageLabel(s, m);
  const std::string ruling(MessageRuling(m));
  ScoreEvent ev;
  ev.cause = MakeCause(Cause::kMessage);
  ev.winners = {pos.turn.player};
  if (IsSmallest(m)) return CarryOutSmallest(pos, m, node, label, ruling, ev, out);
  if (m == Message::kCoatsOfArms || m == Message::kKnights || m == Message::kFarmers)
    return CarryOutCount(pos, m, label, ruling, ev, out);
  CarryOutScoreAndReturn(pos, node, figure, label, ruling, ev, out);
}

void TakeSeal(Position& pos, Message m, ApplyResult& out) {
  ScoreEvent ev;
  ev.cause = MakeCause(Cause::kSeal);
  ev.winners = {pos.turn.player};
  ev.points = 2;
  ev.formula = "seal of " + MessageLabel(Slice(pos), m) + ": 2 points instead of its action";
  ev.rulings = {"MSG-RESOLVE"};
  AwardEach(pos, ev);
  out.scores.push_back(ev);
}

}  // namespace carc::exp::messengers

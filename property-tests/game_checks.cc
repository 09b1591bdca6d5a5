// The per-game checks and the soak's schedule (CheckAll): replay, the board transform, the
// unused-expansion games, and which per-position checks (checks.cc) run at which decision.
#include <algorithm>
#include <chrono>
#include <map>
#include <random>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "property-tests/board_transform.h"
#include "property-tests/brute_force.h"
#include "property-tests/check_util.h"
#include "property-tests/checks.h"

namespace carc::prop {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::Position;
using nlohmann::json;

std::optional<Failure> CheckPlayout(const Game& g) {
  if (g.error.empty()) return std::nullopt;
  const Position& at = g.before.empty() ? g.start : g.before.back();
  return Fail("playout", g.error, at, g.actions.empty() ? nullptr : &g.actions.back());
}

namespace {

// Whether two positions of one game (the same rules) hold the same state: what the position file
// states (board, players, figures, tile supply, turn, every module's state) and the turn's inner
// record (figures placed, steps decided), each module's state by its own Equals. Stricter than
// equal files, and no file is written (hashing both positions' written sections at
// every decision was nine tenths of the replay check).
bool SameState(const Position& x, const Position& y) {
  if (x.board_partial != y.board_partial || x.players != y.players || x.figures != y.figures ||
      x.board.size() != y.board.size() || x.slices.size() != y.slices.size())
    return false;
  for (int i = 0; i < x.board.size(); ++i) {
    const model::PlacedTile &a = x.board.tile(i), &b = y.board.tile(i);
    if (a.type != b.type || !(a.pos == b.pos) || a.rotation != b.rotation) return false;
  }
  if (x.supply.ordered != y.supply.ordered || x.supply.order != y.supply.order ||
      x.supply.counts != y.supply.counts)
    return false;
  const model::TurnState &s = x.turn, &t = y.turn;
  if (s.player != t.player || s.step != t.step || s.game_over != t.game_over ||
      s.drawn != t.drawn || s.placed != t.placed || s.figures_this_turn != t.figures_this_turn ||
      s.decided != t.decided || s.part != t.part)
    return false;
  for (size_t i = 0; i < x.slices.size(); ++i) {
    const model::ExpansionState *a = x.slices[i].get(), *b = y.slices[i].get();
    if (!a != !b || (a && !a->Equals(*b))) return false;
  }
  return true;
}

}  // namespace

std::optional<Failure> CheckReplay(const Game& g, bool full_dumps) {
  auto parsed = ParseJson(g.start_json, "start.json");
  if (!parsed.ok()) return Failure{"replay", parsed.status().message(), g.start_json, json()};
  Position pos = std::move(*parsed);
  ApplyResult first;
  model::Advance(pos, first);
  const auto ctx = exp::Context("record.json");
  for (int i = 0; i < g.decisions(); ++i) {
    // The position file as stated in full, or the same state (SameState); the final one in full
    // below.
    if (full_dumps ? model::DumpPosition(pos) != model::DumpPosition(g.before[i])
                   : !SameState(pos, g.before[i]))
      return Fail("replay", "replay reaches another position before decision " + std::to_string(i),
                  pos);
    json aj = model::DumpAction(pos, g.actions[i]);
    auto a = model::ParseAction(aj, pos, "/actions/" + std::to_string(i), ctx);
    if (!a.ok())
      return Fail("replay", "the recorded action does not parse: " + a.status().message(), pos,
                  &g.actions[i]);
    if (!(*a == g.actions[i]))
      return Fail(
          "replay",
          "the recorded action reads back as another action: " + model::DumpAction(pos, *a).dump(),
          pos, &g.actions[i]);
    ApplyResult r = model::Apply(pos, *a);
    if (!r.verdict.legal || !r.input_error.empty())
      return Fail("replay", "the recorded action is refused on replay: " + Refusal(r), pos, &*a);
  }
  if (model::DumpPosition(pos) != model::DumpPosition(g.final_pos))
    return Fail("replay", "the replayed final position differs from the game's", pos);
  if (Scores(pos) != Scores(g.final_pos))
    return Fail("replay", "replayed scores " + Show(Scores(pos)) + " differ", pos);
  return std::nullopt;
}

std::optional<Failure> CheckTransformed(const Game& g, int k, const BoardTransform& t) {
  if (g.decisions() == 0) return std::nullopt;
  k = ((k % g.decisions()) + g.decisions()) % g.decisions();
  const std::string what = "board turned " + std::to_string(90 * t.quarter_turns) +
                           " and moved by (" + std::to_string(t.dx) + ", " + std::to_string(t.dy) +
                           ")";
  auto parsed =
      ParseJson(TransformPosition(model::DumpPosition(g.before[k]), t), "transformed.json");
  if (!parsed.ok())
    return Fail("symmetry", what + ": does not parse: " + parsed.status().message(), g.before[k]);
  Position b = std::move(*parsed);
  ApplyResult pre;
  model::Advance(b, pre);
  if (!model::Validate(b).empty())
    return Fail("symmetry", what + ": no longer validates", g.before[k]);
  std::vector<Action> mapped, got;
  std::vector<std::string> km, kg;
  for (int i = k; i < g.decisions(); ++i) {
    // The game's own positions from decision k on (the replay check holds them to the actions).
    const Position& a = g.before[i];
    const Position& a_next = i + 1 < g.decisions() ? g.before[i + 1] : g.final_pos;
    // Core actions by picture; an expansion's by effect, as in the brute force: a feature may
    // be named by any of its segments (e.g. the first found), which a turn of the board changes.
    // The key is a function of (b, action), so an action listed on both sides (the transformed
    // one equal to one of b's) matches itself: only those left over are keyed and compared
    // (keying every listed expansion action, a position copy and an Apply each, was
    // nine tenths of this check).
    auto key = [&b](const Action& x) {
      return x.type == ActionType::kExpansion ? EffectKey(b, x) : ActionKey(b, x);
    };
    mapped.clear();
    for (const Action& x : model::LegalActions(a)) mapped.push_back(TransformAction(a, x, b, t));
    got = model::LegalActions(b);
    const size_t n_mapped = mapped.size(), n_got = got.size();
    CancelCommon(mapped, got);
    km.clear();
    kg.clear();
    for (const Action& x : mapped) km.push_back(key(x));
    for (const Action& y : got) kg.push_back(key(y));
    std::sort(km.begin(), km.end());
    std::sort(kg.begin(), kg.end());
    if (km != kg)
      return Fail("symmetry",
                  what + ": the legal actions differ (" + std::to_string(n_mapped) + " vs " +
                      std::to_string(n_got) + ") at decision " + std::to_string(i) +
                      "; transformed position: " + model::DumpPosition(b).dump(),
                  a);
    Action ta = TransformAction(a, g.actions[i], b, t);
    ApplyResult rb = model::Apply(b, ta);
    if (!rb.verdict.legal || !rb.input_error.empty())
      return Fail("symmetry", what + ": the transformed action is refused: " + Refusal(rb), b, &ta);
    if (Scores(a_next) != Scores(b))
      return Fail("symmetry",
                  what + ": scores " + Show(Scores(a_next)) + " vs " + Show(Scores(b)) +
                      " after decision " + std::to_string(i),
                  g.before[k]);
  }
  return std::nullopt;
}

namespace {

// Per decision: whether its step (or the forced placement, or the game-end window: StepVisits'
// keys) is taken at most `at_most` times in the game.
std::vector<bool> AtRareSteps(const Game& g, int at_most) {
  std::map<std::string, int> visits = StepVisits(g);
  std::vector<bool> out(g.before.size(), false);
  for (size_t i = 0; i < g.before.size(); ++i)
    for (const std::string& key : StepKeys(g.before[i]))
      if (visits[key] <= at_most) out[i] = true;
  return out;
}

}  // namespace

std::optional<Failure> CheckAll(const Game& g, uint64_t salt, const SoakPolicy& policy,
                                CheckTally* tally) {
  using Clock = std::chrono::steady_clock;
  // Runs one check, counting it (and its time) in the tally when there is one.
  auto run = [tally](const char* name, auto&& check) -> std::optional<Failure> {
    if (!tally) return check();
    const auto t0 = Clock::now();
    std::optional<Failure> f = check();
    ++tally->runs[name];
    tally->seconds[name] += std::chrono::duration<double>(Clock::now() - t0).count();
    return f;
  };
  if (auto f = CheckPlayout(g)) return f;
  std::mt19937_64 rng(salt);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  // Its buffer reused from position to position; the brute force reads back one in
  // kSoakUnhandledReadBack of the candidates the step does not handle (every one with
  // every_decision).
  CandidateCache cands(g.start, policy.every_decision ? 1 : kSoakUnhandledReadBack);
  PositionFile file(g.start);  // written once per position for round trip and features
  const std::vector<bool> rare =
      policy.every_decision ? std::vector<bool>() : AtRareSteps(g, policy.rare_step_at_most);
  for (int i = 0; i < g.decisions(); ++i) {
    const Position& pos = g.before[i];
    const Position& next = i + 1 < g.decisions() ? g.before[i + 1] : g.final_pos;
    if (auto f = run("conservation", [&] { return CheckConservation(pos); })) return f;
    if (auto f = run("score-events",
                     [&] { return CheckScoreEvents(pos, g.actions[i], g.results[i], next); }))
      return f;
    // The costlier per-position checks: at every decision of a rare step, else at one in
    // position_one_in decisions; the brute force at one in brute_force_one_in of those (rare
    // steps included: a card window's brute force costs tens of ms). Drawn from the game's salt,
    // so a shard draws as the whole run.
    const bool sampled = uni(0, policy.position_one_in - 1) == 0;
    const bool brute = uni(0, policy.brute_force_one_in - 1) == 0;
    const bool all_here = policy.every_decision || rare[i];
    if (!all_here && !sampled) continue;
    file.Reset(pos);
    if (auto f = run("round-trip", [&] { return CheckRoundTrip(pos, file); })) return f;
    if (auto f = run("listed-actions-apply", [&] { return CheckListedActionsApply(pos); }))
      return f;
    const int root = uni(0, 1000);
    if (auto f = run("features", [&] { return CheckFeatures(pos, root, file); })) return f;
    std::vector<RawAction> raws(4);
    for (RawAction& r : raws)
      r = {uni(0, 4), uni(0, 99), uni(0, 99), uni(0, 3), uni(0, 9), uni(0, 9), uni(0, 2)};
    cands.Reset(pos);  // shared by the two checks below
    if (auto f = run("outside-refused", [&] { return CheckOutsideRefused(pos, raws, cands); }))
      return f;
    if (policy.every_decision || brute)
      if (auto f = run("brute-force", [&] { return CheckBruteForce(pos, cands); })) return f;
  }
  if (auto f = run("conservation", [&] { return CheckConservation(g.final_pos); })) return f;
  if (auto f = run("round-trip", [&] { return CheckRoundTrip(g.final_pos); })) return f;
  if (auto f = run("replay (game)", [&] { return CheckReplay(g); })) return f;
  const int k = uni(0, 1000);
  const BoardTransform t{uni(0, 3), uni(-30, 30), uni(-30, 30)};
  if (auto f = run("transform (game)", [&] { return CheckTransformed(g, k, t); })) return f;
  for (const std::string& id : g.spec.expansions)
    if (auto f = run("unused-expansion (game)", [&] { return CheckUnusedExpansion(g.spec, id); }))
      return f;
  return std::nullopt;
}

}  // namespace carc::prop

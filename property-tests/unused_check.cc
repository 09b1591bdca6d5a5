// The property "enabling an expansion whose components never come into play changes nothing",
// with the exact adjustments per expansion (README.md).
#include <algorithm>
#include <optional>
#include <utility>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "property-tests/board_transform.h"
#include "property-tests/check_util.h"
#include "property-tests/checks.h"
#include "property-tests/module_props.h"

namespace carc::prop {

using model::Action;
using model::ActionType;
using model::Position;
using nlohmann::json;

namespace {

// Where "enabled but unused changes nothing" needs an exact adjustment (README.md), the
// module's row says so (ModuleProps, module_props.h).
bool EndsComparison(const ModuleProps* m, const Position& pos, const Action& a) {
  return m && m->ends_unused_comparison && m->ends_unused_comparison(pos, a);
}
bool ExpansionOnlyEvent(const ModuleProps* m, const model::ScoreEvent& ev) {
  return m && m->own_event && m->own_event(ev);
}
// The points of an event that an unused component still earns.
int OwnPointsIn(const ModuleProps* m, const model::ScoreEvent& ev) {
  return m && m->points_in ? m->points_in(ev) : 0;
}

// One game of the comparison, played decision by decision as Playout plays it (the same lists,
// ChoiceIndex, the same errors), keeping no positions: the two games are compared in lockstep.
struct Side {
  GameSpec spec;
  Position pos;
  std::vector<Action> legal, filtered;  // at the current decision (List); see Allowed
  bool is_filtered = false;             // spec.unused names an expansion: Allowed is `filtered`
  size_t k = 0, chosen = 0;             // choices used; the index taken in Allowed()
  int decisions = 0;
  bool have_last = false;
  Action last;  // the last action taken or tried
  std::string error;
  std::vector<model::ScoreEvent> events;  // every score event of the game so far, in order

  explicit Side(GameSpec s) : spec(std::move(s)) {
    auto parsed = ParseJson(StartJson(spec), "start.json");
    if (!parsed.ok()) {
      error = "start position does not parse: " + parsed.status().message();
      return;
    }
    pos = std::move(*parsed);
    model::ApplyResult first;
    model::Advance(pos, first);
  }
  bool Over() const { return !error.empty() || pos.turn.game_over; }
  // The current decision's lists and choice (Playout's), or an error.
  void List() {
    if (Over()) return;
    if (decisions > 1000) {
      error = "the game did not end after 1000 decisions";
      return;
    }
    model::LegalActionsInto(pos, legal);  // its buffer reused
    is_filtered = !spec.unused.empty();
    if (is_filtered) AllowedFrom(pos, legal, spec.unused, filtered);
    const std::vector<Action>& allowed = Allowed();
    if (allowed.empty()) {
      error = "no legal action at step " + std::string(pos.current_step().Name()) +
              " of a game that is not over";
      return;
    }
    chosen = ChoiceIndex(spec, pos, allowed.size(), k);
  }
  // AllowedActions(pos, spec.unused): the legal list itself when nothing is unused
  // (not copied at every decision).
  const std::vector<Action>& Allowed() const { return is_filtered ? filtered : legal; }
  const Action& Choice() const { return Allowed()[chosen]; }
  // Takes the choice and lists the next decision.
  void Take() {
    last = Choice();
    have_last = true;
    ++decisions;
    model::ApplyResult r = model::Apply(pos, last);
    if (!r.verdict.legal || !r.input_error.empty()) {
      error = "a listed action was refused: " + model::Describe(pos, last) + ": " +
              (r.input_error.empty()
                   ? (r.verdict.reasons.empty() ? std::string("?") : r.verdict.reasons[0].ruling)
                   : r.input_error);
      return;
    }
    for (model::ScoreEvent& ev : r.scores) events.push_back(std::move(ev));
    List();
  }
  void Finish() {
    while (!Over()) Take();
  }
  std::optional<Failure> PlayoutFailure() const {
    if (error.empty()) return std::nullopt;
    return Fail("playout", error, pos, have_last ? &last : nullptr);
  }
};

// A decision that exists only for the unused component: every option but pass names it (e.g.
// a Christmas card window whose only play puts the phantom on a feature).
bool OnlyForUnused(const std::vector<Action>& allowed_id, const std::vector<Action>& legal) {
  return allowed_id.size() == 1 && allowed_id[0].type == ActionType::kPass && legal.size() > 1;
}

// Whether the game without the expansion, at its current decision, is at the step `with`
// stands at.
bool SameStep(const Side& without, const Position& with) {
  return !without.Over() && without.pos.current_step().Name() == with.current_step().Name();
}

// A card with nothing to act on may still be opened or played without a target (Gifts' Synod
// with no free figure or monastery). An unused figure could go there (the module's row says so,
// ModuleProps::parts_on_untargeted_options), so such an option exists only without it: the lists
// differ exactly by options without a target, and the games part at this decision (the comparison
// stops, as for Messengers' first message).
bool OnlyNoTargetOptionsDiffer(const ModuleProps* m, const Position& without,
                               const std::vector<Action>& without_legal, const Position& with,
                               const std::vector<Action>& with_legal,
                               const std::vector<Action>& with_allowed_id) {
  if (!m || !m->parts_on_untargeted_options) return false;
  if (with_allowed_id.size() == with_legal.size()) return false;
  const std::vector<std::string> kb = ActionKeys(without, without_legal);
  const std::vector<std::string> ke = ActionKeys(with, with_allowed_id);
  if (!std::includes(kb.begin(), kb.end(), ke.begin(), ke.end())) return false;
  for (const Action& a : without_legal) {
    if (std::binary_search(ke.begin(), ke.end(), ActionKey(without, a))) continue;
    if (a.type != ActionType::kExpansion || model::DumpAction(without, a).contains("feature"))
      return false;
  }
  return true;
}

// Whether ActionKeys(pb, xb) == ActionKeys(pe, xe). ActionKey reads the position only for the
// catalog and the drawn tile: where both read the same, equal actions have equal keys and only
// what CancelCommon leaves is keyed (the keys' strings were a quarter of this check).
// The lists are copied only when they differ (equal lists, the common case, were two
// copies and two sorts per decision).
bool SameKeys(const Position& pb, const std::vector<Action>& xb, const Position& pe,
              const std::vector<Action>& xe) {
  const bool same_reading =
      &*pb.cfg().catalog == &*pe.cfg().catalog && pb.turn.drawn == pe.turn.drawn;
  if (same_reading && xb == xe) return true;
  std::vector<Action> b = xb, e = xe;
  if (same_reading) CancelCommon(b, e);
  return ActionKeys(pb, b) == ActionKeys(pe, e);
}

// Scores(x) == Scores(y), without building the two lists.
bool SameScores(const Position& x, const Position& y) {
  return std::equal(
      x.players.begin(), x.players.end(), y.players.begin(), y.players.end(),
      [](const model::Player& a, const model::Player& b) { return a.score == b.score; });
}

}  // namespace

// The two games are played in lockstep (Side): decision i of the game with the expansion is
// compared, when kept, with the next decision of the game without it. Either game is always
// played to its end, so that a playout error in either is reported first, as it would be had
// the games been played before the comparison.
std::optional<Failure> CheckUnusedExpansion(const GameSpec& base_spec, const std::string& id) {
  GameSpec without = base_spec, with = base_spec;
  without.expansions.erase(std::remove(without.expansions.begin(), without.expansions.end(), id),
                           without.expansions.end());
  with.expansions.clear();
  for (const std::string& e : exp::Ids())  // registry order
    if (e == id || std::count(without.expansions.begin(), without.expansions.end(), e))
      with.expansions.push_back(e);
  with.unused.push_back(id);
  const ModuleProps* props = PropsOf(id);
  Side gb(std::move(without)), ge(std::move(with));
  // The result, once both games are played out: a playout error of either comes first.
  auto finish = [&](std::optional<Failure> f) -> std::optional<Failure> {
    gb.Finish();
    ge.Finish();
    if (auto p = gb.PlayoutFailure()) return p;
    if (auto p = ge.PlayoutFailure()) return p;
    return f;
  };
  const std::vector<std::string> only_id = {id};
  const bool unused_is_id = ge.spec.unused == only_id;
  auto fail = [&](const std::string& msg) {
    return Fail("unused-expansion", "with " + id + " enabled but unused: " + msg, ge.pos);
  };
  gb.List();
  ge.List();
  // Decisions at steps the expansion adds (e.g. place_phantom: pass only) are left out; kept:
  // the decisions compared so far (= the decisions gb took).
  int kept = 0;
  bool whole = true;
  // The decision's allowed list without `id`'s components only: ge's own when `id` is the only
  // unused expansion (not copied), else filtered into `own`.
  std::vector<Action> own;
  auto allowed_of_id = [&]() -> const std::vector<Action>& {
    if (unused_is_id) return ge.Allowed();
    AllowedFrom(ge.pos, ge.legal, only_id, own);
    return own;
  };
  for (; !ge.Over(); ge.Take()) {
    if (EndsComparison(props, ge.pos, ge.Choice())) {
      whole = false;
      break;
    }
    if (AtStepOf(ge.pos, only_id)) continue;
    const std::vector<Action>& allowed_id = allowed_of_id();
    if (OnlyForUnused(allowed_id, ge.legal) && !SameStep(gb, ge.pos)) continue;
    // Compared with decision `kept` of the game without it.
    const int n = kept++;
    if (gb.Over()) {  // more decisions kept than it took
      int more = kept;
      for (ge.Take(); !ge.Over(); ge.Take()) {  // the count, for the message
        if (EndsComparison(props, ge.pos, ge.Choice())) break;
        if (AtStepOf(ge.pos, only_id)) continue;
        if (!OnlyForUnused(allowed_of_id(), ge.legal)) ++more;
      }
      return finish(fail(std::to_string(more) + " decisions vs " + std::to_string(gb.decisions) +
                         " without it"));
    }
    if (!SameKeys(gb.pos, gb.legal, ge.pos, allowed_id)) {
      if (OnlyNoTargetOptionsDiffer(props, gb.pos, gb.legal, ge.pos, ge.legal, allowed_id))
        return finish(std::nullopt);  // the games part here: compared up to this decision
      return finish(fail("other legal actions at decision " + std::to_string(n) +
                         "; without it: " + model::DumpPosition(gb.pos).dump()));
    }
    if (!(gb.Choice() == ge.Choice()))
      return finish(fail("another action at decision " + std::to_string(n)));
    if (!SameScores(gb.pos, ge.pos))
      return finish(fail("scores " + Show(Scores(ge.pos)) + " vs " + Show(Scores(gb.pos)) +
                         " at decision " + std::to_string(n)));
    gb.Take();
  }
  if (!whole) return finish(std::nullopt);  // a message was taken: compared up to it
  if (auto f = finish(std::nullopt)) return f;
  if (kept != gb.decisions)
    return fail(std::to_string(kept) + " decisions vs " + std::to_string(gb.decisions) +
                " without it");
  std::vector<int> extra(ge.pos.players.size(), 0);
  // The score events compared: each as its feature kind's name, its points less what the unused
  // component earns and its winners (compared as they are, not written as text first).
  struct Compared {
    std::string_view kind;
    int points;
    const std::vector<int>* winners;
    bool operator==(const Compared& o) const {
      return kind == o.kind && points == o.points && *winners == *o.winners;
    }
  };
  auto compared = [&](const Side& g, bool count_extra) {
    std::vector<Compared> out;
    for (const auto& ev : g.events) {
      if (count_extra && ExpansionOnlyEvent(props, ev)) {
        for (int w : ev.winners) extra[w] += ev.points;
        continue;
      }
      const int own = count_extra ? OwnPointsIn(props, ev) : 0;
      for (int w : ev.winners) extra[w] += own;
      out.push_back({model::FeatureKindName(ev.kind), ev.points - own, &ev.winners});
    }
    return out;
  };
  // The events as text, for the message.
  auto events = [&](const Side& g) {
    std::vector<std::string> out;
    for (const auto& ev : g.events)
      out.push_back(std::string(model::FeatureKindName(ev.kind)) + " " + std::to_string(ev.points) +
                    " to " + json(ev.winners).dump());
    return out;
  };
  if (compared(gb, false) != compared(ge, true))
    return fail("other score events:" + Join(events(ge)) + "\nwithout:" + Join(events(gb)));
  std::vector<int> final_e = Scores(ge.pos);
  for (size_t p = 0; p < final_e.size(); ++p) final_e[p] -= extra[p];
  if (Scores(gb.pos) != final_e)
    return fail("final scores " + Show(Scores(ge.pos)) + " (less its own events " + Show(extra) +
                ") vs " + Show(Scores(gb.pos)));
  return std::nullopt;
}

}  // namespace carc::prop

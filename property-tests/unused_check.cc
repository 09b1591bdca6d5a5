// The property "enabling an expansion whose components never come into play changes nothing",
// with the exact adjustments per expansion (README.md).
#include <algorithm>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/messengers/messengers.h"
#include "model/expansions/registry.h"
#include "property-tests/board_transform.h"
#include "property-tests/check_util.h"
#include "property-tests/checks.h"

namespace carc::prop {

using model::Action;
using model::ActionType;
using model::Position;
using nlohmann::json;

namespace {

// Where "enabled but unused changes nothing" needs an exact adjustment (README.md):
// Messengers' scoring figures always come into play and a figure stopping on a dark space takes a
// message (MSG-DARK), so the games are compared up to the first message decision (draw, seal,
// carry out), whole when no message was taken, and the 0-point final sum (MSG-FINAL) is not a
// scoring. Gifts are received whether or not they are opened (GIFT-GET), so their end scoring
// (GIFT-END, 2 per unopened card) is the only difference.
bool EndsComparison(const std::string& id, const Position& pos, const Action& a) {
  return id == "messengers" && UsesExpansion(pos, a, id) &&
         model::DumpAction(pos, a).value("type", "") != "assign_points";
}
bool ExpansionOnlyEvent(const std::string& id, const model::ScoreEvent& ev) {
  if (id == "messengers") return ev.points == 0 && ev.cause == exp::messengers::MakeCause(exp::messengers::Cause::kFinalSum);
  if (id == "gifts")
    return std::find(ev.rulings.begin(), ev.rulings.end(), "GIFT-END") != ev.rulings.end();
  return false;
}

// The points of an event that an unused component still earns: Christmas Present's
// 2-per-figure-in-supply card counts the phantom, which stays in the supply (XMAS-Q-SUPPLY).
int OwnPointsIn(const std::string& id, const model::ScoreEvent& ev) {
  if (id == "phantom" &&
      std::count(ev.rulings.begin(), ev.rulings.end(), "XMAS-CARD-2-PER-FIGURE-IN-SUPPLY"))
    return 2;
  return 0;
}

// A decision that exists only for the unused component: every option but pass names it (e.g.
// a Christmas card window whose only play puts the phantom on a feature).
bool OnlyForUnused(const Position& with, const std::string& id) {
  const std::vector<Action> allowed = AllowedActions(with, {id});
  return allowed.size() == 1 && allowed[0].type == ActionType::kPass &&
         model::LegalActions(with).size() > 1;
}

// Whether decision n of the game without the expansion is at the step `with` stands at.
bool SameStep(const Game& without, size_t n, const Position& with) {
  return n < static_cast<size_t>(without.decisions()) &&
         without.before[n].current_step().Name() == with.current_step().Name();
}

// A card with nothing to act on may still be opened or played without a target (Gifts' Synod
// with no free figure or monastery). The unused phantom is a figure that could go there, so such
// an option exists only without it: the lists differ exactly by options without a target, and
// the games part at this decision (the comparison stops, as for Messengers' first message).
bool OnlyNoTargetOptionsDiffer(const std::string& id, const Position& without, const Position& with,
                               const std::vector<std::string>& kb,
                               const std::vector<std::string>& ke) {
  if (id != "phantom") return false;
  if (AllowedActions(with, {id}).size() == model::LegalActions(with).size()) return false;
  if (!std::includes(kb.begin(), kb.end(), ke.begin(), ke.end())) return false;
  for (const Action& a : model::LegalActions(without)) {
    if (std::binary_search(ke.begin(), ke.end(), ActionKey(without, a))) continue;
    if (a.type != ActionType::kExpansion || model::DumpAction(without, a).contains("feature"))
      return false;
  }
  return true;
}

}  // namespace

std::optional<Failure> CheckUnusedExpansion(const GameSpec& base_spec, const std::string& id) {
  GameSpec without = base_spec, with = base_spec;
  without.expansions.erase(std::remove(without.expansions.begin(), without.expansions.end(), id),
                           without.expansions.end());
  with.expansions.clear();
  for (const std::string& e : exp::Ids())  // registry order
    if (e == id || std::count(without.expansions.begin(), without.expansions.end(), e))
      with.expansions.push_back(e);
  with.unused.push_back(id);
  Game gb = Playout(without), ge = Playout(with);
  if (auto f = CheckPlayout(gb)) return f;
  if (auto f = CheckPlayout(ge)) return f;
  // Decisions at steps the expansion adds (e.g. place_phantom: pass only) are left out.
  std::vector<int> kept;
  bool whole = true;
  for (int i = 0; i < ge.decisions() && whole; ++i) {
    if (EndsComparison(id, ge.before[i], ge.actions[i])) whole = false;
    if (whole && !AtStepOf(ge.before[i], {id}) &&
        !(OnlyForUnused(ge.before[i], id) && !SameStep(gb, kept.size(), ge.before[i])))
      kept.push_back(i);
  }
  auto fail = [&](const std::string& msg, int i) {
    const Position& at = i < ge.decisions() ? ge.before[i] : ge.final_pos;
    return Fail("unused-expansion", "with " + id + " enabled but unused: " + msg, at);
  };
  auto count_differs = [&] {
    return fail(std::to_string(kept.size()) + " decisions vs " + std::to_string(gb.decisions()) +
                    " without it",
                kept.empty() ? 0 : kept.back());
  };
  for (size_t n = 0; n < kept.size(); ++n) {
    if (static_cast<int>(n) >= gb.decisions()) return count_differs();
    int i = kept[n];
    const std::vector<std::string> kb = ActionKeys(gb.before[n], model::LegalActions(gb.before[n]));
    const std::vector<std::string> ke =
        ActionKeys(ge.before[i], AllowedActions(ge.before[i], {id}));
    if (kb != ke && OnlyNoTargetOptionsDiffer(id, gb.before[n], ge.before[i], kb, ke))
      return std::nullopt;  // the games part here: compared up to this decision
    if (kb != ke)
      return fail("other legal actions at decision " + std::to_string(n) +
                      "; without it: " + model::DumpPosition(gb.before[n]).dump(),
                  i);
    if (!(gb.actions[n] == ge.actions[i]))
      return fail("another action at decision " + std::to_string(n), i);
    if (Scores(gb.before[n]) != Scores(ge.before[i]))
      return fail("scores " + Show(Scores(ge.before[i])) + " vs " + Show(Scores(gb.before[n])) +
                      " at decision " + std::to_string(n),
                  i);
  }
  if (!whole) return std::nullopt;  // a message was taken: compared up to it
  if (static_cast<int>(kept.size()) != gb.decisions()) return count_differs();
  std::vector<int> extra(ge.final_pos.players.size(), 0);
  auto events = [&](const Game& g, bool count_extra) {
    std::vector<std::string> out;
    for (const auto& r : g.results)
      for (const auto& ev : r.scores) {
        if (count_extra && ExpansionOnlyEvent(id, ev)) {
          for (int w : ev.winners) extra[w] += ev.points;
          continue;
        }
        const int own = count_extra ? OwnPointsIn(id, ev) : 0;
        for (int w : ev.winners) extra[w] += own;
        out.push_back(std::string(model::FeatureKindName(ev.kind)) + " " +
                      std::to_string(ev.points - own) + " to " + json(ev.winners).dump());
      }
    return out;
  };
  if (events(gb, false) != events(ge, true))
    return fail(
        "other score events:" + Join(events(ge, false)) + "\nwithout:" + Join(events(gb, false)),
        ge.decisions());
  std::vector<int> final_e = Scores(ge.final_pos);
  for (size_t p = 0; p < final_e.size(); ++p) final_e[p] -= extra[p];
  if (Scores(gb.final_pos) != final_e)
    return fail("final scores " + Show(Scores(ge.final_pos)) + " (less its own events " +
                    Show(extra) + ") vs " + Show(Scores(gb.final_pos)),
                ge.decisions());
  return std::nullopt;
}

}  // namespace carc::prop

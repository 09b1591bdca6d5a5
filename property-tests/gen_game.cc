#include "property-tests/gen_game.h"

#include <algorithm>
#include <cstdlib>

#include "model/core/rules.h"
#include "model/core/step.h"
#include "model/expansions/registry.h"
#include "property-tests/module_props.h"

namespace carc::prop {

using model::Action;
using model::Position;

std::vector<std::string> CoveredExpansions() {
  // The game properties run for every registered expansion (CARC_PROP_EXPANSIONS narrows it,
  // e.g. "phantom,gifts", to chase a failure).
  const std::vector<std::string> kCovered = exp::Ids();
  std::vector<std::string> want = kCovered;
  if (const char* env = std::getenv("CARC_PROP_EXPANSIONS")) {
    std::string e = env;
    want.clear();
    if (e == "all") want = exp::Ids();
    for (size_t a = 0; e != "all" && a < e.size();) {
      size_t b = e.find(',', a);
      if (b == std::string::npos) b = e.size();
      if (b > a) want.push_back(e.substr(a, b - a));
      a = b + 1;
    }
  }
  std::vector<std::string> out;
  for (const std::string& id : exp::Ids())
    if (std::find(want.begin(), want.end(), id) != want.end()) out.push_back(id);
  return out;
}

std::vector<std::vector<std::string>> ExpansionCombinations() {
  std::vector<std::string> ids = CoveredExpansions();
  std::vector<std::vector<std::string>> out;
  for (uint32_t mask = 0; mask < (1u << ids.size()); ++mask) {
    std::vector<std::string> c;
    for (size_t i = 0; i < ids.size(); ++i)
      if (mask & (1u << i)) c.push_back(ids[i]);
    out.push_back(c);
  }
  return out;
}

namespace {

// The action as SeededSpec sees it: its module's row (ModuleProps::seed_kind), else nothing to
// hoard.
SeedKind KindOf(const Action& a) {
  if (a.type != model::ActionType::kExpansion || !a.expansion) return {};
  const ModuleProps* m = PropsOf(a.expansion);
  return m && m->seed_kind ? m->seed_kind(a) : SeedKind{};
}

}  // namespace

GameSpec SeededSpec(uint64_t seed, const std::vector<std::string>& expansions) {
  std::mt19937_64 rng(seed);
  GameSpec s = RandomSpec(rng, expansions);
  s.choices.clear();
  auto parsed = ParseJson(StartJson(s), "seeded.json");
  if (!parsed.ok()) return s;  // Playout reports it
  Position pos = std::move(*parsed);
  pos.explain = false;  // the same lists as the explaining path (prop_lean_explained)
  model::ApplyResult first;
  model::Advance(pos, first);
  auto uni = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  // In games of 2-4 players, with probability 3/4, one player (uniformly) hoards Christmas cards:
  // their card plays are left out of the choice 7/8 of the time, and 3/4 of their draws take a
  // card kept past the turn (not a lightning card), so that hand fills up to the hand limit and
  // holds cards for the card windows. (One hoarder, not in 5-6 player games: the brute force's
  // card plays grow with every card held by every player, and a hoarder there rarely draws six.)
  std::vector<bool> hoards(static_cast<size_t>(s.players));
  if (s.players <= 4 && uni(4) != 0) hoards[uni(hoards.size())] = true;
  std::vector<Action> legal;
  std::vector<SeedKind> kinds;
  std::vector<int> view, own, holdable;
  for (int guard = 0; !pos.turn.game_over && guard <= 1000; ++guard) {
    legal = model::LegalActions(pos);
    if (legal.empty()) break;
    size_t i = 0;
    if (legal.size() > 1) {
      kinds.clear();
      std::vector<bool> hoarded(legal.size(), false);
      bool any_hoarded = false;
      for (size_t k = 0; k < legal.size(); ++k) {
        kinds.push_back(KindOf(legal[k]));
        const SeedKind& kd = kinds.back();
        hoarded[k] = kd.hoardable_play && kd.player >= 0 &&
                     kd.player < static_cast<int>(hoards.size()) && hoards[kd.player];
        any_hoarded |= hoarded[k];
      }
      view.clear();
      const bool drop = any_hoarded && uni(8) != 0;
      for (size_t k = 0; k < legal.size(); ++k)
        if (!(drop && hoarded[k])) view.push_back(static_cast<int>(k));
      if (view.empty())
        for (size_t k = 0; k < legal.size(); ++k) view.push_back(static_cast<int>(k));
      own.clear();
      holdable.clear();
      for (int k : view) {
        if (legal[k].type == model::ActionType::kExpansion && !hoarded[k]) own.push_back(k);
        if (kinds[k].draws_holdable && hoards[pos.turn.player]) holdable.push_back(k);
      }
      const std::vector<int>* pick = &view;  // uniformly
      if (!holdable.empty() && uni(4) != 0)
        pick = &holdable;  // a hoarder's draw: a card kept past the turn, 3/4
      else if (!own.empty() && own.size() < view.size() && uni(4) != 0)
        pick = &own;  // an expansion's own action: 3/4
      i = static_cast<size_t>((*pick)[uni(pick->size())]);
      s.choices.push_back(static_cast<int>(i));
    }
    model::ApplyResult r = model::Apply(pos, legal[i]);
    if (!r.verdict.legal || !r.input_error.empty()) break;  // Playout reports it
  }
  return s;
}

std::vector<std::string> StepKeys(const Position& at) {
  std::vector<std::string> out;
  out.emplace_back(at.current_step().Name());
  for (const model::Expansion* e : at.cfg().expansions)
    if (const ModuleProps* m = PropsOf(e); m && m->step_keys) m->step_keys(at, out);
  return out;
}

std::map<std::string, int> StepVisits(const Game& g) {
  std::map<std::string, int> out;
  for (const Position& at : g.before)
    for (const std::string& key : StepKeys(at)) ++out[key];
  return out;
}

}  // namespace carc::prop

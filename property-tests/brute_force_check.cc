// The brute-force check (issue 7): the legal list equals a brute-force enumeration of every
// candidate the current step could be given (BruteForceActions), compared one per picture (core
// actions) or by effect (an expansion's actions); and at the figure step, the figure placements
// listed equal those Apply accepts. property-tests/README.md "Brute force" says what is covered.
#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "property-tests/board_transform.h"
#include "property-tests/brute_force.h"
#include "property-tests/check_util.h"
#include "property-tests/checks.h"

namespace carc::prop {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::Position;

std::vector<Action> BruteForceActions(const Position& pos) {
  CandidateCache cands(pos);
  return BruteForceActions(pos, cands);
}

std::vector<Action> BruteForceActions(const Position& pos, CandidateCache& cands) {
  std::vector<Action> out;
  if (pos.turn.game_over) return out;
  std::vector<Action> actions = {{.type = ActionType::kPass}};
  const model::TileCatalog& cat = *pos.cfg().catalog;
  for (model::TileType t = 0; t < cat.size(); ++t)
    actions.push_back({.type = ActionType::kDraw, .tile = t});
  const std::vector<model::TileType> tiles = CandidateTiles(pos);
  if (!tiles.empty()) {
    const Box b = BoundingBox(pos);
    for (model::TileType t : tiles)
      for (int x = b.x0 - 1; x <= b.x1 + 1; ++x)
        for (int y = b.y0 - 1; y <= b.y1 + 1; ++y)
          for (int r = 0; r < 4; ++r)
            actions.push_back(
                {.type = ActionType::kPlaceTile, .tile = t, .pos = {x, y}, .rotation = r});
  }
  if (pos.turn.placed >= 0) {
    const int nseg = static_cast<int>(pos.board.rotated(pos.turn.placed).segments.size());
    for (int k = 0; k < static_cast<int>(pos.cfg().figure_kinds.size()); ++k)
      for (int s = 0; s < nseg; ++s)
        actions.push_back({.type = ActionType::kPlaceFigure,
                           .pos = pos.board.tile(pos.turn.placed).pos,
                           .has_pos = true,
                           .figure_kind = k,
                           .segment = s});
  }
  // The expansions' own action kinds, read back from their position-file form: those the step
  // handles as enumerated (the reader keeps an action's kind: type, module and code, and fills
  // defaults), and one in cands.unhandled_read_back() of the others.
  const model::Step& step = pos.current_step();
  const std::vector<Action>& cand = cands.Get();
  const size_t stride = static_cast<size_t>(std::max(cands.unhandled_read_back(), 1));
  const size_t offset = static_cast<size_t>(pos.board.size() + pos.turn.player) % stride;
  for (size_t i = 0; i < cand.size(); ++i) {
    if (!step.Handles(pos, cand[i]) && i % stride != offset) continue;
    auto a = ReadBack(pos, cand[i]);
    if (a.ok()) actions.push_back(*a);
  }
  std::set<std::string> seen;  // one action per picture (core) or per effect (expansions)
  Position p;                  // a scratch copy, its buffers reused
  // In the soak (unhandled_read_back > 1) the copy is made again only after an action that was
  // not refused by a ruling: Apply leaves the position unchanged when it rules an action illegal
  // (rules.h; a breach would show as a difference with the list). The ctest properties and
  // perft copy before every candidate.
  const bool copy_each = cands.unhandled_read_back() <= 1;
  bool fresh = false;  // p equals pos
  for (const Action& a : actions) {
    if (!pos.current_step().Handles(pos, a)) continue;
    if (copy_each || !fresh) p = pos;
    ApplyResult r = model::Apply(p, a, /*finish_turn=*/false);
    fresh = !r.verdict.legal && r.input_error.empty();
    if (!r.verdict.legal || !r.input_error.empty()) continue;
    const std::string key =
        a.type == ActionType::kExpansion ? EffectKeyOf(p, a) : ActionKey(pos, a);
    if (seen.insert(key).second) out.push_back(a);
  }
  return out;
}

namespace {

// The action each key names (for a failure's message: written out only then).
using KeyedActions = std::map<std::string, Action>;

// Keys to compare the list with the brute force (sorted), noting the action of each in `names`.
std::vector<std::string> CompareKeys(const Position& pos, const std::vector<Action>& as,
                                     KeyedActions& names) {
  std::vector<std::string> out;
  for (const Action& a : as) {
    std::string k = a.type == ActionType::kExpansion ? EffectKey(pos, a) : ActionKey(pos, a);
    names.emplace(k, a);
    out.push_back(std::move(k));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Named(const Position& pos, const std::vector<std::string>& keys,
                  const KeyedActions& names) {
  std::vector<std::string> v;
  for (const auto& k : keys) v.push_back(model::DumpAction(pos, names.at(k)).dump());
  return Join(v);
}

// The keys of sorted `a` that sorted `b` lacks, by their names: one side of a list difference.
template <class Sorted>
std::string NamedMinus(const Position& pos, const Sorted& a, const Sorted& b,
                       const KeyedActions& names) {
  std::vector<std::string> only;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only));
  return Named(pos, only, names);
}

}  // namespace

std::optional<Failure> CheckBruteForce(const Position& pos) {
  CandidateCache cands(pos);
  return CheckBruteForce(pos, cands);
}

std::optional<Failure> CheckBruteForce(const Position& pos, CandidateCache& cands) {
  std::vector<Action> listed = model::LegalActions(pos);
  KeyedActions names;
  std::vector<std::string> keys = CompareKeys(pos, listed, names);
  // A core action twice (one picture) is a failure. An expansion's actions may share an effect
  // when they name different things (Road Sweeper on two roads without figures: nothing scores
  // either way), so they are compared as a set of effects.
  std::vector<std::string> core_keys;
  for (const Action& a : listed)
    if (a.type != ActionType::kExpansion) core_keys.push_back(ActionKey(pos, a));
  std::sort(core_keys.begin(), core_keys.end());
  if (std::adjacent_find(core_keys.begin(), core_keys.end()) != core_keys.end())
    return Fail("brute-force",
                "the list names one action (one picture) twice:" + Named(pos, core_keys, names),
                pos);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<std::string> b = CompareKeys(pos, BruteForceActions(pos, cands), names);
  b.erase(std::unique(b.begin(), b.end()), b.end());
  if (b != keys) {
    return Fail(
        "brute-force",
        "the legal list differs from brute force; listed only:" + NamedMinus(pos, keys, b, names) +
            "\nbrute force only:" + NamedMinus(pos, b, keys, names),
        pos);
  }
  return CheckFiguresListedEqualAccepted(pos);
}

// At the figure step, `carc legal`'s list (LegalActions + ShortcutActions) holds exactly the
// figure placements Apply accepts there, those a later step takes alone included (PH-ALONE).
std::optional<Failure> CheckFiguresListedEqualAccepted(const Position& pos) {
  if (pos.turn.game_over || pos.turn.placed < 0 || !pos.current_step().NeedsDecision(pos) ||
      pos.current_step().Name() != model::kPlaceFigure)
    return std::nullopt;
  std::set<std::string> listed, accepted;
  KeyedActions names;
  auto add = [&](std::set<std::string>& to, const Action& a) {
    std::string k = ActionKey(pos, a);
    names.emplace(k, a);
    to.insert(std::move(k));
  };
  Position p;  // a scratch copy, its buffers reused
  for (const auto& list : {model::LegalActions(pos), model::ShortcutActions(pos)})
    for (const Action& a : list)
      if (a.type == ActionType::kPlaceFigure) add(listed, a);
  const int nseg = static_cast<int>(pos.board.rotated(pos.turn.placed).segments.size());
  for (int k = 0; k < static_cast<int>(pos.cfg().figure_kinds.size()); ++k)
    for (int sg = 0; sg < nseg; ++sg) {
      const Action a{.type = ActionType::kPlaceFigure,
                     .pos = pos.board.tile(pos.turn.placed).pos,
                     .has_pos = true,
                     .figure_kind = k,
                     .segment = sg};
      p = pos;
      ApplyResult r = model::Apply(p, a, /*finish_turn=*/false);
      if (r.verdict.legal && r.input_error.empty()) add(accepted, a);
    }
  if (listed == accepted) return std::nullopt;
  return Fail("figures-listed-accepted",
              "at the figure step the listed figure placements differ from those accepted; "
              "listed only:" +
                  NamedMinus(pos, listed, accepted, names) +
                  "\naccepted only:" + NamedMinus(pos, accepted, listed, names),
              pos);
}

}  // namespace carc::prop

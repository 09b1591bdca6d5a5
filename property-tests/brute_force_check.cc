// The brute-force check: the legal list equals a brute-force enumeration of every
// candidate the current step could be given (BruteForceActions), compared one per picture (core
// actions) or by effect (an expansion's actions); and at the figure step, the figure placements
// listed equal those Apply accepts. property-tests/README.md "The brute force" says what is
// covered.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
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

namespace {

// An expansion action's form: module, code, which arguments are given, whether the step handles
// it and, if it does, the first argument's value (e.g. the card played or opened: the cards of
// one action read differently); packed into `form`.
struct ArgsShape {
  const model::Expansion* expansion;
  int code;
  uint64_t form;
  bool operator==(const ArgsShape&) const = default;
};
ArgsShape ShapeOf(const Action& a, bool handled) {
  uint64_t given = 0;
  for (int k = 0; k < model::kMaxActionArgs; ++k)
    if (a.args[k] != -1) given |= 1u << k;
  const uint32_t first = handled ? static_cast<uint32_t>(a.args[0]) : 0;
  return {a.expansion, a.code, first | given << 32 | uint64_t{handled} << 40};
}

// What a read-back changed in an enumerated action: the arguments it set (a default the reader
// fills, e.g. Synod's figure kind), by slot; nullopt when it changed anything else or refused it.
struct Patch {
  unsigned slots = 0;
  model::ActionArgs values;
  bool operator==(const Patch&) const = default;
};
std::optional<Patch> PatchOf(const Action& enumerated, const model::StatusOr<Action>& read) {
  if (!read.ok()) return std::nullopt;
  Action a = *read;
  Patch patch;
  for (int k = 0; k < model::kMaxActionArgs; ++k)
    if (a.args[k] != enumerated.args[k]) {
      patch.slots |= 1u << k;
      patch.values.Set(k, a.args[k]);
      a.args.Set(k, enumerated.args[k]);
    }
  if (!(a == enumerated)) return std::nullopt;
  return patch;
}
Action Patched(Action a, const Patch& patch) {
  for (int k = 0; k < model::kMaxActionArgs; ++k)
    if (patch.slots >> k & 1u) a.args.Set(k, patch.values[k]);
  return a;
}

// An expansion's candidate as enumerated, and whether the current step handles it: its
// declaration (index in pos.cfg().actions) and arguments, the rest of the Action being the same
// for every candidate of a declaration (model::EnumerateDeclared). A third of an Action
// (thousands per position, written and read again).
struct Enumerated {
  model::ActionArgs args;
  uint32_t decl;
  bool handled;
};
Action ActionOf(const Position& pos, const Enumerated& e) {
  const auto& [module, decl] = pos.cfg().actions[e.decl];
  return {.type = ActionType::kExpansion, .expansion = module, .code = decl.code, .args = e.args};
}

// Per shape of the expansions' candidates at one position (the soak, below).
struct ShapeSample {
  ArgsShape shape;
  bool handled;               // by the step
  int count = 0;              // candidates of this shape
  std::optional<Patch> read;  // handled: what every sampled read-back changed (nullopt: not one)
  bool sampled = false;
};

// Runs of consecutive candidates of one shape (EnumerateDeclared lists most of a shape's
// candidates together; a shape may have several runs).
struct Run {
  size_t begin, end;
  size_t shape;
  int first = 0;  // the shape's index of its first candidate
};

// The brute force's buffers, one set per thread, kept from position to position
// (vectors of thousands of candidates made afresh at each position, and grown candidate by
// candidate, were about a tenth of its time, much of it page faults).
struct Scratch {
  std::vector<Enumerated> cand;  // the expansions' candidates as enumerated
  std::vector<ShapeSample> shapes;
  std::map<std::tuple<const model::Expansion*, int, uint64_t>, size_t> index;  // of shapes
  std::vector<Run> runs;
  std::vector<Action> core;  // the core candidates, in order
  Position p;                // a scratch copy of the position
};
Scratch& ScratchBuffers() {
  thread_local Scratch scratch;
  return scratch;
}

// The expansions' own action kinds, read back from their position-file form (ReadBack): every
// one the step handles as enumerated (the reader keeps an action's kind: type, module and code,
// and fills defaults), and every other one too in the ctest properties and perft (stride 1: a
// reader that turned one action kind into another would show there).
// The soak (stride = cands.unhandled_read_back() > 1: reading back thousands of card
// plays per position was most of the soak's time) reads back, at each position:
// - of the candidates the step handles, one in `stride` of each shape (ArgsShape), at least one
//   and at most about `stride`, from an offset that rotates with the position (`modulus`
//   below), and every one of a shape whose sampled read-backs did not all come back changed
//   alike (PatchOf): not at all, or only in the same arguments to the same values (a default
//   the reader fills). Every other one is tried as enumerated with that change, and read back
//   if Apply accepts it (BruteForceKeyed), so every action the brute force counts is a
//   read-back, as before;
// - of those it does not handle, one of each shape (rotating): a reader that turns an action of
//   a kind the step does not handle into one it accepts and the list lacks is also what the
//   outside-the-list check looks for (CheckOutsideRefused reads back random candidates).
// The candidates are those of ExpansionCandidateActions (the CandidateCache's), enumerated here
// into the thread's buffer with the step asked once about each (and its shape taken) as it is
// visited. Each candidate the brute force tries is handed to `add` (action, read, handled) in
// order, not listed: `read` when it is what a question naming it reads as (a
// read-back), else as enumerated (and patched), to be read back only if Apply accepts it;
// `handled`: the step was asked about this very action and handles it (not asked again).
template <class Add>
void AddExpansionCandidates(const Position& pos, const CandidateCache& cands, Scratch& scr,
                            Add&& add) {
  const model::Step& step = pos.current_step();
  std::vector<Enumerated>& cand = scr.cand;
  cand.clear();
  // Every candidate in ExpansionCandidateActions' order (ForEachExpansionCandidate's walk).
  const auto& decls = pos.cfg().actions;
  auto enumerate = [&](auto&& visit) {
    for (uint32_t k = 0; k < decls.size(); ++k)
      model::EnumerateDeclared(pos, decls[k].first, decls[k].second,
                               [&](const Action& a) { visit(k, a); });
  };
  // A read-back that came back as enumerated is a candidate the step was asked about.
  auto add_read = [&](size_t i, const Action& a) {
    add(a, /*read=*/true, cand[i].handled && a == ActionOf(pos, cand[i]));
  };
  const size_t stride = static_cast<size_t>(std::max(cands.unhandled_read_back(), 1));
  if (stride == 1) {
    enumerate([&](uint32_t k, const Action& a) {
      cand.push_back({a.args, k, step.Handles(pos, a)});
    });
    for (size_t i = 0; i < cand.size(); ++i)
      if (auto a = ReadBack(pos, ActionOf(pos, cand[i])); a.ok()) add_read(i, *a);
    return;
  }
  std::vector<ShapeSample>& shapes = scr.shapes;
  std::vector<Run>& runs = scr.runs;
  shapes.clear();
  scr.index.clear();
  runs.clear();
  enumerate([&](uint32_t k, const Action& a) {
    const bool handled = step.Handles(pos, a);
    const ArgsShape shape = ShapeOf(a, handled);
    const size_t i = cand.size();
    cand.push_back({a.args, k, handled});
    if (runs.empty() || !(shapes[runs.back().shape].shape == shape)) {
      auto [it, added] =
          scr.index.try_emplace({shape.expansion, shape.code, shape.form}, shapes.size());
      if (added) shapes.push_back({shape, handled});
      runs.push_back({i, i, it->second, shapes[it->second].count});
    }
    ++runs.back().end;
    ++shapes[runs.back().shape].count;
  });
  // The sample: the k-th candidates of a shape with k = turn modulo m, m the shape's count (one
  // of a shape the step does not handle) or, handled, stride (one in stride) but at most the
  // count (at least one) and at least count / stride (at most about stride of them), from an
  // offset that rotates with the position.
  // Half the board size plus the player: in a 2-player game (one tile a turn) board size plus
  // player is always odd, which left half the offsets unused; this one takes every value, at
  // the lean turns (even board size, below) and at the explained ones alike.
  const int turn = pos.board.size() / 2 + pos.turn.player;
  const int every = static_cast<int>(stride);
  auto modulus = [&](const ShapeSample& sh) {
    return sh.handled ? std::min(sh.count, std::max(every, sh.count / every)) : sh.count;
  };
  auto in_sample = [&](const ShapeSample& sh, int k) {
    return k % modulus(sh) == turn % modulus(sh);
  };
  auto sample = [&](size_t i, ShapeSample& sh) {
    const Action enumerated = ActionOf(pos, cand[i]);
    auto a = ReadBack(pos, enumerated);
    if (a.ok()) add_read(i, *a);
    if (!sh.handled) return;
    const std::optional<Patch> patch = PatchOf(enumerated, a);
    if (!sh.sampled) sh.read = patch;
    if (sh.read != patch) sh.read.reset();
    sh.sampled = true;
  };
  for (const Run& r : runs) {
    ShapeSample& sh = shapes[r.shape];
    const int m = modulus(sh);
    for (int k = r.first + ((turn - r.first) % m + m) % m;
         k < r.first + static_cast<int>(r.end - r.begin); k += m)
      sample(r.begin + static_cast<size_t>(k - r.first), sh);
  }
  for (const Run& r : runs) {
    const ShapeSample& sh = shapes[r.shape];
    if (!sh.handled) continue;
    for (size_t i = r.begin; i < r.end; ++i) {
      if (in_sample(sh, r.first + static_cast<int>(i - r.begin))) continue;
      if (sh.read) {
        // Unpatched, it is the action the step was asked about.
        add(Patched(ActionOf(pos, cand[i]), *sh.read), /*read=*/false, sh.read->slots == 0);
      } else if (auto a = ReadBack(pos, ActionOf(pos, cand[i])); a.ok()) {
        add_read(i, *a);
      }
    }
  }
}

// An action the brute force found, with its key (ActionKey, or EffectKey for an expansion's).
using Keyed = std::vector<std::pair<Action, std::string>>;

// BruteForceActions with each action's key, as computed right after applying it.
Keyed BruteForceKeyed(const Position& pos, CandidateCache& cands) {
  Keyed out;
  if (pos.turn.game_over) return out;
  Scratch& scr = ScratchBuffers();
  std::vector<Action>& actions = scr.core;
  actions.clear();
  actions.push_back({.type = ActionType::kPass});
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
  std::set<std::string> seen;  // one action per picture (core) or per effect (expansions)
  Position& p = scr.p;         // a scratch copy, its buffers reused
  // In the soak (unhandled_read_back > 1) the copy is made again only after an action that was
  // not refused by a ruling: Apply leaves the position unchanged when it rules an action illegal
  // (rules.h; a breach would show as a difference with the list). The ctest properties and
  // perft copy before every candidate.
  const bool copy_each = cands.unhandled_read_back() <= 1;
  bool fresh = false;  // p equals pos
  // In the soak, at every other turn (board size even) the candidates are applied on the lean
  // path (Position::explain false) while the list comes from the explaining one, so a refusal or
  // an acceptance only one path makes shows as a difference; at the other turns, and always in
  // the ctest properties and perft, both are explained.
  const bool lean = !copy_each && pos.board.size() % 2 == 0;
  const model::Step& step = pos.current_step();
  // `handled`: the step is known to handle a (asked when it was enumerated).
  auto accepted = [&](const Action& a, bool handled) {
    if (!handled && !step.Handles(pos, a)) return false;
    if (copy_each || !fresh) {
      p = pos;
      if (lean) p.explain = false;
    }
    ApplyResult r = model::Apply(p, a, /*finish_turn=*/false);
    fresh = !r.verdict.legal && r.input_error.empty();
    return r.verdict.legal && r.input_error.empty();
  };
  // Each candidate in order: the core ones, then the expansions' (AddExpansionCandidates).
  auto consider = [&](const Action& c, bool read, bool handled) {
    if (!accepted(c, handled)) return;
    Action a = c;
    if (!read) {  // accepted as enumerated: what counts is the action a question names
      auto back = ReadBack(pos, c);
      if (!back.ok()) return;
      if (!(*back == c)) {
        fresh = false;
        if (!accepted(*back, false)) return;
        a = *back;
      }
    }
    std::string key = a.type == ActionType::kExpansion ? EffectKeyOf(p, a) : ActionKey(pos, a);
    if (seen.insert(key).second) out.emplace_back(a, std::move(key));
  };
  for (const Action& c : actions) consider(c, /*read=*/true, /*handled=*/false);
  AddExpansionCandidates(pos, cands, scr, consider);
  return out;
}

}  // namespace

std::vector<Action> BruteForceActions(const Position& pos) {
  CandidateCache cands(pos);
  return BruteForceActions(pos, cands);
}

std::vector<Action> BruteForceActions(const Position& pos, CandidateCache& cands) {
  std::vector<Action> out;
  for (auto& [a, key] : BruteForceKeyed(pos, cands)) out.push_back(a);
  return out;
}

namespace {

// The action each key names (for a failure's message: written out only then).
using KeyedActions = std::map<std::string, Action>;

// Keys to compare the list with the brute force (sorted), noting the action of each in `names`.
// A key is a function of the action at pos, so an action the brute force found keeps the key it
// got there (each EffectKey is a position copy and an Apply).
std::vector<std::string> CompareKeys(const Position& pos, const std::vector<Action>& as,
                                     const Keyed& found, KeyedActions& names) {
  std::vector<std::string> out;
  for (const Action& a : as) {
    auto it = std::find_if(found.begin(), found.end(), [&](const auto& f) { return f.first == a; });
    std::string k = it != found.end()                  ? it->second
                    : a.type == ActionType::kExpansion ? EffectKey(pos, a)
                                                       : ActionKey(pos, a);
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
  const Keyed found = BruteForceKeyed(pos, cands);
  KeyedActions names;
  std::vector<std::string> keys = CompareKeys(pos, listed, found, names);
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
  std::vector<std::string> b;
  for (const auto& [a, key] : found) {
    names.emplace(key, a);
    b.push_back(key);
  }
  std::sort(b.begin(), b.end());
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

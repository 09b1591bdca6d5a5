#include "property-tests/checks.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "property-tests/board_transform.h"
#include "property-tests/brute_force.h"
#include "property-tests/check_util.h"
#include "property-tests/recompute.h"

namespace carc::prop {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::Coord;
using model::Position;
using nlohmann::json;

std::string Failure::Text() const {
  std::string s = property + ": " + message;
  if (!action.is_null()) s += "\naction: " + action.dump();
  return s + "\nposition: " + position.dump();
}

namespace {

struct Box {
  int x0, y0, x1, y1;
};
Box BoundingBox(const Position& pos) {
  Box b{0, 0, 0, 0};
  for (int i = 0; i < pos.board.size(); ++i) {
    Coord c = pos.board.tile(i).pos;
    if (i == 0) b = {c.x, c.y, c.x, c.y};
    b = {std::min(b.x0, c.x), std::min(b.y0, c.y), std::max(b.x1, c.x), std::max(b.y1, c.y)};
  }
  return b;
}

std::string UndrawnPlacementKey(Coord c, int rotation) {
  return "undrawn tile (" + std::to_string(c.x) + "," + std::to_string(c.y) + ") r" +
         std::to_string(rotation);
}

// Keys of what may be played now: the current step's list, plus the lists of later steps of the
// same turn reached by passing (a figure of a later step passes the earlier ones implicitly).
// The effect keys of the expansions' listed actions (each one an Apply and a position dump) are
// added only when asked for (AddEffects): only an expansion candidate is compared with them.
struct Acceptable {
  std::set<std::string> keys;
  std::vector<std::pair<Position, std::vector<Action>>> expansion_actions;  // by step reached
  bool effects = false;
  bool Has(const std::string& k) const { return keys.count(k) > 0; }
  void AddEffects() {
    if (effects) return;
    effects = true;
    for (const auto& [p, as] : expansion_actions)
      for (const Action& a : as) keys.insert(EffectKey(p, a));
  }
};

Acceptable AcceptableKeys(const Position& pos) {
  Acceptable ok;
  std::set<std::string>& keys = ok.keys;
  Position p = pos;
  const int player = pos.turn.player;
  const int placed = pos.turn.placed;
  for (int guard = 0; guard < 16 && !p.turn.game_over; ++guard) {
    std::vector<Action> legal = model::LegalActions(p);
    std::vector<Action> expansion;
    for (const Action& a : legal) {
      keys.insert(ActionKey(p, a));
      if (a.type == ActionType::kExpansion) expansion.push_back(a);
      // Before the draw, a placement without "tile" names the tile the draw will give.
      if (a.type == ActionType::kPlaceTile && !pos.turn.drawn && p.turn.drawn &&
          a.tile == *p.turn.drawn) {
        const auto& cat = *p.cfg().catalog;
        for (int r = 0; r < 4; ++r)
          if (Picture(cat.rotated(a.tile, r)) == Picture(cat.rotated(a.tile, a.rotation & 3)))
            keys.insert(UndrawnPlacementKey(a.pos, r));
      }
    }
    if (!expansion.empty()) ok.expansion_actions.emplace_back(p, std::move(expansion));
    bool can_pass = std::any_of(legal.begin(), legal.end(),
                                [](const Action& a) { return a.type == ActionType::kPass; });
    if (!can_pass) break;
    model::Apply(p, {.type = ActionType::kPass}, /*finish_turn=*/false);
    ApplyResult tmp;
    model::Advance(p, tmp);
    if (p.turn.game_over || p.turn.player != player || p.turn.placed != placed) break;
  }
  return ok;
}

}  // namespace

std::optional<Failure> CheckListedActionsApply(const Position& pos) {
  Position p;  // a scratch copy, its buffers reused
  for (const Action& a : model::LegalActions(pos)) {
    p = pos;
    ApplyResult r = model::Apply(p, a);
    if (!r.input_error.empty() || !r.verdict.legal)
      return Fail("listed-actions-apply", "a listed action is refused: " + Refusal(r), pos, &a);
    std::vector<std::string> vs;
    for (const auto& v : model::Validate(p)) vs.push_back(v.ruling + " " + v.where + ": " + v.text);
    if (!vs.empty())
      return Fail("listed-actions-apply",
                  "after the listed action the position does not validate:" + Join(vs), pos, &a);
  }
  return std::nullopt;
}

const std::vector<Action>& CandidateCache::Get() {
  if (!built_) ExpansionCandidateActions(*pos_, list_);
  built_ = true;
  return list_;
}

std::optional<Failure> CheckOutsideRefused(const Position& pos,
                                           const std::vector<RawAction>& raws) {
  CandidateCache cands(pos);
  return CheckOutsideRefused(pos, raws, cands);
}

std::optional<Failure> CheckOutsideRefused(const Position& pos, const std::vector<RawAction>& raws,
                                           CandidateCache& cands) {
  if (pos.turn.game_over) return std::nullopt;
  Acceptable ok = AcceptableKeys(pos);
  const Box box = BoundingBox(pos);
  const int nk = static_cast<int>(pos.cfg().figure_kinds.size());
  const int ntypes = pos.cfg().catalog->size();
  auto mod = [](int v, int m) { return ((v % m) + m) % m; };
  // An action outside the list must be refused with a ruling ID, or be an input error.
  Position p;  // a scratch copy, its buffers reused
  auto not_refused = [&pos, &p](const Action& a,
                                const std::string& what) -> std::optional<Failure> {
    p = pos;
    ApplyResult r = model::Apply(p, a, /*finish_turn=*/false);
    const bool refused_with_ruling =
        !r.verdict.legal && !r.verdict.reasons.empty() && !r.verdict.reasons[0].ruling.empty();
    if (refused_with_ruling || !r.input_error.empty()) return std::nullopt;
    return Fail("outside-refused",
                what + " outside the legal list was " + Refusal(r) +
                    (r.verdict.legal ? " (accepted)" : " without a ruling"),
                pos, &a);
  };
  // The expansions' candidates, built only when a raw action asks for one.
  static const std::vector<Action> kNone;
  auto exp_cands = [&]() -> const std::vector<Action>& {
    return pos.cfg().expansions.empty() ? kNone : cands.Get();
  };
  for (const RawAction& raw : raws) {
    Action a;
    // Type 4: one of the expansions' own candidate actions (brute_force.h), when there are any.
    if (mod(raw.type, 5) == 4 && !exp_cands().empty()) {
      const Action& c = exp_cands()[mod(raw.x * 1000 + raw.y * 10 + raw.segment,
                                        static_cast<int>(exp_cands().size()))];
      auto parsed = ReadBack(pos, c);
      if (!parsed.ok()) continue;  // an input error: refused
      a = *parsed;
      if (ok.Has(ActionKey(pos, a))) continue;
      ok.AddEffects();
      if (ok.Has(EffectKey(pos, a))) continue;
      if (auto f = not_refused(a, "an expansion action")) return f;
      continue;
    }
    switch (mod(raw.type, 4)) {
      case 0:
        a.type = ActionType::kPlaceTile;
        a.pos = {box.x0 - 2 + mod(raw.x, box.x1 - box.x0 + 5),
                 box.y0 - 2 + mod(raw.y, box.y1 - box.y0 + 5)};
        a.rotation = mod(raw.rotation, 4);
        a.tile = pos.turn.drawn ? *pos.turn.drawn : -1;
        // A tile an expansion holds in hand (Gifts' open_gift / take_2), named as carc would.
        if (!pos.turn.drawn && !CandidateTiles(pos).empty()) a.tile = CandidateTiles(pos)[0];
        if (mod(raw.kind, 4) == 0) a.tile = mod(raw.segment, ntypes);  // maybe not the drawn tile
        break;
      case 1: {
        a.type = ActionType::kPlaceFigure;
        a.figure_kind = mod(raw.kind, nk);
        int tile = pos.turn.placed;
        if (tile < 0 || mod(raw.on_other_tile, 3) == 0) tile = mod(raw.x, pos.board.size());
        a.has_pos = true;
        a.pos = pos.board.tile(tile).pos;
        a.segment = mod(raw.segment, static_cast<int>(pos.board.rotated(tile).segments.size()));
        break;
      }
      case 2:
        a.type = ActionType::kPass;
        break;
      default:
        a.type = ActionType::kDraw;
        a.tile = mod(raw.segment, ntypes);
    }
    if (ok.Has(ActionKey(pos, a))) continue;
    if (a.type == ActionType::kPlaceTile && a.tile < 0 && !pos.turn.drawn &&
        ok.Has(UndrawnPlacementKey(a.pos, a.rotation)))
      continue;
    if (auto f = not_refused(a, "an action")) return f;
  }
  return std::nullopt;
}

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

std::optional<Failure> CheckRoundTrip(const Position& pos) {
  json j = model::DumpPosition(pos);
  auto p2 = ParseJson(j, "roundtrip.json");
  if (!p2.ok())
    return Fail("round-trip", "the dumped position does not parse: " + p2.status().message(), pos);
  // As `carc` reads a file: on through the steps that need no decision (a file at step
  // place_tile names the first step of that name, e.g. Christmas Present's forced placement).
  ApplyResult pre;
  model::Advance(*p2, pre);
  json j2 = model::DumpPosition(*p2);
  if (j != j2) return Fail("round-trip", "dump -> parse -> dump differs:\n" + j2.dump(), pos);
  if (ActionKeys(pos, model::LegalActions(pos)) != ActionKeys(*p2, model::LegalActions(*p2)))
    return Fail("round-trip",
                "the parsed position has other legal actions (step " +
                    std::string(pos.current_step().Name()) + " read back as " +
                    std::string(p2->current_step().Name()) +
                    "):" + Join(ActionKeys(pos, model::LegalActions(pos))) +
                    "\nread back:" + Join(ActionKeys(*p2, model::LegalActions(*p2))),
                pos);
  if (!model::Validate(*p2).empty())
    return Fail("round-trip", "the parsed position does not validate", pos);
  return std::nullopt;
}

std::optional<Failure> CheckConservation(const Position& pos) {
  const auto& kinds = pos.cfg().figure_kinds;
  for (size_t p = 0; p < pos.players.size(); ++p)
    for (size_t k = 0; k < kinds.size(); ++k) {
      int supply = pos.players[p].supply[k];
      int board = pos.FiguresOnBoard(static_cast<int>(p), static_cast<int>(k));
      if (supply < 0 || supply + board != kinds[k].per_player)
        return Fail("figure-conservation",
                    "player " + std::to_string(p) + " " + kinds[k].name + ": supply " +
                        std::to_string(supply) + " + board " + std::to_string(board) +
                        " != " + std::to_string(kinds[k].per_player),
                    pos);
    }
  return std::nullopt;
}

std::optional<Failure> CheckFeatures(const Position& pos, int rebuild_root) {
  const int n = pos.board.size();
  const int root = n == 0 ? 0 : ((rebuild_root % n) + n) % n;
  // CompareFeatures, CompareFinalScoring, CompareFigurePlacements and CompareRebuilt, in that
  // order, on one flood fill (issue 21: each computed its own).
  const auto d = CompareAllFeatures(pos, root);
  if (!d) return std::nullopt;
  switch (d->which) {
    case FeatureDifference::kFeatures:
      return Fail("feature-recompute", d->message, pos);
    case FeatureDifference::kFinalScoring:
      return Fail("final-scoring-oracle", d->message, pos);
    case FeatureDifference::kFigurePlacements:
      return Fail("figure-placement-oracle", d->message, pos);
    case FeatureDifference::kRebuilt:
      break;
  }
  return Fail("feature-recompute", "rebuilt from tile " + std::to_string(root) + ": " + d->message,
              pos);
}

std::optional<Failure> CheckScoreEvents(const Position& before, const Action& a,
                                        const ApplyResult& r, const Position& after) {
  std::vector<int> sum(before.players.size(), 0);
  for (const auto& ev : r.scores) {
    if (ev.points < 0) return Fail("score-events", "a score event of negative points", before, &a);
    for (int w : ev.winners) sum[w] += ev.points;
  }
  for (size_t p = 0; p < before.players.size(); ++p) {
    int delta = after.players[p].score - before.players[p].score;
    if (delta < 0)
      return Fail("score-events",
                  "the score of player " + std::to_string(p) + " fell by " + std::to_string(-delta),
                  before, &a);
    if (delta != sum[p])
      return Fail("score-events",
                  "player " + std::to_string(p) + " gained " + std::to_string(delta) +
                      " but the score events give " + std::to_string(sum[p]),
                  before, &a);
  }
  return std::nullopt;
}

}  // namespace carc::prop

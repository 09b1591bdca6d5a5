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

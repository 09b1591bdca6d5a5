#include "property-tests/checks.h"

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "property-tests/board_transform.h"
#include "property-tests/brute_force.h"
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

Failure Fail(std::string property, std::string message, const Position& pos,
             const Action* a = nullptr) {
  Failure f{std::move(property), std::move(message), model::DumpPosition(pos), json()};
  if (a) f.action = model::DumpAction(pos, *a);
  return f;
}

std::string Refusal(const ApplyResult& r) {
  if (!r.input_error.empty()) return "input error: " + r.input_error;
  if (!r.verdict.legal)
    return "illegal: " + (r.verdict.reasons.empty()
                              ? std::string("(no reason)")
                              : r.verdict.reasons[0].ruling + " " + r.verdict.reasons[0].text);
  return "legal";
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "\n  " + x;
  return s;
}

std::vector<int> Scores(const Position& pos) {
  std::vector<int> s;
  for (const auto& p : pos.players) s.push_back(p.score);
  return s;
}

std::string Show(const std::vector<int>& v) { return json(v).dump(); }

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
std::set<std::string> AcceptableKeys(const Position& pos) {
  std::set<std::string> keys;
  Position p = pos;
  const int player = pos.turn.player;
  const int placed = pos.turn.placed;
  for (int guard = 0; guard < 16 && !p.turn.game_over; ++guard) {
    std::vector<Action> legal = model::LegalActions(p);
    for (const Action& a : legal) {
      keys.insert(ActionKey(p, a));
      if (a.type == ActionType::kExpansion) keys.insert(EffectKey(p, a));
      // Before the draw, a placement without "tile" names the tile the draw will give.
      if (a.type == ActionType::kPlaceTile && !pos.turn.drawn && p.turn.drawn &&
          a.tile == *p.turn.drawn) {
        const auto& cat = *p.cfg().catalog;
        for (int r = 0; r < 4; ++r)
          if (Picture(cat.rotated(a.tile, r)) == Picture(cat.rotated(a.tile, a.rotation & 3)))
            keys.insert(UndrawnPlacementKey(a.pos, r));
      }
    }
    bool can_pass = std::any_of(legal.begin(), legal.end(),
                                [](const Action& a) { return a.type == ActionType::kPass; });
    if (!can_pass) break;
    model::Apply(p, {.type = ActionType::kPass}, /*finish_turn=*/false);
    ApplyResult tmp;
    model::Advance(p, tmp);
    if (p.turn.game_over || p.turn.player != player || p.turn.placed != placed) break;
  }
  return keys;
}

}  // namespace

std::optional<Failure> CheckListedActionsApply(const Position& pos) {
  for (const Action& a : model::LegalActions(pos)) {
    Position p = pos;
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

std::optional<Failure> CheckOutsideRefused(const Position& pos,
                                           const std::vector<RawAction>& raws) {
  if (pos.turn.game_over) return std::nullopt;
  const std::set<std::string> ok = AcceptableKeys(pos);
  const Box box = BoundingBox(pos);
  const int nk = static_cast<int>(pos.cfg().figure_kinds.size());
  const int ntypes = pos.cfg().catalog->size();
  auto mod = [](int v, int m) { return ((v % m) + m) % m; };
  const auto ctx = exp::Context("outside.json");
  std::vector<json> exp_cands;
  if (!pos.cfg().expansions.empty()) exp_cands = ExpansionCandidates(pos);
  for (const RawAction& raw : raws) {
    Action a;
    // Type 4: one of the expansions' own candidate actions (brute_force.h), when there are any.
    if (mod(raw.type, 5) == 4 && !exp_cands.empty()) {
      const json& j = exp_cands[mod(raw.x * 1000 + raw.y * 10 + raw.segment,
                                    static_cast<int>(exp_cands.size()))];
      auto parsed = model::ParseAction(j, pos, "/outside", ctx);
      if (!parsed.ok()) continue;  // an input error: refused
      a = *parsed;
      if (ok.count(ActionKey(pos, a)) || ok.count(EffectKey(pos, a))) continue;
      Position p = pos;
      ApplyResult r = model::Apply(p, a, /*finish_turn=*/false);
      bool refused_with_ruling =
          !r.verdict.legal && !r.verdict.reasons.empty() && !r.verdict.reasons[0].ruling.empty();
      if (!(refused_with_ruling || !r.input_error.empty()))
        return Fail("outside-refused",
                    "an expansion action outside the legal list was " + Refusal(r) +
                        (r.verdict.legal ? " (accepted)" : " without a ruling"),
                    pos, &a);
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
    if (ok.count(ActionKey(pos, a))) continue;
    if (a.type == ActionType::kPlaceTile && a.tile < 0 && !pos.turn.drawn &&
        ok.count(UndrawnPlacementKey(a.pos, a.rotation)))
      continue;
    Position p = pos;
    ApplyResult r = model::Apply(p, a, /*finish_turn=*/false);
    bool refused_with_ruling =
        !r.verdict.legal && !r.verdict.reasons.empty() && !r.verdict.reasons[0].ruling.empty();
    if (!(refused_with_ruling || !r.input_error.empty()))
      return Fail("outside-refused",
                  "an action outside the legal list was " + Refusal(r) +
                      (r.verdict.legal ? " (accepted)" : " without a ruling"),
                  pos, &a);
  }
  return std::nullopt;
}

std::vector<Action> BruteForceActions(const Position& pos) {
  std::vector<Action> out;
  if (pos.turn.game_over) return out;
  std::vector<Action> cands = {{.type = ActionType::kPass}};
  const model::TileCatalog& cat = *pos.cfg().catalog;
  for (model::TileType t = 0; t < cat.size(); ++t)
    cands.push_back({.type = ActionType::kDraw, .tile = t});
  const std::vector<model::TileType> tiles = CandidateTiles(pos);
  if (!tiles.empty()) {
    const Box b = BoundingBox(pos);
    for (model::TileType t : tiles)
      for (int x = b.x0 - 1; x <= b.x1 + 1; ++x)
        for (int y = b.y0 - 1; y <= b.y1 + 1; ++y)
          for (int r = 0; r < 4; ++r)
            cands.push_back(
                {.type = ActionType::kPlaceTile, .tile = t, .pos = {x, y}, .rotation = r});
  }
  if (pos.turn.placed >= 0) {
    const int nseg = static_cast<int>(pos.board.rotated(pos.turn.placed).segments.size());
    for (int k = 0; k < static_cast<int>(pos.cfg().figure_kinds.size()); ++k)
      for (int s = 0; s < nseg; ++s)
        cands.push_back({.type = ActionType::kPlaceFigure,
                         .pos = pos.board.tile(pos.turn.placed).pos,
                         .has_pos = true,
                         .figure_kind = k,
                         .segment = s});
  }
  // The expansions' own action kinds, read back from their position-file form.
  const auto ctx = exp::Context("brute.json");
  for (const json& j : ExpansionCandidates(pos)) {
    auto a = model::ParseAction(j, pos, "/brute", ctx);
    if (a.ok()) cands.push_back(*a);
  }
  std::set<std::string> seen;  // one action per picture (core) or per effect (expansions)
  for (const Action& a : cands) {
    if (!pos.current_step().Handles(pos, a)) continue;
    Position p = pos;
    ApplyResult r = model::Apply(p, a, /*finish_turn=*/false);
    if (!r.verdict.legal || !r.input_error.empty()) continue;
    const std::string key =
        a.type == ActionType::kExpansion ? EffectKeyOf(p, a) : ActionKey(pos, a);
    if (seen.insert(key).second) out.push_back(a);
  }
  return out;
}

namespace {

// Keys to compare the list with the brute force, and what each names (for the message).
std::vector<std::string> CompareKeys(const Position& pos, const std::vector<Action>& as,
                                     std::map<std::string, std::string>& names) {
  std::vector<std::string> out;
  for (const Action& a : as) {
    std::string k = a.type == ActionType::kExpansion ? EffectKey(pos, a) : ActionKey(pos, a);
    names[k] = model::DumpAction(pos, a).dump();
    out.push_back(k);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Named(const std::vector<std::string>& keys,
                  const std::map<std::string, std::string>& names) {
  std::vector<std::string> v;
  for (const auto& k : keys) v.push_back(names.at(k));
  return Join(v);
}

}  // namespace

std::optional<Failure> CheckBruteForce(const Position& pos) {
  std::vector<Action> listed = model::LegalActions(pos);
  std::map<std::string, std::string> names;
  std::vector<std::string> keys = CompareKeys(pos, listed, names);
  // A core action twice (one picture) is a failure. An expansion's actions may share an effect
  // when they name different things (Road Sweeper on two roads without figures: nothing scores
  // either way), so they are compared as a set of effects.
  std::vector<Action> core;
  for (const Action& a : listed)
    if (a.type != ActionType::kExpansion) core.push_back(a);
  std::vector<std::string> core_keys = CompareKeys(pos, core, names);
  if (std::adjacent_find(core_keys.begin(), core_keys.end()) != core_keys.end())
    return Fail("brute-force",
                "the list names one action (one picture) twice:" + Named(core_keys, names), pos);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<std::string> b = CompareKeys(pos, BruteForceActions(pos), names);
  b.erase(std::unique(b.begin(), b.end()), b.end());
  if (b != keys) {
    std::vector<std::string> only_list, only_brute;
    std::set_difference(keys.begin(), keys.end(), b.begin(), b.end(),
                        std::back_inserter(only_list));
    std::set_difference(b.begin(), b.end(), keys.begin(), keys.end(),
                        std::back_inserter(only_brute));
    return Fail("brute-force",
                "the legal list differs from brute force; listed only:" + Named(only_list, names) +
                    "\nbrute force only:" + Named(only_brute, names),
                pos);
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
  if (auto d = CompareFeatures(pos)) return Fail("feature-recompute", *d, pos);
  if (auto d = CompareFinalScoring(pos)) return Fail("final-scoring-oracle", *d, pos);
  if (auto d = CompareFigurePlacements(pos)) return Fail("figure-placement-oracle", *d, pos);
  if (pos.board.size() == 0) return std::nullopt;
  int root = ((rebuild_root % pos.board.size()) + pos.board.size()) % pos.board.size();
  if (auto d = CompareRebuilt(pos, root))
    return Fail("feature-recompute", "rebuilt from tile " + std::to_string(root) + ": " + *d, pos);
  return std::nullopt;
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

std::optional<Failure> CheckPlayout(const Game& g) {
  if (g.error.empty()) return std::nullopt;
  const Position& at = g.before.empty() ? g.start : g.before.back();
  return Fail("playout", g.error, at, g.actions.empty() ? nullptr : &g.actions.back());
}

std::optional<Failure> CheckReplay(const Game& g) {
  auto parsed = ParseJson(g.start_json, "start.json");
  if (!parsed.ok()) return Failure{"replay", parsed.status().message(), g.start_json, json()};
  Position pos = std::move(*parsed);
  ApplyResult first;
  model::Advance(pos, first);
  const auto ctx = exp::Context("record.json");
  for (int i = 0; i < g.decisions(); ++i) {
    if (model::DumpPosition(pos) != model::DumpPosition(g.before[i]))
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
  Position a = g.before[k];
  const std::string what = "board turned " + std::to_string(90 * t.quarter_turns) +
                           " and moved by (" + std::to_string(t.dx) + ", " + std::to_string(t.dy) +
                           ")";
  auto parsed = ParseJson(TransformPosition(model::DumpPosition(a), t), "transformed.json");
  if (!parsed.ok())
    return Fail("symmetry", what + ": does not parse: " + parsed.status().message(), a);
  Position b = std::move(*parsed);
  ApplyResult pre;
  model::Advance(b, pre);
  if (!model::Validate(b).empty()) return Fail("symmetry", what + ": no longer validates", a);
  for (int i = k; i < g.decisions(); ++i) {
    // Core actions by picture; an expansion's by effect, as in the brute force: a feature may
    // be named by any of its segments (e.g. the first found), which a turn of the board changes.
    auto key = [&b](const Action& x) {
      return x.type == ActionType::kExpansion ? EffectKey(b, x) : ActionKey(b, x);
    };
    std::vector<std::string> mapped, got;
    for (const Action& x : model::LegalActions(a))
      mapped.push_back(key(TransformAction(a, x, b, t)));
    for (const Action& y : model::LegalActions(b)) got.push_back(key(y));
    std::sort(mapped.begin(), mapped.end());
    std::sort(got.begin(), got.end());
    if (mapped != got)
      return Fail("symmetry",
                  what + ": the legal actions differ (" + std::to_string(mapped.size()) + " vs " +
                      std::to_string(got.size()) + ") at decision " + std::to_string(i) +
                      "; transformed position: " + model::DumpPosition(b).dump(),
                  a);
    Action ta = TransformAction(a, g.actions[i], b, t);
    ApplyResult ra = model::Apply(a, g.actions[i]);
    ApplyResult rb = model::Apply(b, ta);
    if (!rb.verdict.legal || !rb.input_error.empty())
      return Fail("symmetry", what + ": the transformed action is refused: " + Refusal(rb), b, &ta);
    if (Scores(a) != Scores(b))
      return Fail("symmetry",
                  what + ": scores " + Show(Scores(a)) + " vs " + Show(Scores(b)) +
                      " after decision " + std::to_string(i),
                  g.before[k]);
  }
  return std::nullopt;
}

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
  if (id == "messengers") return ev.points == 0 && ev.cause == "messengers-final-sum";
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

std::optional<Failure> CheckAll(const Game& g, uint64_t salt) {
  if (auto f = CheckPlayout(g)) return f;
  std::mt19937_64 rng(salt);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int i = 0; i < g.decisions(); ++i) {
    const Position& pos = g.before[i];
    const Position& next = i + 1 < g.decisions() ? g.before[i + 1] : g.final_pos;
    if (auto f = CheckConservation(pos)) return f;
    if (auto f = CheckScoreEvents(pos, g.actions[i], g.results[i], next)) return f;
    // The costlier per-position checks at a quarter of the decisions (the soak's rate).
    if (uni(0, 3) != 0) continue;
    if (auto f = CheckRoundTrip(pos)) return f;
    if (auto f = CheckListedActionsApply(pos)) return f;
    if (auto f = CheckFeatures(pos, uni(0, 1000))) return f;
    std::vector<RawAction> raws(4);
    for (RawAction& r : raws)
      r = {uni(0, 4), uni(0, 99), uni(0, 99), uni(0, 3), uni(0, 9), uni(0, 9), uni(0, 2)};
    if (auto f = CheckOutsideRefused(pos, raws)) return f;
    if (uni(0, 2) == 0)
      if (auto f = CheckBruteForce(pos)) return f;
  }
  if (auto f = CheckConservation(g.final_pos)) return f;
  if (auto f = CheckRoundTrip(g.final_pos)) return f;
  if (auto f = CheckReplay(g)) return f;
  if (auto f = CheckTransformed(g, uni(0, 1000), {uni(0, 3), uni(-30, 30), uni(-30, 30)})) return f;
  for (const std::string& id : g.spec.expansions)
    if (auto f = CheckUnusedExpansion(g.spec, id)) return f;
  return std::nullopt;
}

}  // namespace carc::prop

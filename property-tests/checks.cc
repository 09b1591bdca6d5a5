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

// What may be played now, asked only for an action Apply did not refuse with a ruling
// (building all of it at every checked position was most of the check): the keys of the current
// step's list, plus the lists of later steps of the same turn reached by passing (a figure of a
// later step passes the earlier ones implicitly); and, asked for one module, the effect keys
// (EffectKey: an Apply and a hash each) of that module's listed actions on the same steps. An
// effect key begins with its module's id, so another module's listed action never matches it.
class Acceptable {
 public:
  explicit Acceptable(const Position& pos) : pos_(pos) {}
  bool HasKey(const std::string& k) {
    Walk(nullptr);
    return keys_.count(k) > 0;
  }
  bool HasEffect(const std::string& effect, const model::Action& a) {
    const std::string module = ModuleId(a);
    if (!effects_of_.count(module)) {
      effects_of_.insert(module);
      Walk(&module);
    }
    return effects_.count(effect) > 0;
  }

 private:
  // The module an effect key names (EffectKeyOf).
  static std::string ModuleId(const Action& a) {
    return a.expansion ? std::string(a.expansion->Id()) : "?";
  }
  // Walks the steps reachable by passing: the keys on the first walk (module null), the effect
  // keys of the listed actions of module `*module` when asked.
  void Walk(const std::string* module) {
    if (!module && walked_) return;
    if (!module) walked_ = true;
    p_ = pos_;
    const int player = pos_.turn.player;
    const int placed = pos_.turn.placed;
    for (int guard = 0; guard < 16 && !p_.turn.game_over; ++guard) {
      const std::vector<Action> legal = model::LegalActions(p_);
      for (const Action& a : legal) {
        if (module) {
          if (a.type == ActionType::kExpansion && ModuleId(a) == *module)
            effects_.insert(EffectKey(p_, a));
          continue;
        }
        keys_.insert(ActionKey(p_, a));
        // Before the draw, a placement without "tile" names the tile the draw will give.
        if (a.type == ActionType::kPlaceTile && !pos_.turn.drawn && p_.turn.drawn &&
            a.tile == *p_.turn.drawn)
          for (int r = 0; r < 4; ++r)
            if (SamePicture(a.tile, r, a.rotation & 3)) keys_.insert(UndrawnPlacementKey(a.pos, r));
      }
      bool can_pass = std::any_of(legal.begin(), legal.end(),
                                  [](const Action& a) { return a.type == ActionType::kPass; });
      if (!can_pass) break;
      model::Apply(p_, {.type = ActionType::kPass}, /*finish_turn=*/false);
      ApplyResult tmp;
      model::Advance(p_, tmp);
      if (p_.turn.game_over || p_.turn.player != player || p_.turn.placed != placed) break;
    }
  }
  // Whether rotations r and s of tile t show one picture (each picture written once per tile).
  bool SamePicture(model::TileType t, int r, int s) {
    if (picture_tile_ != t) {
      picture_tile_ = t;
      const auto& cat = *pos_.cfg().catalog;
      for (int q = 0; q < 4; ++q) pictures_[q] = Picture(cat.rotated(t, q));
    }
    return pictures_[r] == pictures_[s];
  }

  const Position& pos_;
  Position p_;  // a scratch copy, its buffers reused
  bool walked_ = false;
  std::set<std::string> keys_, effects_;
  std::set<std::string> effects_of_;
  model::TileType picture_tile_ = -1;
  std::string pictures_[4];
};

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

size_t CandidateCache::Count() { return Get().size(); }

Action CandidateCache::At(size_t k) { return Get()[k]; }

std::optional<Failure> CheckOutsideRefused(const Position& pos,
                                           const std::vector<RawAction>& raws) {
  CandidateCache cands(pos);
  return CheckOutsideRefused(pos, raws, cands);
}

std::optional<Failure> CheckOutsideRefused(const Position& pos, const std::vector<RawAction>& raws,
                                           CandidateCache& cands) {
  if (pos.turn.game_over) return std::nullopt;
  Acceptable ok(pos);
  const Box box = BoundingBox(pos);
  const int nk = static_cast<int>(pos.cfg().figure_kinds.size());
  const int ntypes = pos.cfg().catalog->size();
  auto mod = [](int v, int m) { return ((v % m) + m) % m; };
  // An action outside the list must be refused with a ruling ID, or be an input error. Each is
  // applied first and looked up in what may be played (Acceptable) only when it was not refused
  // so: the same verdict as looking it up first, and the lists are made only when needed.
  Position p;  // a scratch copy, its buffers reused
  ApplyResult r;
  auto refused = [&pos, &p, &r](const Action& a) {
    p = pos;
    r = model::Apply(p, a, /*finish_turn=*/false);
    const bool refused_with_ruling =
        !r.verdict.legal && !r.verdict.reasons.empty() && !r.verdict.reasons[0].ruling.empty();
    return refused_with_ruling || !r.input_error.empty();
  };
  auto fail = [&pos, &r](const Action& a, const std::string& what) {
    return Fail("outside-refused",
                what + " outside the legal list was " + Refusal(r) +
                    (r.verdict.legal ? " (accepted)" : " without a ruling"),
                pos, &a);
  };
  // The number of the expansions' candidates, counted only when a raw action asks for one;
  // the one picked is made alone (CandidateCache::At).
  auto exp_count = [&]() -> int {
    return pos.cfg().expansions.empty() ? 0 : static_cast<int>(cands.Count());
  };
  for (const RawAction& raw : raws) {
    Action a;
    // Type 4: one of the expansions' own candidate actions (brute_force.h), when there are any.
    if (mod(raw.type, 5) == 4 && exp_count() > 0) {
      const Action c = cands.At(mod(raw.x * 1000 + raw.y * 10 + raw.segment, exp_count()));
      auto parsed = ReadBack(pos, c);
      if (!parsed.ok()) continue;  // an input error: refused
      a = *parsed;
      if (refused(a) || ok.HasKey(ActionKey(pos, a))) continue;
      // p is the position right after a: EffectKeyOf(p, a) is EffectKey(pos, a) (which is
      // empty, matching no effect, for an action the reader turned into a core one).
      if (a.type == ActionType::kExpansion && ok.HasEffect(EffectKeyOf(p, a), a)) continue;
      return fail(a, "an expansion action");
    }
    switch (mod(raw.type, 4)) {
      case 0:
        a.type = ActionType::kPlaceTile;
        a.pos = {box.x0 - 2 + mod(raw.x, box.x1 - box.x0 + 5),
                 box.y0 - 2 + mod(raw.y, box.y1 - box.y0 + 5)};
        a.rotation = mod(raw.rotation, 4);
        a.tile = pos.turn.drawn ? *pos.turn.drawn : -1;
        // A tile an expansion holds in hand (Gifts' open_gift / take_2), named as carc would.
        if (!pos.turn.drawn) {
          const std::vector<model::TileType> held = CandidateTiles(pos);
          if (!held.empty()) a.tile = held[0];
        }
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
    if (refused(a) || ok.HasKey(ActionKey(pos, a))) continue;
    if (a.type == ActionType::kPlaceTile && a.tile < 0 && !pos.turn.drawn &&
        ok.HasKey(UndrawnPlacementKey(a.pos, a.rotation)))
      continue;
    return fail(a, "an action");
  }
  return std::nullopt;
}

namespace {

// Empties a JSON tree bottom up, each object's and array's members freed in place
// (nlohmann's destructor first moves every value of the tree onto a stack of its own; freeing
// the previous position's file that way was a fifth of the round trip). The tree is left an
// empty container; what it held is gone either way.
void FreeTree(json& j) {
  if (j.is_array()) {
    json::array_t& a = j.get_ref<json::array_t&>();
    for (json& x : a)
      if (x.is_structured()) FreeTree(x);
    a.clear();
  } else if (j.is_object()) {
    json::object_t& o = j.get_ref<json::object_t&>();
    for (auto& [key, x] : o)
      if (x.is_structured()) FreeTree(x);
    o.clear();
  }
}

}  // namespace

json& PositionFile::Get() {
  if (!built_) {
    FreeTree(file_);
    file_ = model::DumpPosition(*pos_);
  }
  built_ = true;
  return file_;
}

std::optional<Failure> CheckRoundTrip(const Position& pos) {
  PositionFile file(pos);
  return CheckRoundTrip(pos, file);
}

std::optional<Failure> CheckRoundTrip(const Position& pos, PositionFile& file) {
  const json& j = file.Get();
  auto p2 = ParseJson(j, "roundtrip.json");
  if (!p2.ok())
    return Fail("round-trip", "the dumped position does not parse: " + p2.status().message(), pos);
  // As `carc` reads a file: on through the steps that need no decision (a file at step
  // place_tile names the first step of that name, e.g. Christmas Present's forced placement).
  ApplyResult pre;
  model::Advance(*p2, pre);
  // The file written again equals the first.
  const json j2 = model::DumpPosition(*p2);
  if (j != j2) return Fail("round-trip", "dump -> parse -> dump differs:\n" + j2.dump(), pos);
  // The legal lists by key (ActionKeys, as multisets). ActionKey reads the position only for
  // the catalog and the drawn tile: where both read the same, equal actions have equal keys, so
  // only what CancelCommon leaves is keyed.
  std::vector<Action> l1 = model::LegalActions(pos), l2 = model::LegalActions(*p2);
  if (pos.cfg().catalog == p2->cfg().catalog && pos.turn.drawn == p2->turn.drawn)
    CancelCommon(l1, l2);
  if (ActionKeys(pos, l1) != ActionKeys(*p2, l2))
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
  PositionFile file(pos);
  return CheckFeatures(pos, rebuild_root, file);
}

std::optional<Failure> CheckFeatures(const Position& pos, int rebuild_root, PositionFile& file) {
  const int n = pos.board.size();
  const int root = n == 0 ? 0 : ((rebuild_root % n) + n) % n;
  // The four comparisons on one flood fill (each computed its own); the file is
  // written only when the board has a tile (the rebuilt order).
  const auto d = CompareAllFeatures(pos, root, n == 0 ? nullptr : &file.Get());
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

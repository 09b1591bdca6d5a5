#include "property-tests/brute_force.h"

#include <algorithm>
#include <functional>
#include <map>

#include "model/core/board.h"
#include "model/core/expansion.h"
#include "model/core/module_loader.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::prop {

using model::Action;
using model::Board;
using model::Position;
using nlohmann::json;

std::vector<model::TileType> CandidateTiles(const Position& pos) {
  std::vector<model::TileType> out, held;
  if (pos.turn.drawn) out.push_back(*pos.turn.drawn);
  for (const model::Expansion* e : pos.cfg().Using(model::Hook::kHeldTiles))
    e->HeldTiles(pos, held);
  for (model::TileType t : held)
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  return out;
}

// Every action each enabled module declared (GameConfig::actions), over its arguments' typed
// domains (model::EnumerateDeclared).
void ExpansionCandidateActions(const Position& pos, std::vector<Action>& out) {
  out.clear();
  for (const auto& [module, decl] : pos.cfg().actions)
    model::EnumerateDeclared(pos, module, decl, [&](const Action& a) { out.push_back(a); });
}

std::vector<Action> ExpansionCandidateActions(const Position& pos) {
  std::vector<Action> out;
  ExpansionCandidateActions(pos, out);
  return out;
}

// The same, written out by the module's own dump.
std::vector<json> ExpansionCandidates(const Position& pos) {
  std::vector<json> out;
  for (const Action& a : ExpansionCandidateActions(pos)) out.push_back(model::DumpAction(pos, a));
  return out;
}

model::StatusOr<Action> ReadBack(const Position& pos, const Action& a) {
  static const model::IoContext ctx = exp::Context("candidate.json");
  return model::ParseAction(model::DumpAction(pos, a), pos, "/candidate", ctx);
}

namespace {

// The least segment (node) of each feature of pos, by root; filled on first use.
class LeastNodes {
 public:
  explicit LeastNodes(const Position& pos) : pos_(pos) {}
  int Of(int node) {
    if (least_.empty()) {
      for (int t = 0; t < pos_.board.size(); ++t)
        for (int s = 0; s < static_cast<int>(pos_.board.rotated(t).segments.size()); ++s) {
          const int n = Board::Node(t, s);
          auto [it, fresh] = least_.emplace(pos_.board.Find(n), n);
          if (!fresh && n < it->second) it->second = n;
        }
    }
    const auto it = least_.find(pos_.board.Find(node));
    return it == least_.end() ? node : std::min(node, it->second);
  }

 private:
  const Position& pos_;
  std::map<int, int> least_;
};

// Every {"x", "y", "feature"} below j names its feature's least segment.
void CanonicalRefs(const Position& pos, LeastNodes& least, json& j) {
  if (j.is_array())
    for (json& e : j) CanonicalRefs(pos, least, e);
  if (!j.is_object()) return;
  if (j.contains("x") && j.contains("y") && j.contains("feature")) {
    json ref = {{"x", j["x"]}, {"y", j["y"]}, {"feature", j["feature"]}};
    auto node = model::ParseFeatureRef(ref, pos, "", model::IoContext{.source = ""});
    if (node.ok()) j.update(model::FeatureRefJson(pos, least.Of(*node)));
  }
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it->is_structured()) CanonicalRefs(pos, least, *it);
}

// FNV-1a, 64 bits, over the fields a position file states.
struct Hasher {
  uint64_t h = 1469598103934665603ull;
  void Byte(unsigned char b) {
    h ^= b;
    h *= 1099511628211ull;
  }
  void Int(int64_t v) {
    for (int i = 0; i < 8; ++i) Byte(static_cast<unsigned char>(v >> (8 * i)));
  }
  void Str(std::string_view s) {
    Int(static_cast<int64_t>(s.size()));
    for (char c : s) Byte(static_cast<unsigned char>(c));
  }
};

}  // namespace

// What DumpPosition writes, field by field (the rules are the same for every position compared;
// a player's name never changes): scores and supplies, the board in order, the figures in order
// (tile, segment, owner, kind, posture), the tile supply, the turn as stated, and each module's
// section (its dump and variants, feature references made canonical) as written.
uint64_t StatedHash(const Position& after, bool canonical_refs) {
  const model::GameConfig& cfg = after.cfg();
  Hasher h;
  h.Int(after.board_partial);
  for (const model::Player& p : after.players) {
    h.Int(p.score);
    for (int n : p.supply) h.Int(n);
  }
  h.Int(after.board.size());
  for (int i = 0; i < after.board.size(); ++i) {
    const model::PlacedTile& t = after.board.tile(i);
    h.Int(t.type);
    h.Int(t.pos.x);
    h.Int(t.pos.y);
    h.Int(t.rotation);
  }
  h.Int(static_cast<int64_t>(after.figures.size()));
  for (const model::Figure& f : after.figures) {
    const model::Coord c = after.board.tile(Board::TileOf(f.node)).pos;
    h.Int(c.x);
    h.Int(c.y);
    h.Int(Board::SegmentOf(f.node));
    h.Int(f.owner);
    h.Int(f.kind);
    h.Int(f.lying);
  }
  h.Int(after.supply.ordered);
  if (after.supply.ordered) {
    h.Int(static_cast<int64_t>(after.supply.order.size()));
    for (model::TileType t : after.supply.order) h.Int(t);
  } else {
    for (int n : after.supply.counts) h.Int(n);
  }
  h.Int(after.turn.player);
  h.Int(after.turn.game_over);
  if (!after.turn.game_over) {
    h.Str(after.current_step().StatedAs());
    h.Int(after.turn.drawn ? *after.turn.drawn : -1);
    const bool placed =
        after.turn.placed >= 0 && after.turn.step > cfg.StepIndex(model::kPlaceTile);
    h.Int(placed ? after.board.tile(after.turn.placed).pos.x : 1 << 30);
    h.Int(placed ? after.board.tile(after.turn.placed).pos.y : 1 << 30);
  }
  LeastNodes least(after);
  for (const model::ModuleDecl& m : cfg.modules) {
    json s = json::object();
    if (m.state.dump) m.state.dump(after, s);
    if (!m.legacy_variants) model::DumpVariants(m, after, s);
    if (canonical_refs) CanonicalRefs(after, least, s);
    h.Str(m.module->Id());
    h.Str(s.dump());
  }
  return h.h;
}

std::string EffectKeyOf(const Position& after, const Action& a) {
  return std::string(a.expansion ? a.expansion->Id() : "?") + " effect " +
         std::to_string(StatedHash(after, /*canonical_refs=*/true));
}

std::string EffectKey(const Position& pos, const Action& a) {
  if (a.type != model::ActionType::kExpansion) return "";
  // A scratch position per thread, its buffers reused from call to call (issue 21: the soak's
  // transform and outside-the-list checks ask this for every expansion action listed).
  thread_local Position p;
  p = pos;
  model::Apply(p, a, /*finish_turn=*/false);
  return EffectKeyOf(p, a);
}

}  // namespace carc::prop

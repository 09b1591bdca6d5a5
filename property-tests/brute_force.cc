#include "property-tests/brute_force.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <tuple>

#include "model/core/board.h"
#include "model/core/expansion.h"
#include "model/core/json_reader.h"
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
  for (const auto& h : pos.cfg().hooks.held_tiles) h.fn(pos, held);
  for (model::TileType t : held)
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  return out;
}

Box BoundingBox(const Position& pos) {
  Box b{0, 0, 0, 0};
  for (int i = 0; i < pos.board.size(); ++i) {
    const model::Coord c = pos.board.tile(i).pos;
    if (i == 0) b = {c.x, c.y, c.x, c.y};
    b = {std::min(b.x0, c.x), std::min(b.y0, c.y), std::max(b.x1, c.x), std::max(b.y1, c.y)};
  }
  return b;
}

// Every action each enabled module declared (GameConfig::actions), over its arguments' typed
// domains (ForEachExpansionCandidate).
void ExpansionCandidateActions(const Position& pos, std::vector<Action>& out) {
  out.clear();
  ForEachExpansionCandidate(pos, [&](const Action& a) { out.push_back(a); });
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
    if (!filled_) {
      filled_ = true;
      least_.assign(static_cast<size_t>(pos_.board.size()) * model::kMaxSegments, -1);
      for (int t = 0; t < pos_.board.size(); ++t)
        for (int s = 0; s < static_cast<int>(pos_.board.rotated(t).segments.size()); ++s) {
          const int n = Board::Node(t, s);
          int& least = least_[static_cast<size_t>(pos_.board.Find(n))];
          if (least < 0 || n < least) least = n;
        }
    }
    const int root = pos_.board.Find(node);
    const int least = root >= 0 && static_cast<size_t>(root) < least_.size()
                          ? least_[static_cast<size_t>(root)]
                          : -1;
    return least < 0 ? node : std::min(node, least);
  }

 private:
  const Position& pos_;
  bool filled_ = false;
  std::vector<int> least_;  // by root node: the feature's least node (-1: none)
};

// The canonical form of each feature reference {"x", "y", "feature"} read so far (nullopt: it
// does not parse), valid for one board: a reference's feature and its least segment depend on
// the placed tiles alone (Board::Place is the board's only change). One per thread, kept while
// the board is the same tile for tile (the brute force hashes the positions right after
// hundreds of actions that place no tile).
class CanonicalRefCache {
 public:
  // The cache for `pos`'s board, emptied when the board differs from the last one asked for.
  static CanonicalRefCache& For(const Position& pos) {
    thread_local CanonicalRefCache cache;
    if (!cache.SameBoard(pos.board)) {
      cache.catalog_ = &pos.board.catalog();
      cache.tiles_.clear();
      for (int i = 0; i < pos.board.size(); ++i) cache.tiles_.push_back(pos.board.tile(i));
      cache.refs_.clear();
    }
    return cache;
  }
  using Key = std::tuple<int64_t, int64_t, std::string>;
  std::map<Key, std::optional<json>>& refs() { return refs_; }

 private:
  bool SameBoard(const Board& b) const {
    if (catalog_ != &b.catalog() || static_cast<int>(tiles_.size()) != b.size()) return false;
    for (int i = 0; i < b.size(); ++i) {
      const model::PlacedTile& t = b.tile(i);
      const model::PlacedTile& u = tiles_[static_cast<size_t>(i)];
      if (t.type != u.type || t.rotation != u.rotation || t.pos != u.pos) return false;
    }
    return true;
  }
  const model::TileCatalog* catalog_ = nullptr;
  std::vector<model::PlacedTile> tiles_;
  std::map<Key, std::optional<json>> refs_;
};

// Every {"x", "y", "feature"} below j names its feature's least segment.
void CanonicalRefs(const Position& pos, LeastNodes& least, json& j,
                   CanonicalRefCache* cache = nullptr) {
  if (j.is_array())
    for (json& e : j) CanonicalRefs(pos, least, e, cache);
  if (!j.is_object()) return;
  if (j.contains("x") && j.contains("y") && j.contains("feature")) {
    const json &x = j["x"], &y = j["y"], &f = j["feature"];
    auto canonical = [&]() -> std::optional<json> {
      json ref = {{"x", x}, {"y", y}, {"feature", f}};
      auto node = model::ReadFeatureRef(ref, pos, "");
      if (!node.ok()) return std::nullopt;
      return model::FeatureRefJson(pos, least.Of(*node));
    };
    // The cache keys a reference by its integers and name; any other reference is read anew.
    auto plain = [](const json& v) {  // an integer one int64_t names
      return v.is_number_integer() &&
             (!v.is_number_unsigned() || v.get<uint64_t>() <= static_cast<uint64_t>(INT64_MAX));
    };
    if (cache && plain(x) && plain(y) && f.is_string()) {
      CanonicalRefCache::Key key{x.get<int64_t>(), y.get<int64_t>(), f.get<std::string>()};
      auto it = cache->refs().find(key);
      if (it == cache->refs().end()) it = cache->refs().emplace(std::move(key), canonical()).first;
      if (it->second) j.update(*it->second);
    } else if (auto c = canonical()) {
      j.update(*c);
    }
  }
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it->is_structured()) CanonicalRefs(pos, least, *it, cache);
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
  // A JSON value as its dump spells it, without writing the dump: a tag per type, strings with
  // their length, arrays and objects (keys in order, as dump writes them) with their size. Two
  // values hash alike exactly when they dump alike (up to 64-bit collisions): an integer is one
  // value whether stored signed or unsigned, as in the dump.
  void Json(const json& j) {
    switch (j.type()) {
      case json::value_t::null:
        Byte('n');
        break;
      case json::value_t::boolean:
        Byte(j.get<bool>() ? 't' : 'f');
        break;
      case json::value_t::number_integer:
        Byte('i');
        Int(j.get<int64_t>());
        break;
      case json::value_t::number_unsigned: {
        const uint64_t u = j.get<uint64_t>();
        Byte(u <= static_cast<uint64_t>(INT64_MAX) ? 'i' : 'u');
        Int(static_cast<int64_t>(u));
        break;
      }
      case json::value_t::string:
        Byte('s');
        Str(j.get_ref<const std::string&>());
        break;
      case json::value_t::array:
        Byte('[');
        Int(static_cast<int64_t>(j.size()));
        for (const json& e : j) Json(e);
        break;
      case json::value_t::object:
        Byte('{');
        Int(static_cast<int64_t>(j.size()));
        for (auto it = j.begin(); it != j.end(); ++it) {
          Str(it.key());
          Json(it.value());
        }
        break;
      default:  // a float, binary: as dumped
        Byte('d');
        Str(j.dump());
    }
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
    const bool placed = after.turn.placed >= 0 && after.turn.step > cfg.core_step.place_tile;
    h.Int(placed ? after.board.tile(after.turn.placed).pos.x : 1 << 30);
    h.Int(placed ? after.board.tile(after.turn.placed).pos.y : 1 << 30);
  }
  LeastNodes least(after);
  CanonicalRefCache* cache = canonical_refs ? &CanonicalRefCache::For(after) : nullptr;
  for (const model::ModuleDecl& m : cfg.modules) {
    json s = json::object();
    if (m.state.dump) m.state.dump(after, s);
    model::DumpVariants(m, after, s);
    if (canonical_refs) CanonicalRefs(after, least, s, cache);
    h.Str(m.module->Id());
    h.Json(s);
  }
  return h.h;
}

std::string EffectKeyOf(const Position& after, const Action& a) {
  return std::string(a.expansion ? a.expansion->Id() : "?") + " effect " +
         std::to_string(StatedHash(after, /*canonical_refs=*/true));
}

std::string EffectKey(const Position& pos, const Action& a) {
  if (a.type != model::ActionType::kExpansion) return "";
  // A scratch position per thread, its buffers reused from call to call (the soak's
  // transform and outside-the-list checks ask this for every expansion action listed).
  thread_local Position p;
  p = pos;
  model::Apply(p, a, /*finish_turn=*/false);
  return EffectKeyOf(p, a);
}

}  // namespace carc::prop

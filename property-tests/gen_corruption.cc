#include "property-tests/gen_corruption.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "property-tests/gen_corruption_exp.h"
#include "property-tests/gen_game.h"
#include "property-tests/module_props.h"

namespace carc::prop {

using model::Board;
using model::Coord;
using model::EdgeType;
using model::FeatureKind;
using model::Position;
using nlohmann::json;

namespace {

template <typename T>
const T& Pick(const std::vector<T>& v, std::mt19937_64& rng) {
  return v[std::uniform_int_distribution<size_t>(0, v.size() - 1)(rng)];
}
int Uniform(int lo, int hi, std::mt19937_64& rng) {
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

const model::TileCatalog& Cat() { return model::TileCatalog::Base(); }

bool HasFigureOn(const json& j, Coord c) {
  for (const json& f : j["figures"])
    if (f["x"] == c.x && f["y"] == c.y) return true;
  return false;
}

// Removes one copy of tile `name` from the draw order (the tile goes onto the board instead).
void TakeFromDrawOrder(json& j, const std::string& name) {
  json& order = j["supply"]["draw_order"];
  for (size_t i = order.size(); i-- > 0;)
    if (order[i] == name) {
      order.erase(i);
      return;
    }
}

std::vector<std::string> DrawOrderTypes(const json& j) {
  std::vector<std::string> out;
  if (!j["supply"].contains("draw_order")) return out;
  for (const json& t : j["supply"]["draw_order"]) out.push_back(t.get<std::string>());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// BASE-PLACE-EDGE: a tile from the supply added next to the board where every edge it shares
// mismatches, each a field against a road or city (so no road or city joins another feature and
// nothing gets completed), and away from monasteries (none gets its eighth neighbour).
std::optional<Corruption> MismatchedEdge(const Position& pos, const json& j, std::mt19937_64& rng) {
  struct Cand {
    std::string tile;
    Coord c;
    int r;
  };
  std::vector<Cand> cands;
  const Board& b = pos.board;
  for (const std::string& name : DrawOrderTypes(j)) {
    model::TileType t = *Cat().Find(name);
    for (Coord c : b.Frontier()) {
      bool near_monastery = false;
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy)
          if (auto n = b.At({c.x + dx, c.y + dy}))
            for (const auto& s : b.rotated(*n).segments)
              near_monastery |= s.kind == FeatureKind::kMonastery;
      if (near_monastery) continue;
      for (int r = 0; r < 4; ++r) {
        const model::RotatedTile& rt = Cat().rotated(t, r);
        bool all_field_mismatch = true;
        for (int side = 0; side < 4; ++side) {
          auto n = b.At(model::Neighbour(c, side));
          if (!n) continue;
          EdgeType mine = rt.edges[side], theirs = b.rotated(*n).edges[(side + 2) % 4];
          bool field_vs_other = (mine == EdgeType::kField) != (theirs == EdgeType::kField);
          all_field_mismatch &= field_vs_other;
        }
        if (all_field_mismatch) cands.push_back({name, c, r});
      }
    }
  }
  if (cands.empty()) return std::nullopt;
  const Cand& k = Pick(cands, rng);
  Corruption out{"mismatched-edge",
                 "tile " + k.tile + " added at (" + std::to_string(k.c.x) + ", " +
                     std::to_string(k.c.y) + ") rotated " + std::to_string(90 * k.r) +
                     " against every neighbour",
                 j,
                 {"BASE-PLACE-EDGE"}};
  TakeFromDrawOrder(out.position, k.tile);
  out.position["board"].push_back(
      {{"tile", k.tile}, {"x", k.c.x}, {"y", k.c.y}, {"rotation", 90 * k.r}});
  return out;
}

// BASE-PLACE-ADJ: a tile with no figure moved off the board to a square touching nothing
// (the rest stays connected), or a tile from the supply put there.
// Whether any {"x", "y"} object inside j names square c.
bool NamesSquare(const json& j, Coord c) {
  if (j.is_object() && j.contains("x") && j.contains("y") && j["x"] == c.x && j["y"] == c.y)
    return true;
  if (j.is_structured())
    for (const json& v : j)
      if (NamesSquare(v, c)) return true;
  return false;
}

std::optional<Corruption> DetachedTile(const Position& pos, const json& j, std::mt19937_64& rng) {
  const Board& b = pos.board;
  int max_x = 0;
  for (int i = 0; i < b.size(); ++i) max_x = std::max(max_x, b.tile(i).pos.x);
  Coord far{max_x + 2 + Uniform(0, 3, rng), Uniform(-5, 5, rng)};
  std::vector<int> movable;
  for (int i = 1; i < b.size(); ++i) {
    if (i == pos.turn.placed || HasFigureOn(j, b.tile(i).pos)) continue;
    // A square an expansion's section names (a laid-down feature, a forced square) stays put.
    if (j.contains("expansions") && NamesSquare(j["expansions"], b.tile(i).pos)) continue;
    // The rest must stay connected to the start tile without tile i.
    std::set<Coord> seen = {b.tile(0).pos};
    std::deque<Coord> q = {b.tile(0).pos};
    while (!q.empty()) {
      Coord c = q.front();
      q.pop_front();
      for (int s = 0; s < 4; ++s) {
        Coord n = model::Neighbour(c, s);
        auto t = b.At(n);
        if (t && *t != i && seen.insert(n).second) q.push_back(n);
      }
    }
    if (static_cast<int>(seen.size()) == b.size() - 1) movable.push_back(i);
  }
  std::vector<std::string> supply = DrawOrderTypes(j);
  if (movable.empty() && supply.empty()) return std::nullopt;
  Corruption out{"detached-tile", "", j, {"BASE-PLACE-ADJ"}};
  if (!movable.empty() && (supply.empty() || Uniform(0, 1, rng))) {
    int i = Pick(movable, rng);
    out.what = "tile " + std::to_string(i) + " moved to (" + std::to_string(far.x) + ", " +
               std::to_string(far.y) + ")";
    out.position["board"][i]["x"] = far.x;
    out.position["board"][i]["y"] = far.y;
  } else {
    std::string t = Pick(supply, rng);
    out.what = "tile " + t + " from the supply put at (" + std::to_string(far.x) + ", " +
               std::to_string(far.y) + ")";
    TakeFromDrawOrder(out.position, t);
    out.position["board"].push_back(
        {{"tile", t}, {"x", far.x}, {"y", far.y}, {"rotation", 90 * Uniform(0, 3, rng)}});
  }
  return out;
}

// Two tiles on one square: malformed (exit 65), the message names /board/i.
std::optional<Corruption> Overlap(const Position& pos, const json& j, std::mt19937_64& rng) {
  const Board& b = pos.board;
  int i = Uniform(0, b.size() - 1, rng);
  Corruption out{"overlap", "", j, {}, 65, "/board/"};
  json t = j["board"][i];
  t["tile"] = Cat().Name(Uniform(0, Cat().size() - 1, rng));
  // Inserted before or after the tile it covers: either way the later one is reported.
  size_t at = static_cast<size_t>(Uniform(0, static_cast<int>(j["board"].size()), rng));
  out.position["board"].insert(out.position["board"].begin() + static_cast<long>(at), t);
  out.what = "a second tile " + t["tile"].get<std::string>() + " on (" + t["x"].dump() + ", " +
             t["y"].dump() + ") at /board/" + std::to_string(at);
  return out;
}

// A figure on a feature its tile does not have: malformed (exit 65) at /figures/i/feature.
// Either a new figure, or an existing one re-aimed.
std::optional<Corruption> FigureOnMissingFeature(const Position& pos, const json& j,
                                                 std::mt19937_64& rng) {
  const Board& b = pos.board;
  const size_t n = j["figures"].size();
  const bool reaim = n > 0 && Uniform(0, 1, rng);
  const size_t k = reaim ? static_cast<size_t>(Uniform(0, static_cast<int>(n) - 1, rng)) : n;
  json f = reaim ? j["figures"][k]
                 : json{{"owner", Uniform(0, static_cast<int>(pos.players.size()) - 1, rng)},
                        {"kind", "meeple"}};
  int tile = reaim ? *b.At({f["x"].get<int>(), f["y"].get<int>()}) : Uniform(0, b.size() - 1, rng);
  const model::RotatedTile& rt = b.rotated(tile);
  std::vector<std::string> missing;
  bool monastery = false;
  for (const auto& s : rt.segments) monastery |= s.kind == FeatureKind::kMonastery;
  if (!monastery) missing.push_back("monastery");
  const char* sides = "NESW";
  for (int side = 0; side < 4; ++side) {
    if (rt.edges[side] != EdgeType::kCity) missing.push_back(std::string("city:") + sides[side]);
    if (rt.edges[side] != EdgeType::kRoad) missing.push_back(std::string("road:") + sides[side]);
  }
  std::string feature = Pick(missing, rng);
  Coord at = b.tile(tile).pos;
  f["x"] = at.x;
  f["y"] = at.y;
  f["feature"] = feature;
  f.erase("posture");
  Corruption out{
      "figure-on-missing-feature",
      (reaim ? "figure " + std::to_string(k) + " re-aimed at " : std::string("a meeple on ")) +
          feature + " of the tile at (" + std::to_string(at.x) + ", " + std::to_string(at.y) + ")",
      j,
      {},
      65,
      "/figures/" + std::to_string(k) + "/feature"};
  if (reaim)
    out.position["figures"][k] = f;
  else
    out.position["figures"].push_back(f);
  return out;
}

// BASE-SETUP: more copies of a tile (board, hand and draw order) than the set has.
// An ended game holds no tile to draw (a supply there is refused as it is read, BASE-END).
std::optional<Corruption> TooManyCopies(const Position& pos, const json& j, std::mt19937_64& rng) {
  if (pos.turn.game_over) return std::nullopt;
  model::TileType t = Uniform(0, Cat().size() - 1, rng);
  int used = 0;
  for (int i = 0; i < pos.board.size(); ++i) used += pos.board.tile(i).type == t;
  if (pos.turn.drawn == t) ++used;
  for (model::TileType d : pos.supply.order) used += d == t;
  int extra = Cat().def(t).count - used + 1 + Uniform(0, 1, rng);
  Corruption out{"too-many-copies",
                 std::to_string(extra) + " more tile(s) " + Cat().Name(t) + " in the draw order",
                 j,
                 {"BASE-SETUP"}};
  json& order = out.position["supply"]["draw_order"];
  for (int k = 0; k < extra; ++k)
    order.insert(order.begin() + Uniform(0, static_cast<int>(order.size()), rng), Cat().Name(t));
  return out;
}

}  // namespace

bool ExcusedByModule(const Position& pos, int figure, model::Excuse excuse) {
  for (const auto& h : pos.cfg().hooks.excuse)
    if (h.fn(pos, figure, excuse)) return true;
  return false;
}

std::optional<Corruption> ExtraFigures(const Position& pos, const json& j, std::mt19937_64& rng,
                                       const std::string& kind, const std::string& ruling,
                                       int max) {
  int p = Uniform(0, static_cast<int>(pos.players.size()) - 1, rng);
  int k = pos.cfg().FigureKind(kind);
  if (k < 0) return std::nullopt;
  int have = pos.players[p].supply[k];
  int on_board = pos.FiguresOnBoard(p, k);
  int want = pos.cfg().figure_kinds[k].per_player - on_board + Uniform(1, max, rng);
  Corruption out{"",
                 "player " + std::to_string(p) + " holds " + std::to_string(want) + " " + kind +
                     " (had " + std::to_string(have) + ", " + std::to_string(on_board) +
                     " on the board)",
                 j,
                 {ruling}};
  out.position["players"][p]["supply"][kind] = want;
  return out;
}

namespace {

// BASE-RETURN: a meeple left on a city completed in an earlier turn (the city does not contain
// the tile placed this turn, so no scoring is pending for it).
std::optional<Corruption> FigureOnCompletedCity(const Position& pos, const json& j,
                                                std::mt19937_64& rng) {
  const Board& b = pos.board;
  struct Cand {
    int tile;
    int seg;
  };
  // A module may keep figures on a completed feature (the excuse hook, Excuse::kStaysOnCompleted,
  // e.g. on a feature laid down): a city where a new meeple would be excused is no candidate.
  Position probe = pos;
  probe.figures.push_back({.owner = 0, .kind = model::kMeeple});
  const int probe_figure = static_cast<int>(probe.figures.size()) - 1;
  std::vector<Cand> cands;
  for (int t = 0; t < b.size(); ++t) {
    if (HasFigureOn(j, b.tile(t).pos)) continue;  // keep one figure of a kind per tile
    const auto& segs = b.rotated(t).segments;
    for (size_t s = 0; s < segs.size(); ++s) {
      if (segs[s].kind != FeatureKind::kCity) continue;
      int root = b.Find(Board::Node(t, static_cast<int>(s)));
      if (!b.IsComplete(root)) continue;
      probe.figures[probe_figure].node = Board::Node(t, static_cast<int>(s));
      if (ExcusedByModule(probe, probe_figure, model::Excuse::kStaysOnCompleted)) continue;
      const auto& tiles = b.Info(root).tiles;
      if (pos.turn.placed >= 0 &&
          std::find(tiles.begin(), tiles.end(), pos.turn.placed) != tiles.end())
        continue;
      cands.push_back({t, static_cast<int>(s)});
    }
  }
  std::vector<int> players;
  for (size_t p = 0; p < pos.players.size(); ++p)
    if (pos.players[p].supply[model::kMeeple] > 0) players.push_back(static_cast<int>(p));
  if (cands.empty() || players.empty()) return std::nullopt;
  Cand c = Pick(cands, rng);
  int p = Pick(players, rng);
  Coord at = b.tile(c.tile).pos;
  std::string feature = model::FeatureName(b.rotated(c.tile), c.seg);
  Corruption out{"figure-on-completed-city",
                 "a meeple of player " + std::to_string(p) + " on " + feature +
                     " of the tile at (" + std::to_string(at.x) + ", " + std::to_string(at.y) +
                     "), a completed city",
                 j,
                 {"BASE-RETURN"}};
  out.position["figures"].push_back(
      {{"owner", p}, {"kind", "meeple"}, {"x", at.x}, {"y", at.y}, {"feature", feature}});
  out.position["players"][p]["supply"]["meeple"] = pos.players[p].supply[model::kMeeple] - 1;
  return out;
}

// BASE-TRACK: a negative score.
std::optional<Corruption> NegativeScore(const Position& pos, const json& j, std::mt19937_64& rng) {
  int p = Uniform(0, static_cast<int>(pos.players.size()) - 1, rng);
  int s = -Uniform(1, 60, rng);
  Corruption out{"negative-score",
                 "player " + std::to_string(p) + " scores " + std::to_string(s),
                 j,
                 {"BASE-TRACK"}};
  out.position["players"][p]["score"] = s;
  return out;
}

}  // namespace

// The core's kinds, then each module's (module_props.cc), in registry order.
const std::vector<CorruptionKind>& CorruptionKinds() {
  static const std::vector<CorruptionKind> all = [] {
    std::vector<CorruptionKind> kinds = {
        {"mismatched-edge", {}, MismatchedEdge},
        {"detached-tile", {}, DetachedTile},
        {"overlap", {}, Overlap},
        {"figure-on-missing-feature", {}, FigureOnMissingFeature},
        {"too-many-copies", {}, TooManyCopies},
        {"too-many-meeples",
         {},
         [](const Position& p, const json& j, std::mt19937_64& rng) {
           auto c = ExtraFigures(p, j, rng, "meeple", "BASE-MEEPLE-SUPPLY", 3);
           if (c) c->kind = "too-many-meeples";
           return c;
         }},
        {"figure-on-completed-city", {}, FigureOnCompletedCity},
        {"negative-score", {}, NegativeScore},
    };
    // A core kind's rulings, with those an enabled module adds to them (ModuleProps::adds_rulings).
    for (CorruptionKind& k : kinds) {
      k.make = [make = std::move(k.make), name = k.name](const Position& pos, const json& j,
                                                         std::mt19937_64& rng) {
        std::optional<Corruption> c = make(pos, j, rng);
        if (c)
          for (const model::Expansion* e : pos.cfg().expansions)
            if (const ModuleProps* m = PropsOf(e))
              for (const auto& [kind, ruling] : m->adds_rulings)
                if (kind == name) c->rulings.emplace(ruling);
        return c;
      };
    }
    for (const ModuleProps& m : ModuleTable())
      for (CorruptionKind k : m.corruptions) {
        k.needs = {std::string(m.module->Id())};
        kinds.push_back(std::move(k));
      }
    return kinds;
  }();
  return all;
}

const CorruptionKind* FindCorruption(const std::string& name) {
  for (const auto& k : CorruptionKinds())
    if (k.name == name) return &k;
  return nullptr;
}

bool Applies(const CorruptionKind& k, const Position& pos) {
  for (const std::string& id : k.needs)
    if (!pos.cfg().FindExpansion(id)) return false;
  return true;
}

std::optional<std::string> CheckCorruption(const Corruption& c) {
  auto parsed = ParseJson(c.position, "corrupt.json");
  if (c.exit_code == 65) {
    if (parsed.ok()) return std::string("expected malformed (65), but the file parses");
    if (parsed.status().code() != model::ErrorCode::kMalformed ||
        parsed.status().message().find(c.message_contains) == std::string::npos)
      return "expected exit 65 naming " + c.message_contains + ", got " +
             std::to_string(static_cast<int>(parsed.status().code())) + ": " +
             parsed.status().message();
    return std::nullopt;
  }
  if (!parsed.ok()) return "expected a position that parses, got: " + parsed.status().message();
  std::set<std::string> got;
  std::string texts;
  for (const auto& v : model::Validate(*parsed)) {
    got.insert(v.ruling);
    texts += "\n  " + v.ruling + " " + v.where + ": " + v.text;
  }
  if (got == c.rulings) return std::nullopt;
  std::string want;
  for (const auto& r : c.rulings) want += r + " ";
  return "expected exactly {" + want +
         "}, validate reports:" + (texts.empty() ? " nothing" : texts);
}

}  // namespace carc::prop

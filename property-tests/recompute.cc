#include "property-tests/recompute.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <tuple>

#include "model/core/module_loader.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/core/step.h"
#include "property-tests/gen_game.h"

namespace carc::prop {

using model::Board;
using model::Coord;
using model::FeatureKind;
using model::Position;
using nlohmann::json;

namespace {

// A segment of the board by what it is, not by the model's node numbering.
using SegId = std::tuple<int, int, int>;  // x, y, segment

SegId Seg(const Board& b, int node) {
  Coord c = b.tile(Board::TileOf(node)).pos;
  return {c.x, c.y, Board::SegmentOf(node)};
}

std::string Name(const SegId& s) {
  return "(" + std::to_string(std::get<0>(s)) + "," + std::to_string(std::get<1>(s)) + ")#" +
         std::to_string(std::get<2>(s));
}

struct Feature {
  std::set<SegId> segs;
  FeatureKind kind = FeatureKind::kField;
  bool complete = false;
  int tiles = 0;
  int shields = 0;
  std::set<SegId> cities;  // field: smallest segment of each touched city
  bool operator==(const Feature& o) const {
    return segs == o.segs && kind == o.kind && complete == o.complete && tiles == o.tiles &&
           shields == o.shields && cities == o.cities;
  }
};

std::string Show(const Feature& f) {
  std::string s = std::string(model::FeatureKindName(f.kind)) + " {";
  for (const auto& x : f.segs) s += Name(x) + " ";
  s += "} complete=" + std::to_string(f.complete) + " tiles=" + std::to_string(f.tiles) +
       " shields=" + std::to_string(f.shields) + " cities={";
  for (const auto& x : f.cities) s += Name(x) + " ";
  return s + "}";
}

// The model's view: features keyed by their smallest segment.
std::map<SegId, Feature> ModelFeatures(const Board& b) {
  std::map<int, Feature> by_root;
  for (int t = 0; t < b.size(); ++t)
    for (size_t s = 0; s < b.rotated(t).segments.size(); ++s) {
      int node = Board::Node(t, static_cast<int>(s));
      by_root[b.Find(node)].segs.insert(Seg(b, node));
    }
  std::map<int, SegId> first;
  for (auto& [root, f] : by_root) first[root] = *f.segs.begin();
  std::map<SegId, Feature> out;
  for (auto& [root, f] : by_root) {
    const model::FeatureInfo& fi = b.Info(root);
    f.kind = fi.kind;
    f.complete = b.IsComplete(root);
    f.tiles = b.DistinctTiles(root);
    f.shields = fi.kind == FeatureKind::kCity ? fi.shields : 0;
    if (fi.kind == FeatureKind::kField)
      for (int c : b.TouchedCityRoots(root)) f.cities.insert(first[b.Find(c)]);
    out[first[root]] = f;
  }
  return out;
}

// The flood fill: neighbours through matching sides (roads, cities) and half-edges (fields),
// read from the tile table only.
std::map<SegId, Feature> FloodFeatures(const Board& b) {
  const model::TileCatalog& cat = b.catalog();
  std::map<Coord, int> at;
  for (int t = 0; t < b.size(); ++t) at[b.tile(t).pos] = t;
  auto rt = [&](int t) -> const model::RotatedTile& {
    return cat.rotated(b.tile(t).type, b.tile(t).rotation);
  };
  static constexpr int kDx[4] = {0, 1, 0, -1}, kDy[4] = {-1, 0, 1, 0};
  std::map<SegId, SegId> owner;  // segment -> smallest segment of its feature
  std::map<SegId, Feature> out;
  for (int t0 = 0; t0 < b.size(); ++t0)
    for (size_t s0 = 0; s0 < rt(t0).segments.size(); ++s0) {
      Coord c0 = b.tile(t0).pos;
      SegId start{c0.x, c0.y, static_cast<int>(s0)};
      if (owner.count(start)) continue;
      Feature f;
      f.kind = rt(t0).segments[s0].kind;
      int open = 0;
      std::set<int> tiles;
      std::deque<std::pair<int, int>> q = {{t0, static_cast<int>(s0)}};
      std::set<std::pair<int, int>> seen = {{t0, static_cast<int>(s0)}};
      std::vector<std::pair<int, int>> members;
      while (!q.empty()) {
        auto [t, s] = q.front();
        q.pop_front();
        members.push_back({t, s});
        tiles.insert(t);
        const model::Segment& seg = rt(t).segments[s];
        if (seg.shield) f.shields++;
        Coord c = b.tile(t).pos;
        for (int side = 0; side < 4; ++side) {
          auto n = at.find({c.x + kDx[side], c.y + kDy[side]});
          if (seg.sides & model::kSideBit[side]) {
            if (n == at.end()) {
              ++open;
              continue;
            }
            int other = rt(n->second).side_segment[(side + 2) % 4];
            if (other < 0 || rt(n->second).segments[other].kind != seg.kind) {
              ++open;  // a mismatched edge leaves the side open
              continue;
            }
            if (seen.insert({n->second, other}).second) q.push_back({n->second, other});
          }
          for (int h = 2 * side; h < 2 * side + 2; ++h) {
            if (!(seg.halves & (1 << h)) || n == at.end()) continue;
            // Half h of this tile touches half (h even: h+5, odd: h+3) mod 8 of the neighbour.
            int oh = (h % 2 == 0) ? (h + 5) % 8 : (h + 3) % 8;
            int other = rt(n->second).half_segment[oh];
            if (other >= 0 && seen.insert({n->second, other}).second)
              q.push_back({n->second, other});
          }
        }
      }
      for (auto [t, s] : members) f.segs.insert({b.tile(t).pos.x, b.tile(t).pos.y, s});
      f.tiles = static_cast<int>(tiles.size());
      if (f.kind != FeatureKind::kCity) f.shields = 0;
      if (f.kind == FeatureKind::kRoad || f.kind == FeatureKind::kCity) f.complete = open == 0;
      if (f.kind == FeatureKind::kMonastery) {
        int n = 0;
        for (int dx = -1; dx <= 1; ++dx)
          for (int dy = -1; dy <= 1; ++dy) n += (dx || dy) && at.count({c0.x + dx, c0.y + dy});
        f.complete = n == 8;
      }
      for (const auto& m : f.segs) owner[m] = *f.segs.begin();
      out[*f.segs.begin()] = f;
    }
  // Fields: the cities their segments touch on their own tiles.
  for (auto& [key, f] : out) {
    if (f.kind != FeatureKind::kField) continue;
    for (const auto& [x, y, s] : f.segs) {
      int t = at[{x, y}];
      for (int c : rt(t).segments[s].adjacent_cities) f.cities.insert(owner[{x, y, c}]);
    }
  }
  return out;
}

std::optional<std::string> Diff(const std::map<SegId, Feature>& a,
                                const std::map<SegId, Feature>& b, const char* an, const char* bn) {
  for (const auto& [k, f] : a) {
    auto it = b.find(k);
    if (it == b.end()) return std::string(an) + " has feature " + Show(f) + ", " + bn + " not";
    if (!(it->second == f))
      return std::string(an) + ": " + Show(f) + "\n" + bn + ": " + Show(it->second);
  }
  for (const auto& [k, f] : b)
    if (!a.count(k)) return std::string(bn) + " has feature " + Show(f) + ", " + an + " not";
  return std::nullopt;
}

// Figures grouped by feature, each as (smallest segment, sorted figure descriptions).
std::map<SegId, std::vector<std::string>> FigurePartition(const Position& pos,
                                                          const std::map<SegId, Feature>& feats) {
  std::map<SegId, std::vector<std::string>> out;
  std::map<SegId, SegId> owner;
  for (const auto& [k, f] : feats)
    for (const auto& s : f.segs) owner[s] = k;
  for (const model::Figure& f : pos.figures) {
    SegId s = Seg(pos.board, f.node);
    out[owner[s]].push_back(std::to_string(f.owner) + "/" + std::to_string(f.kind) + "@" + Name(s));
  }
  for (auto& [k, v] : out) std::sort(v.begin(), v.end());
  return out;
}

// Segment -> key (smallest segment) of its flood-fill feature.
std::map<SegId, SegId> Owners(const std::map<SegId, Feature>& feats) {
  std::map<SegId, SegId> owner;
  for (const auto& [k, f] : feats)
    for (const auto& s : f.segs) owner[s] = k;
  return owner;
}

}  // namespace

namespace {

// Features (board roots) a Christmas Present card acts on at final scoring: advantage cards
// attached (majority + 1, XMAS-FN13), laid-down features (XMAS-FN11/FN12: completed ones keep
// their figures and are paid as deferred values) and advantage-field choices. The oracle leaves
// them out; every other feature is compared exactly.
std::set<int> CardFeatures(const Position& pos) {
  std::set<int> out;
  if (!pos.cfg().FindExpansion("christmas_present")) return out;
  // The module's section as DumpPosition writes it (its dump and variants), alone.
  json x = json::object();
  for (const model::ModuleDecl& m : pos.cfg().modules) {
    if (m.module->Id() != "christmas_present") continue;
    if (m.state.dump) m.state.dump(pos, x);
    if (!m.legacy_variants) model::DumpVariants(m, pos, x);
  }
  for (const char* key : {"attached", "laid_down", "field_choices"}) {
    if (!x.contains(key)) continue;
    for (const json& r : x[key]) {
      if (!r.contains("feature")) continue;
      auto node = model::ParseFeatureRef(r, pos, "", model::IoContext{.source = ""});
      if (node.ok()) out.insert(pos.board.Find(*node));
    }
  }
  return out;
}

}  // namespace

namespace {

// The oracles below on the flood fill `feats` of pos.board (owner: Owners(feats)).
std::optional<std::string> CompareFinalScoringOn(const Position& pos,
                                                 std::map<SegId, Feature>& feats,
                                                 std::map<SegId, SegId>& owner) {
  const auto& o = pos.cfg().options;
  if (o.city_scoring != model::CityScoring::kStandard ||
      o.farm_scoring != model::FarmScoring::kPerFarm)
    return std::nullopt;
  const Board& b = pos.board;
  std::map<SegId, std::vector<int>> strength;  // feature -> per player
  for (const model::Figure& f : pos.figures) {
    auto& s = strength[owner[Seg(b, f.node)]];
    s.resize(pos.players.size(), 0);
    s[f.owner] += pos.cfg().figure_kinds[f.kind].strength;
  }
  const std::set<int> excluded = CardFeatures(pos);
  std::vector<int> want(pos.players.size(), 0);
  for (const auto& [key, s] : strength) {
    const Feature& f = feats[key];
    auto [kx, ky, kseg] = key;
    if (excluded.count(b.Find(Board::Node(*b.At({kx, ky}), kseg)))) continue;
    int best = *std::max_element(s.begin(), s.end());
    if (best <= 0) continue;
    int points = 0;
    switch (f.kind) {
      case FeatureKind::kRoad:
        points = f.tiles;
        break;
      case FeatureKind::kCity:
        points = f.tiles + f.shields;
        break;
      case FeatureKind::kMonastery: {
        auto [x, y, seg] = key;
        int n = 0;
        for (int dx = -1; dx <= 1; ++dx)
          for (int dy = -1; dy <= 1; ++dy) n += (dx || dy) && b.At({x + dx, y + dy}).has_value();
        points = 1 + n;
        break;
      }
      case FeatureKind::kField:
        for (const auto& c : f.cities) points += feats[c].complete ? 3 : 0;
        break;
    }
    for (size_t p = 0; p < s.size(); ++p)
      if (s[p] == best) want[p] += points;
  }
  Position copy = pos;
  std::vector<int> got(pos.players.size(), 0);
  for (const model::ScoreEvent& ev : model::ScoreFinal(copy)) {
    if (!ev.cause.IsFinal() || excluded.count(ev.root) ||
        std::count(ev.rulings.begin(), ev.rulings.end(), "GIFT-END"))
      continue;  // an expansion's own points, or a feature a card acts on (above)
    for (int w : ev.winners) got[w] += ev.points;
  }
  for (size_t p = 0; p < pos.players.size(); ++p) {
    if (got[p] != want[p])
      return "final scoring gives player " + std::to_string(p) + " " + std::to_string(got[p]) +
             " points, the rules (recomputed) " + std::to_string(want[p]);
  }
  return std::nullopt;
}

std::optional<std::string> CompareFigurePlacementsOn(const Position& pos,
                                                     std::map<SegId, SegId>& owner) {
  if (pos.turn.game_over || pos.turn.placed < 0) return std::nullopt;
  const Board& b = pos.board;
  std::set<SegId> occupied;
  for (const model::Figure& f : pos.figures) occupied.insert(owner[Seg(b, f.node)]);
  const Coord at = b.tile(pos.turn.placed).pos;
  std::set<int> listed_meeple;
  for (const model::Action& a : model::LegalActions(pos)) {
    if (a.type != model::ActionType::kPlaceFigure) continue;
    if (a.pos != at) return std::string("a figure is listed on a tile other than the one placed");
    if (occupied.count(owner[{at.x, at.y, a.segment}]))
      return "a figure is listed on segment " + std::to_string(a.segment) +
             " of the placed tile, whose feature already holds a figure";
    if (a.figure_kind == model::kMeeple) listed_meeple.insert(a.segment);
  }
  if (pos.current_step().Name() != model::kPlaceFigure ||
      pos.players[pos.turn.player].supply[model::kMeeple] <= 0)
    return std::nullopt;
  for (size_t s = 0; s < b.rotated(pos.turn.placed).segments.size(); ++s)
    if (!occupied.count(owner[{at.x, at.y, static_cast<int>(s)}]) &&
        !listed_meeple.count(static_cast<int>(s)))
      return "segment " + std::to_string(s) +
             " of the placed tile is free but no meeple is listed on it";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> CompareFinalScoring(const Position& pos) {
  auto feats = FloodFeatures(pos.board);
  auto owner = Owners(feats);
  return CompareFinalScoringOn(pos, feats, owner);
}

std::optional<std::string> CompareFigurePlacements(const Position& pos) {
  auto feats = FloodFeatures(pos.board);
  auto owner = Owners(feats);
  return CompareFigurePlacementsOn(pos, owner);
}

std::optional<std::string> CompareFeatures(const Position& pos) {
  return Diff(ModelFeatures(pos.board), FloodFeatures(pos.board), "incremental", "flood fill");
}

Position RebuildBoard(const Position& pos, int root) {
  const Board& b = pos.board;
  Position out = pos;
  out.board = Board(&b.catalog());
  if (b.size() == 0) return out;
  std::map<Coord, int> at;
  for (int t = 0; t < b.size(); ++t) at[b.tile(t).pos] = t;
  std::vector<int> new_index(b.size(), -1);
  std::deque<int> q = {root};
  std::vector<bool> seen(b.size(), false);
  seen[root] = true;
  static constexpr int kDx[4] = {0, 1, 0, -1}, kDy[4] = {-1, 0, 1, 0};
  while (!q.empty()) {
    int t = q.front();
    q.pop_front();
    new_index[t] = out.board.Place(b.tile(t).type, b.tile(t).pos, b.tile(t).rotation);
    // Neighbours in W S E N order: unlike the play order and unlike Frontier().
    for (int side = 3; side >= 0; --side) {
      auto n = at.find({b.tile(t).pos.x + kDx[side], b.tile(t).pos.y + kDy[side]});
      if (n != at.end() && !seen[n->second]) {
        seen[n->second] = true;
        q.push_back(n->second);
      }
    }
  }
  for (int t = 0; t < b.size(); ++t)  // a detached tile (never in a legal position) goes last
    if (new_index[t] < 0)
      new_index[t] = out.board.Place(b.tile(t).type, b.tile(t).pos, b.tile(t).rotation);
  for (model::Figure& f : out.figures)
    f.node = Board::Node(new_index[Board::TileOf(f.node)], Board::SegmentOf(f.node));
  if (out.turn.placed >= 0) out.turn.placed = new_index[out.turn.placed];
  return out;
}

namespace {

// CompareRebuilt with the model's features of pos.board given (ModelFeatures).
std::optional<std::string> CompareRebuiltOn(const Position& pos, int root,
                                            const std::map<SegId, Feature>& played) {
  Position re = RebuildBoard(pos, root);
  const std::map<SegId, Feature> rebuilt = ModelFeatures(re.board);
  if (auto d = Diff(played, rebuilt, "played order", "rebuilt order")) return d;
  if (FigurePartition(pos, played) != FigurePartition(re, rebuilt))
    return std::string("figure-holding features differ between play order and rebuilt order");
  // The final scores from the position file with its board listed in the rebuilt order: the
  // expansions' sections name squares, so their references follow the tiles (the board alone,
  // rebuilt above, would leave an expansion's tile indices pointing at other tiles).
  std::vector<int> order;
  for (int t = 0; t < re.board.size(); ++t) {
    for (int u = 0; u < pos.board.size(); ++u)
      if (pos.board.tile(u).pos == re.board.tile(t).pos) order.push_back(u);
  }
  // DumpPosition writes the board in tile order: entry u is tile u.
  nlohmann::json j = model::DumpPosition(pos), board = nlohmann::json::array();
  for (int u : order) board.push_back(std::move(j["board"][u]));
  j["board"] = std::move(board);
  auto parsed = ParseJson(j, "rebuilt.json");
  if (!parsed.ok())
    return "the position file with its board in the rebuilt order does not parse: " +
           parsed.status().message();
  Position a = pos, c = std::move(*parsed);
  model::ScoreFinal(a);
  model::ScoreFinal(c);
  for (size_t p = 0; p < a.players.size(); ++p)
    if (a.players[p].score != c.players[p].score)
      return "final score of player " + std::to_string(p) + ": " +
             std::to_string(a.players[p].score) + " in play order, " +
             std::to_string(c.players[p].score) + " rebuilt";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> CompareRebuilt(const Position& pos, int root) {
  return CompareRebuiltOn(pos, root, ModelFeatures(pos.board));
}

std::optional<FeatureDifference> CompareAllFeatures(const Position& pos, int root) {
  const std::map<SegId, Feature> played = ModelFeatures(pos.board);
  std::map<SegId, Feature> flood = FloodFeatures(pos.board);
  if (auto d = Diff(played, flood, "incremental", "flood fill"))
    return FeatureDifference{FeatureDifference::kFeatures, *d};
  std::map<SegId, SegId> owner = Owners(flood);
  if (auto d = CompareFinalScoringOn(pos, flood, owner))
    return FeatureDifference{FeatureDifference::kFinalScoring, *d};
  if (auto d = CompareFigurePlacementsOn(pos, owner))
    return FeatureDifference{FeatureDifference::kFigurePlacements, *d};
  if (pos.board.size() == 0) return std::nullopt;
  if (auto d = CompareRebuiltOn(pos, root, played))
    return FeatureDifference{FeatureDifference::kRebuilt, *d};
  return std::nullopt;
}

}  // namespace carc::prop

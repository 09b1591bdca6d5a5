#pragma once
// The features of a board as flat arrays, for recompute.cc only (the maps of sets it
// used before were most of the features check): the model's union-find read once (ModelFlat)
// and an independent flood fill over the tile table (FloodFlat), compared array by array. A
// difference is described by the map form (ToMap, Diff), built only then.

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "model/core/board.h"
#include "model/core/position.h"

namespace carc::prop {

// A segment of the board by what it is, not by the model's node numbering.
using SegId = std::tuple<int, int, int>;  // x, y, segment

// The segments of a board numbered in (x, y, segment) order, the order of SegId: a feature is
// named by its least segment, so one feature has one number on any board holding the same tiles
// in another order. The tiles sorted by square are the flood fill's own lookup (not the model's
// grid).
class Segs {
 public:
  explicit Segs(const model::Board& b) : b_(b) {
    for (int t = 0; t < b.size(); ++t) by_square_.emplace_back(b.tile(t).pos.x, b.tile(t).pos.y, t);
    std::sort(by_square_.begin(), by_square_.end());
    first_.assign(b.size(), 0);
    count_.assign(b.size(), 0);
    for (const auto& [x, y, t] : by_square_) {
      first_[t] = static_cast<int>(tile_.size());
      count_[t] = static_cast<int>(b.rotated(t).segments.size());
      for (int s = 0; s < count_[t]; ++s) {
        tile_.push_back(t);
        seg_.push_back(s);
      }
    }
  }
  int size() const { return static_cast<int>(tile_.size()); }
  int Of(int t, int s) const { return first_[t] + s; }
  int OfNode(int node) const {
    return Of(model::Board::TileOf(node), model::Board::SegmentOf(node));
  }
  int tile(int i) const { return tile_[i]; }
  int seg(int i) const { return seg_[i]; }
  SegId Id(int i) const {
    if (i < 0 || i >= size()) return {0, 0, -1};
    const model::Coord c = b_.tile(tile_[i]).pos;
    return {c.x, c.y, seg_[i]};
  }
  // The tile on square (x, y), or -1.
  int TileAt(int x, int y) const {
    auto it = std::lower_bound(by_square_.begin(), by_square_.end(), std::tuple(x, y, -1));
    return it != by_square_.end() && std::get<0>(*it) == x && std::get<1>(*it) == y
               ? std::get<2>(*it)
               : -1;
  }
  // Whether `o` numbers the same segments alike (the same squares with as many segments).
  bool SameNumbering(const Segs& o) const {
    if (by_square_.size() != o.by_square_.size()) return false;
    for (size_t k = 0; k < by_square_.size(); ++k) {
      const auto& [x, y, t] = by_square_[k];
      const auto& [ox, oy, ot] = o.by_square_[k];
      if (x != ox || y != oy || count_[t] != o.count_[ot]) return false;
    }
    return true;
  }
  // A figure on a tile or segment the board does not have (Validate's business; named here
  // since the comparisons below index by segment).
  std::optional<std::string> FigureOffTile(const model::Position& pos) const {
    for (const model::Figure& f : pos.figures) {
      const int t = model::Board::TileOf(f.node), s = model::Board::SegmentOf(f.node);
      if (f.node < 0 || t >= b_.size() || s >= count_[t])
        return "a figure stands on node " + std::to_string(f.node) + ", no segment of the board";
    }
    return std::nullopt;
  }

 private:
  const model::Board& b_;
  std::vector<std::tuple<int, int, int>> by_square_;  // x, y, tile
  std::vector<int> first_, count_;                    // by tile
  std::vector<int> tile_, seg_;                       // by segment number
};

// Features by segment number: each segment's feature (its least segment), and by feature (at
// that number) what is compared.
struct Flat {
  std::vector<int> label;
  std::vector<model::FeatureKind> kind;
  std::vector<char> complete;
  std::vector<int> tiles, shields;
  std::vector<std::vector<int>> cities;  // field: the cities it touches (their labels), sorted
  explicit Flat(int n)
      : label(n, -1), kind(n), complete(n, 0), tiles(n, 0), shields(n, 0), cities(n) {}
  // The same partition with the same kind, completion, tiles, coats of arms and cities.
  bool operator==(const Flat& o) const {
    if (label != o.label) return false;
    for (size_t k = 0; k < label.size(); ++k)
      if (label[k] == static_cast<int>(k) &&
          (kind[k] != o.kind[k] || complete[k] != o.complete[k] || tiles[k] != o.tiles[k] ||
           shields[k] != o.shields[k] || cities[k] != o.cities[k]))
        return false;
    return true;
  }
};

// The model's view: the union-find's roots, each feature named by its least segment.
inline Flat ModelFlat(const model::Board& b, const Segs& sg) {
  Flat f(sg.size());
  std::vector<int> least(static_cast<size_t>(b.size()) * model::kMaxSegments, -1);  // by root
  auto root = [&](int i) { return b.Find(model::Board::Node(sg.tile(i), sg.seg(i))); };
  for (int i = 0; i < sg.size(); ++i) {
    int& l = least[root(i)];
    if (l < 0) l = i;
    f.label[i] = l;
  }
  std::vector<int> touched;
  for (int k = 0; k < sg.size(); ++k) {
    if (f.label[k] != k) continue;
    const int r = root(k);
    const model::FeatureInfo& fi = b.Info(r);
    f.kind[k] = fi.kind;
    f.complete[k] = b.IsComplete(r);
    f.tiles[k] = b.DistinctTiles(r);
    f.shields[k] = fi.kind == model::FeatureKind::kCity ? fi.shields : 0;
    if (fi.kind != model::FeatureKind::kField) continue;
    b.TouchedCityRoots(r, touched);
    for (int c : touched) f.cities[k].push_back(least[b.Find(c)]);
    std::sort(f.cities[k].begin(), f.cities[k].end());
    f.cities[k].erase(std::unique(f.cities[k].begin(), f.cities[k].end()), f.cities[k].end());
  }
  return f;
}

// Each tile's neighbour on each side (N E S W), or -1: [tile * 4 + side], from sg.TileAt (the
// flood fill's own lookup, not the model's grid). Looked up once per board for the flood fill
// (instead of once per segment and side reached) and the rebuilt order's breadth-first walk.
inline constexpr int kSideDx[4] = {0, 1, 0, -1}, kSideDy[4] = {-1, 0, 1, 0};
inline std::vector<int> Beside(const model::Board& b, const Segs& sg) {
  std::vector<int> beside(static_cast<size_t>(b.size()) * 4);
  for (int t = 0; t < b.size(); ++t) {
    const model::Coord c = b.tile(t).pos;
    for (int side = 0; side < 4; ++side)
      beside[t * 4 + side] = sg.TileAt(c.x + kSideDx[side], c.y + kSideDy[side]);
  }
  return beside;
}

// The flood fill: neighbours through matching sides (roads, cities) and half-edges (fields),
// read from the tile table only. A segment two floods reach (the tile table's sides would
// disagree) is an error. `beside`: Beside(b, sg).
inline Flat FloodFlat(const model::Board& b, const Segs& sg, const std::vector<int>& beside,
                      std::string& error) {
  const model::TileCatalog& cat = b.catalog();
  auto rt = [&](int t) -> const model::RotatedTile& {
    return cat.rotated(b.tile(t).type, b.tile(t).rotation);
  };
  Flat f(sg.size());
  std::vector<int> stamp(sg.size(), -1), tile_stamp(b.size(), -1);  // by flood
  std::vector<std::pair<int, int>> q;                               // tile, segment
  int flood = 0;
  for (int t0 = 0; t0 < b.size(); ++t0)
    for (int s0 = 0; s0 < static_cast<int>(rt(t0).segments.size()); ++s0) {
      if (f.label[sg.Of(t0, s0)] >= 0) continue;
      ++flood;
      const model::FeatureKind kind = rt(t0).segments[s0].kind;
      int open = 0, ntiles = 0, shields = 0, key = sg.Of(t0, s0);
      q.assign(1, {t0, s0});
      stamp[key] = flood;
      auto reach = [&](int t, int s) {
        const int i = sg.Of(t, s);
        if (stamp[i] == flood) return;
        stamp[i] = flood;
        q.push_back({t, s});
        key = std::min(key, i);
      };
      for (size_t h = 0; h < q.size(); ++h) {
        const auto [t, s] = q[h];
        if (tile_stamp[t] != flood) ++ntiles;
        tile_stamp[t] = flood;
        const model::Segment& seg = rt(t).segments[s];
        if (seg.shield) ++shields;
        for (int side = 0; side < 4; ++side) {
          const int n = beside[t * 4 + side];
          if (seg.sides & model::kSideBit[side]) {
            if (n < 0) {
              ++open;
              continue;
            }
            const int other = rt(n).side_segment[(side + 2) % 4];
            if (other < 0 || rt(n).segments[other].kind != seg.kind) {
              ++open;  // a mismatched edge leaves the side open
              continue;
            }
            reach(n, other);
          }
          for (int hh = 2 * side; hh < 2 * side + 2; ++hh) {
            if (!(seg.halves & (1 << hh)) || n < 0) continue;
            // Half hh of this tile touches half (hh even: hh+5, odd: hh+3) mod 8 of the
            // neighbour.
            const int other = rt(n).half_segment[(hh % 2 == 0) ? (hh + 5) % 8 : (hh + 3) % 8];
            if (other >= 0) reach(n, other);
          }
        }
      }
      for (const auto& [t, s] : q) {
        int& l = f.label[sg.Of(t, s)];
        if (l >= 0 && error.empty())
          error = "the flood fill reaches a segment of tile " + std::to_string(t) +
                  " from two features";
        l = key;
      }
      f.kind[key] = kind;
      f.tiles[key] = ntiles;
      f.shields[key] = kind == model::FeatureKind::kCity ? shields : 0;
      if (kind == model::FeatureKind::kRoad || kind == model::FeatureKind::kCity)
        f.complete[key] = open == 0;
      if (kind == model::FeatureKind::kMonastery) {
        const model::Coord c0 = b.tile(t0).pos;
        int n = 0;
        for (int dx = -1; dx <= 1; ++dx)
          for (int dy = -1; dy <= 1; ++dy) n += (dx || dy) && sg.TileAt(c0.x + dx, c0.y + dy) >= 0;
        f.complete[key] = n == 8;
      }
    }
  // Fields: the cities their segments touch on their own tiles.
  for (int i = 0; i < sg.size(); ++i) {
    const int k = f.label[i];
    if (f.kind[k] != model::FeatureKind::kField) continue;
    for (int c : rt(sg.tile(i)).segments[sg.seg(i)].adjacent_cities)
      f.cities[k].push_back(f.label[sg.Of(sg.tile(i), c)]);
  }
  for (int k = 0; k < sg.size(); ++k) {
    std::sort(f.cities[k].begin(), f.cities[k].end());
    f.cities[k].erase(std::unique(f.cities[k].begin(), f.cities[k].end()), f.cities[k].end());
  }
  return f;
}

// --- the map form, for a difference's message
struct Feature {
  std::set<SegId> segs;
  model::FeatureKind kind = model::FeatureKind::kField;
  bool complete = false;
  int tiles = 0;
  int shields = 0;
  std::set<SegId> cities;  // field: smallest segment of each touched city
  bool operator==(const Feature& o) const {
    return segs == o.segs && kind == o.kind && complete == o.complete && tiles == o.tiles &&
           shields == o.shields && cities == o.cities;
  }
};

inline std::map<SegId, Feature> ToMap(const Flat& f, const Segs& sg) {
  std::map<SegId, Feature> out;
  for (int i = 0; i < sg.size(); ++i) out[sg.Id(f.label[i])].segs.insert(sg.Id(i));
  for (int k = 0; k < sg.size(); ++k) {
    if (f.label[k] != k) continue;
    Feature& x = out[sg.Id(k)];
    x.kind = f.kind[k];
    x.complete = f.complete[k];
    x.tiles = f.tiles[k];
    x.shields = f.shields[k];
    for (int c : f.cities[k]) x.cities.insert(sg.Id(c));
  }
  return out;
}

inline std::string Name(const SegId& s) {
  return "(" + std::to_string(std::get<0>(s)) + "," + std::to_string(std::get<1>(s)) + ")#" +
         std::to_string(std::get<2>(s));
}

inline std::string Show(const Feature& f) {
  std::string s = std::string(model::FeatureKindName(f.kind)) + " {";
  for (const auto& x : f.segs) s += Name(x) + " ";
  s += "} complete=" + std::to_string(f.complete) + " tiles=" + std::to_string(f.tiles) +
       " shields=" + std::to_string(f.shields) + " cities={";
  for (const auto& x : f.cities) s += Name(x) + " ";
  return s + "}";
}

inline std::optional<std::string> Diff(const std::map<SegId, Feature>& a,
                                       const std::map<SegId, Feature>& b, const char* an,
                                       const char* bn) {
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

}  // namespace carc::prop

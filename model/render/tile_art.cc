#include "model/render/tile_art.h"

#include <cmath>
#include <cstdio>

namespace carc::render {

using model::FeatureKind;
using model::RotatedTile;

namespace {

constexpr Point kCentre{0.5, 0.5};
constexpr Point kCorner[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};  // NW NE SE SW
constexpr Point kInward[4] = {{0, 1}, {-1, 0}, {0, -1}, {1, 0}};  // per side N E S W

Point Mid(int side) {
  const Point a = kCorner[side], b = kCorner[(side + 1) % 4];
  return {(a.x + b.x) / 2, (a.y + b.y) / 2};
}
// From p towards q by t (t may exceed 1).
Point Towards(Point p, Point q, double t) { return {p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)}; }
// Half-edges run clockwise: an even half starts at its side's first corner, an odd one at the mid.
Point HalfStart(int h) { return h % 2 == 0 ? kCorner[h / 2] : Mid(h / 2); }
Point HalfEnd(int h) { return h % 2 == 0 ? Mid(h / 2) : kCorner[(h / 2 + 1) % 4]; }
bool Has(uint8_t mask, int bit, int n) { return mask & (1 << (((bit % n) + n) % n)); }

std::string P(Point p) { return Num(p.x * kTileSize) + " " + Num(p.y * kTileSize); }

// Maximal cyclic runs of set bits of an n-bit mask, each in clockwise order.
std::vector<std::vector<int>> Runs(uint8_t mask, int n) {
  std::vector<std::vector<int>> runs;
  if (mask == (1 << n) - 1) {
    runs.emplace_back();
    for (int i = 0; i < n; ++i) runs.back().push_back(i);
    return runs;
  }
  for (int i = 0; i < n; ++i) {
    if (!Has(mask, i, n) || Has(mask, i - 1, n)) continue;
    runs.emplace_back();
    for (int j = i; Has(mask, j, n); ++j) runs.back().push_back(j % n);
  }
  return runs;
}

// A city: its sides' corners joined by the wall, which bows inward across each run of
// non-city sides (a cap over three, a diagonal over two, a notch over one).
std::string CityPath(uint8_t sides) {
  if (sides == 0xF) return "M0 0 H100 V100 H0 Z";
  std::string d;
  int start = 0;
  while (!(Has(sides, start, 4) && !Has(sides, start - 1, 4))) ++start;
  d = "M" + P(kCorner[start]);
  for (int k = 0; k < 4;) {
    int s = (start + k) % 4;
    if (Has(sides, s, 4)) {
      d += " L" + P(kCorner[(s + 1) % 4]);
      ++k;
      continue;
    }
    int run = 0;
    while (k + run < 4 && !Has(sides, start + k + run, 4)) ++run;
    Point ctrl = run == 1   ? Towards(Mid(s), kCentre, 0.9)
                 : run == 2 ? Towards(kCorner[(s + 1) % 4], kCentre, 1.3)
                            : Towards(Mid((s + 3) % 4), kCentre, 1.2);  // the one city side
    d += " Q" + P(ctrl) + " " + P(kCorner[(s + run) % 4]);
    k += run;
  }
  return d + " Z";
}

// A field: the wedges (centre to half-edge) of its half-edges, plus the city half-edges nearest
// to it along the rim, so that the part of a city wedge the city does not cover is filled.
std::string FieldPath(const RotatedTile& rt, int segment) {
  uint8_t mask = 0;
  for (int h = 0; h < 8; ++h) {
    int owner = rt.half_segment[h];
    for (int d = 1; owner < 0 && d <= 4; ++d) {
      if (int cw = rt.half_segment[(h + d) % 8]; cw >= 0) owner = cw;
      else if (int ccw = rt.half_segment[(h + 8 - d) % 8]; ccw >= 0) owner = ccw;
    }
    if (owner == segment) mask |= static_cast<uint8_t>(1 << h);
  }
  std::string d;
  for (const auto& run : Runs(mask, 8)) {
    d += (d.empty() ? "M" : " M") + P(run.size() == 8 ? HalfStart(0) : kCentre);
    for (int h : run) d += " L" + P(HalfStart(h));
    d += " L" + P(HalfEnd(run.back())) + " Z";
  }
  return d;
}

Point Average(const std::vector<Point>& ps) {
  Point sum;
  for (Point p : ps) sum = {sum.x + p.x / ps.size(), sum.y + p.y / ps.size()};
  return sum;
}

std::vector<int> SidesOf(uint8_t sides) {
  std::vector<int> out;
  for (int s = 0; s < 4; ++s)
    if (sides & model::kSideBit[s]) out.push_back(s);
  return out;
}

// Coat of arms: in the corner between two city sides, else near the first side's edge.
Point ShieldPoint(uint8_t sides) {
  for (int s = 0; s < 4; ++s)
    if (Has(sides, s, 4) && Has(sides, s + 1, 4))
      return Towards(kCorner[(s + 1) % 4], kCentre, 0.2);
  return Towards(Mid(SidesOf(sides).front()), kCentre, 0.25);
}

}  // namespace

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s == "-0.0") s = "0.0";
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

Point HalfPoint(int half, double inset) {
  Point a = HalfStart(half), b = HalfEnd(half), n = kInward[half / 2];
  return {(a.x + b.x) / 2 + inset * n.x, (a.y + b.y) / 2 + inset * n.y};
}

Point SegmentAnchor(const RotatedTile& rt, int segment) {
  const model::Segment& s = rt.segments[segment];
  std::vector<int> sides = SidesOf(s.sides);
  switch (s.kind) {
    case FeatureKind::kMonastery:
      return {0.5, 0.55};
    case FeatureKind::kCity: {
      if (sides.size() == 4) return kCentre;
      std::vector<Point> ps;
      for (int side : sides) ps.push_back(Towards(Mid(side), kCentre, 0.3));
      return Average(ps);
    }
    case FeatureKind::kRoad:
      if (sides.size() == 1 || (sides.size() == 2 && sides[1] - sides[0] != 2))
        return Towards(Mid(sides[0]), kCentre, 0.45);
      return kCentre;
    case FeatureKind::kField: {
      // The middle of the longest run of its half-edges, a little inside the tile.
      std::vector<int> best;
      for (auto& run : Runs(s.halves, 8))
        if (run.size() > best.size()) best = run;
      if (best.empty()) return kCentre;
      size_t n = best.size();
      if (n % 2 == 1) return HalfPoint(best[n / 2], 0.15);
      return Average({HalfPoint(best[n / 2 - 1], 0.15), HalfPoint(best[n / 2], 0.15)});
    }
  }
  return kCentre;
}

std::vector<Shape> DescribeTile(const RotatedTile& rt) {
  std::vector<Shape> fields, roads, cities, marks;
  int road_ends = 0;
  bool monastery = false;
  for (int i = 0; i < static_cast<int>(rt.segments.size()); ++i) {
    const model::Segment& s = rt.segments[i];
    std::vector<int> sides = SidesOf(s.sides);
    switch (s.kind) {
      case FeatureKind::kField:
        fields.push_back({i, Role::kField, FieldPath(rt, i)});
        break;
      case FeatureKind::kRoad: {
        // Every road runs from its edges to the centre: a bend, a straight, or an end that the
        // city, the monastery or the junction drawn later covers.
        std::string d = "M" + P(Mid(sides[0])) + " L" + P(kCentre);
        for (size_t k = 1; k < sides.size(); ++k) d += " L" + P(Mid(sides[k]));
        if (sides.size() == 1) ++road_ends;
        roads.push_back({i, Role::kRoad, d});
        break;
      }
      case FeatureKind::kCity:
        cities.push_back({i, Role::kCity, CityPath(s.sides)});
        if (s.shield) {
          Point c = ShieldPoint(s.sides);
          double x = c.x * kTileSize, y = c.y * kTileSize;
          marks.push_back({i, Role::kShield,
                           "M" + Num(x - 7) + " " + Num(y - 8) + " H" + Num(x + 7) + " V" +
                               Num(y) + " Q" + Num(x + 7) + " " + Num(y + 6) + " " + Num(x) +
                               " " + Num(y + 9) + " Q" + Num(x - 7) + " " + Num(y + 6) + " " +
                               Num(x - 7) + " " + Num(y) + " Z"});
        }
        break;
      case FeatureKind::kMonastery:
        monastery = true;
        marks.insert(marks.begin(),
                     {i, Role::kMonastery,
                      "M34 72 V46 L50 30 L66 46 V72 Z M46 72 V60 H54 V72 Z M50 18 V30 M45 23 H55"});
        break;
    }
  }
  std::vector<Shape> out = fields;
  out.insert(out.end(), roads.begin(), roads.end());
  out.insert(out.end(), cities.begin(), cities.end());
  out.insert(out.end(), marks.begin(), marks.end());
  if (road_ends >= 2 && !monastery)
    out.push_back({-1, Role::kJunction, "M42 42 H58 V58 H42 Z"});
  return out;
}

}  // namespace carc::render

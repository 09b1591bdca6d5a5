#include "model/core/tile.h"

#include <algorithm>
#include <cstring>

namespace carc::model {

namespace {
constexpr const char* kSideNames = "NESW";
constexpr const char* kHalfNames[8] = {"NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"};
}  // namespace

uint8_t RotateSides(uint8_t sides, Rotation r) {
  r &= 3;
  return static_cast<uint8_t>(((sides << r) | (sides >> (4 - r))) & 0xF);
}

uint8_t RotateHalves(uint8_t halves, Rotation r) {
  int k = (r & 3) * 2;
  return static_cast<uint8_t>(((halves << k) | (halves >> (8 - k))) & 0xFF);
}

std::string SidesName(uint8_t sides) {
  std::string out;
  for (int s = 0; s < 4; ++s)
    if (sides & kSideBit[s]) out += kSideNames[s];
  return out;
}

std::string HalvesName(uint8_t halves) {
  std::string out;
  for (int h = 0; h < 8; ++h) {
    if (!(halves & (1 << h))) continue;
    if (!out.empty()) out += '.';
    out += kHalfNames[h];
  }
  return out;
}

std::optional<uint8_t> ParseSides(std::string_view s) {
  if (s.empty()) return std::nullopt;
  uint8_t mask = 0;
  for (char c : s) {
    const char* p = std::strchr(kSideNames, c);
    if (p == nullptr || c == '\0') return std::nullopt;
    uint8_t bit = kSideBit[p - kSideNames];
    if (mask & bit) return std::nullopt;
    mask |= bit;
  }
  return mask;
}

std::optional<uint8_t> ParseHalves(std::string_view s) {
  if (s.empty()) return std::nullopt;
  uint8_t mask = 0;
  size_t start = 0;
  while (start <= s.size()) {
    size_t dot = s.find('.', start);
    std::string_view part = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    int found = -1;
    for (int h = 0; h < 8; ++h)
      if (part == kHalfNames[h]) found = h;
    if (found < 0 || (mask & (1 << found))) return std::nullopt;
    mask |= static_cast<uint8_t>(1 << found);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return mask;
}

std::string_view FeatureKindName(FeatureKind k) {
  switch (k) {
    case FeatureKind::kRoad:
      return "road";
    case FeatureKind::kCity:
      return "city";
    case FeatureKind::kField:
      return "field";
    case FeatureKind::kMonastery:
      return "monastery";
  }
  return "?";
}

std::optional<FeatureKind> ParseFeatureKind(std::string_view s) {
  if (s == "road") return FeatureKind::kRoad;
  if (s == "city") return FeatureKind::kCity;
  if (s == "field") return FeatureKind::kField;
  if (s == "monastery") return FeatureKind::kMonastery;
  return std::nullopt;
}

TileCatalog::TileCatalog(std::vector<TileDef> defs, TileType start)
    : defs_(std::move(defs)), start_(start) {
  rotated_.resize(defs_.size() * 4);
  distinct_.resize(defs_.size());
  canonical_.resize(defs_.size() * 4);
  for (size_t t = 0; t < defs_.size(); ++t) {
    std::vector<std::string> seen;
    for (int r = 0; r < 4; ++r) {
      RotatedTile& rt = rotated_[t * 4 + r];
      rt.edges.fill(EdgeType::kField);
      rt.side_segment.fill(-1);
      rt.half_segment.fill(-1);
      std::string signature;
      for (size_t i = 0; i < defs_[t].segments.size(); ++i) {
        Segment s = defs_[t].segments[i];
        s.sides = RotateSides(s.sides, r);
        s.halves = RotateHalves(s.halves, r);
        for (int side = 0; side < 4; ++side) {
          if (!(s.sides & kSideBit[side])) continue;
          rt.side_segment[side] = static_cast<int8_t>(i);
          rt.edges[side] = s.kind == FeatureKind::kCity ? EdgeType::kCity : EdgeType::kRoad;
        }
        for (int h = 0; h < 8; ++h)
          if (s.halves & (1 << h)) rt.half_segment[h] = static_cast<int8_t>(i);
        signature += std::string(FeatureKindName(s.kind)) + SidesName(s.sides) +
                     HalvesName(s.halves) + (s.shield ? "*" : "") + ";";
        rt.segments.push_back(std::move(s));
      }
      std::vector<std::string> sorted_sig = {signature};
      // Segment order is fixed per type, so equal signatures mean an identical picture up to
      // segment order; compare as a sorted multiset of segment descriptions.
      std::vector<std::string> parts;
      size_t a = 0;
      for (size_t b = signature.find(';'); b != std::string::npos; b = signature.find(';', a)) {
        parts.push_back(signature.substr(a, b - a));
        a = b + 1;
      }
      std::sort(parts.begin(), parts.end());
      std::string key;
      for (auto& p : parts) key += p + ";";
      auto it = std::find(seen.begin(), seen.end(), key);
      if (it == seen.end()) {
        seen.push_back(key);
        distinct_[t].push_back(r);
        canonical_[t * 4 + r] = r;
      } else {
        canonical_[t * 4 + r] = distinct_[t][it - seen.begin()];
      }
    }
  }
}

std::optional<TileType> TileCatalog::Find(std::string_view id) const {
  for (size_t t = 0; t < defs_.size(); ++t)
    if (id.size() == 1 && id[0] == defs_[t].id) return static_cast<TileType>(t);
  return std::nullopt;
}

int TileCatalog::total_count() const {
  int n = 0;
  for (const auto& d : defs_) n += d.count;
  return n;
}

}  // namespace carc::model

#include "adjudicator/cmd_tiles.h"

#include <algorithm>
#include <vector>

#include "model/core/position_io.h"
#include "model/core/tile.h"
#include "model/render/tile_art.h"

namespace carc::adjudicator {

namespace {

using model::EdgeType;
using model::RotatedTile;
using model::TileCatalog;
using nlohmann::json;
using render::Num;

char EdgeLetter(EdgeType e) {
  return e == EdgeType::kCity ? 'C' : e == EdgeType::kRoad ? 'R' : 'F';
}

std::string Edges(const RotatedTile& rt) {
  std::string s;
  for (EdgeType e : rt.edges) s += EdgeLetter(e);
  return s;
}

bool HasShield(const RotatedTile& rt) {
  for (const auto& s : rt.segments)
    if (s.shield) return true;
  return false;
}

std::string Esc(const std::string& s) {
  std::string out;
  for (char c : s)
    out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return out;
}

// A long field name on several lines, broken after a dot: "field:NL.NR.EL" / "ER.SL.SR".
std::vector<std::string> Wrap(const std::string& name, size_t width) {
  std::vector<std::string> lines;
  std::string cur;
  size_t start = 0;
  while (start < name.size()) {
    size_t dot = name.find('.', start);
    std::string part =
        name.substr(start, dot == std::string::npos ? std::string::npos : dot - start + 1);
    if (!cur.empty() && cur.size() + part.size() > width) {
      lines.push_back(cur);
      cur.clear();
    }
    cur += part;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

constexpr const char* kStyle =
    "text{font-family:DejaVu Sans,Arial,sans-serif;font-size:13px;fill:#222}"
    ".h{font-weight:bold;font-size:15px}.note{fill:#555}"
    ".field{fill:#8cbf55}.edge{fill:none;stroke:#0006}"
    ".roadc{fill:none;stroke:#6f5f48;stroke-width:13;stroke-linejoin:round}"
    ".road{fill:none;stroke:#f6f1e2;stroke-width:9;stroke-linejoin:round}"
    ".city{fill:#c9955b;stroke:#6b4423;stroke-width:2}"
    ".monastery{fill:#efe3c8;stroke:#5a3d20;stroke-width:2;fill-rule:evenodd}"
    ".shield{fill:#1d4fa3;stroke:#fff;stroke-width:1.5}.junction{fill:#6f5f48}"
    ".n{font-size:10.5px;font-weight:bold;text-anchor:middle;stroke:#fff;stroke-width:3;"
    "paint-order:stroke}.n-field{fill:#1b4d0e}.n-road{fill:#5a3b12}.n-city{fill:#7a1f0c}"
    ".n-monastery{fill:#3b2a80}";

// A feature name on the sheet: centre x, baseline of the first line.
struct Label {
  std::string kind;
  std::vector<std::string> lines;
  double x, y;
};

constexpr double kLineH = 12, kCharW = 6.4;

struct Box {
  double x0, y0, x1, y1;
};

Box BoxOf(const Label& l) {
  size_t w = 0;
  for (const auto& line : l.lines) w = std::max(w, line.size());
  return {l.x - w * kCharW / 2, l.y - 9, l.x + w * kCharW / 2, l.y - 9 + kLineH * l.lines.size()};
}

bool Overlap(const Box& a, const Box& b) {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// Centres the label on (cx, cy), then tries small moves until it overlaps no placed label,
// staying inside the tile (tx, ty, size); keeps the centred place if none is free.
void Place(Label& l, double cx, double cy, double tx, double ty, double size,
           const std::vector<Label>& placed) {
  const double h = kLineH * l.lines.size();
  const double base_y = cy + 4 - (h - kLineH) / 2;
  for (double dy : {0.0, 12.0, -12.0, 24.0, -24.0, 36.0, -36.0})
    for (double dx : {0.0, -24.0, 24.0}) {
      l.x = cx + dx;
      l.y = base_y + dy;
      Box b = BoxOf(l);
      const double shift_x = std::max(0.0, tx + 2 - b.x0) - std::max(0.0, b.x1 - (tx + size - 2));
      const double shift_y = std::max(0.0, ty + 2 - b.y0) - std::max(0.0, b.y1 - (ty + size - 2));
      l.x += shift_x;
      l.y += shift_y;
      b = BoxOf(l);
      bool free = true;
      for (const Label& q : placed) free &= !Overlap(b, BoxOf(q));
      if (free) return;
    }
  l.x = cx;
  l.y = base_y;
}

}  // namespace

std::string TileSheetText() {
  const TileCatalog& cat = TileCatalog::Base();
  std::string out =
      "Base tiles: edges N E S W (C city, R road, F field) and the name of every feature at each\n"
      "rotation (degrees clockwise), as position files and the one-line notation write them.\n"
      "Short forms are accepted where they are unambiguous: a bare kind (city, road, field) when\n"
      "the tile has one feature of that kind, a side for a field (field:N = both halves of the\n"
      "north edge), any part of a name (road:E), any letter case.\n";
  for (model::TileType t = 0; t < cat.size(); ++t) {
    const RotatedTile& r0 = cat.rotated(t, 0);
    out += "\n" + cat.Name(t) + "  x" + std::to_string(cat.def(t).count) +
           (t == cat.start_tile() ? "  (start tile)" : "") +
           (HasShield(r0) ? "  (coat of arms on the city)" : "") + "\n";
    for (model::Rotation r = 0; r < 4; ++r) {
      const RotatedTile& rt = cat.rotated(t, r);
      std::string deg = std::to_string(90 * r);
      out += std::string(6 - deg.size(), ' ') + deg + "  ";
      for (EdgeType e : rt.edges) out += std::string(1, EdgeLetter(e)) + " ";
      for (size_t s = 0; s < rt.segments.size(); ++s)
        out += " " + model::FeatureName(rt, static_cast<int>(s));
      out += "\n";
    }
  }
  return out;
}

json TileSheetJson() {
  const TileCatalog& cat = TileCatalog::Base();
  json tiles = json::array();
  for (model::TileType t = 0; t < cat.size(); ++t) {
    json rots = json::array();
    for (model::Rotation r = 0; r < 4; ++r) {
      const RotatedTile& rt = cat.rotated(t, r);
      json feats = json::array();
      for (size_t s = 0; s < rt.segments.size(); ++s) {
        json f = {{"name", model::FeatureName(rt, static_cast<int>(s))},
                  {"kind", model::FeatureKindName(rt.segments[s].kind)}};
        if (rt.segments[s].shield) f["coat_of_arms"] = true;
        feats.push_back(f);
      }
      rots.push_back({{"rotation", 90 * r}, {"edges", Edges(rt)}, {"features", feats}});
    }
    tiles.push_back({{"tile", cat.Name(t)},
                     {"count", cat.def(t).count},
                     {"start", t == cat.start_tile()},
                     {"rotations", rots}});
  }
  return {{"tiles", tiles}};
}

std::string TileSheetSvg() {
  const TileCatalog& cat = TileCatalog::Base();
  constexpr double kScale = 1.7, kTile = 100 * kScale, kGap = 26, kHead = 24, kTop = 64;
  constexpr int kPerRow = 2;  // tiles per row, each at its four rotations
  const double cell_w = kTile + kGap, cell_h = kTile + kHead + kGap;
  const int rows = (cat.size() + kPerRow - 1) / kPerRow;
  const double width = kGap + kPerRow * 4 * cell_w + (kPerRow - 1) * kGap;
  const double height = kTop + rows * cell_h + kGap;
  std::string o = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Num(width) +
                  "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " + Num(width) + " " +
                  Num(height) + "\">\n<style>" + kStyle + "</style>\n";
  o += "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n";
  o += "<text class=\"h\" x=\"" + Num(kGap) +
       "\" y=\"26\">carc tiles: every base tile at each rotation (degrees clockwise), with the "
       "name of each feature as position files write it</text>\n";
  o += "<text class=\"note\" x=\"" + Num(kGap) +
       "\" y=\"46\">Short forms where unambiguous: city / road / field when the tile has one; "
       "field:N = the field holding both halves of the north edge; any letter case.</text>\n";
  for (model::TileType t = 0; t < cat.size(); ++t) {
    const int row = t / kPerRow, group = t % kPerRow;
    for (model::Rotation r = 0; r < 4; ++r) {
      const RotatedTile& rt = cat.rotated(t, r);
      const double x = kGap + group * (4 * cell_w + kGap) + r * cell_w;
      const double y = kTop + row * cell_h;
      std::string head = cat.Name(t) + " " + std::to_string(90 * r) + "\u00b0";
      if (r == 0)
        head += "  x" + std::to_string(cat.def(t).count) + (t == cat.start_tile() ? " start" : "");
      o += "<text class=\"h\" x=\"" + Num(x) + "\" y=\"" + Num(y + 16) + "\">" + Esc(head) +
           "</text>\n";
      const double ty = y + kHead;
      o += "<g transform=\"translate(" + Num(x) + " " + Num(ty) + ") scale(" + Num(kScale) +
           ")\">\n<rect class=\"field\" width=\"100\" height=\"100\"/>\n";
      for (const render::Shape& s : render::DescribeTile(rt)) {
        auto path = [&](const char* cls) {
          return "<path class=\"" + std::string(cls) + "\" d=\"" + s.path + "\"/>\n";
        };
        switch (s.role) {
          case render::Role::kField:
            break;
          case render::Role::kRoad:
            o += path("roadc") + path("road");
            break;
          case render::Role::kCity:
            o += path("city");
            break;
          case render::Role::kMonastery:
            o += path("monastery");
            break;
          case render::Role::kShield:
            o += path("shield");
            break;
          case render::Role::kJunction:
            o += path("junction");
            break;
        }
      }
      o += "<rect class=\"edge\" width=\"100\" height=\"100\"/>\n</g>\n";
      // The names, at the point where a figure on the feature stands, moved a little where
      // two would overlap (roads and cities first; field names give way).
      std::vector<Label> labels;
      for (int pass = 0; pass < 2; ++pass)
        for (size_t s = 0; s < rt.segments.size(); ++s) {
          const bool is_field = rt.segments[s].kind == model::FeatureKind::kField;
          if (is_field != (pass == 1)) continue;
          render::Point p = render::SegmentAnchor(rt, static_cast<int>(s));
          Label l{std::string(model::FeatureKindName(rt.segments[s].kind)),
                  Wrap(model::FeatureName(rt, static_cast<int>(s)), 12), 0, 0};
          Place(l, x + p.x * kTile, ty + p.y * kTile, x, ty, kTile, labels);
          labels.push_back(l);
        }
      for (const Label& l : labels) {
        double ly = l.y;
        for (const std::string& line : l.lines) {
          o += "<text class=\"n n-" + l.kind + "\" x=\"" + Num(l.x) + "\" y=\"" + Num(ly) + "\">" +
               Esc(line) + "</text>\n";
          ly += kLineH;
        }
      }
    }
  }
  return o + "</svg>\n";
}

}  // namespace carc::adjudicator

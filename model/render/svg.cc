#include "model/render/svg.h"

#include <algorithm>
#include <set>

#include "model/core/position_io.h"
#include "model/expansions/registry.h"
#include "model/render/expansion_art.h"
#include "model/render/svg_parts.h"
#include "model/render/tile_art.h"

namespace carc::render {

using model::Coord;
using model::Position;
using nlohmann::json;

namespace {

constexpr double kMargin = 40;   // room for the axis labels
constexpr double kLegend = 320;  // legend width

constexpr const char* kStyle =
    "text{font-family:DejaVu Sans,Arial,sans-serif;font-size:13px;fill:#222}"
    ".h{font-weight:bold}.ax{fill:#666;font-size:12px}.tl{font-size:11px;font-weight:bold;fill:#222;stroke:#fff;stroke-width:2.5;paint-order:stroke}"
    ".cell{fill:#f3f2ec;stroke:#d4d2c8}.field{fill:#8cbf55}.edge{fill:none;stroke:#0006}"
    ".roadc{fill:none;stroke:#6f5f48;stroke-width:13;stroke-linejoin:round}"
    ".road{fill:none;stroke:#f6f1e2;stroke-width:9;stroke-linejoin:round}"
    ".city{fill:#c9955b;stroke:#6b4423;stroke-width:2}"
    ".monastery{fill:#efe3c8;stroke:#5a3d20;stroke-width:2;fill-rule:evenodd}"
    ".shield{fill:#1d4fa3;stroke:#fff;stroke-width:1.5}.junction{fill:#6f5f48}"
    ".f-scored{fill:#ffe45c;fill-opacity:.75}.f-disputed{fill:#ff6b5e;fill-opacity:.6}"
    ".a-scored{fill:#ffd700;fill-opacity:.45;stroke:#e69b00;stroke-width:4}"
    ".a-disputed{fill:#ff3b30;fill-opacity:.35;stroke:#c00;stroke-width:4}"
    ".r-scored{fill:none;stroke:#ffb000;stroke-width:6}"
    ".r-disputed{fill:none;stroke:#e0301e;stroke-width:6}"
    ".square{fill:none;stroke:#ff7f0e;stroke-width:5;stroke-dasharray:10 5}"
    ".square.illegal{stroke:#d00}"
    ".lbl{fill:#fff;stroke:#222;stroke-width:1.5}.lbt{font-size:12px;font-weight:bold}"
    ".cross{stroke:#c00;stroke-width:4;stroke-linecap:round}"
    ".cn{font-size:9px}.ct{font-size:8px;font-weight:bold;fill:#5a3d20}"
    ".pc{font-size:14px;font-weight:bold;fill:#fff}"
    ".fig{stroke:#111;stroke-width:1.2}";

// Adds the rule of each figure look in `kinds` not yet in `seen` (FigureArt::look, css).
void AddLooks(const std::vector<model::FigureKindDef>& kinds, std::set<std::string_view>& seen,
              std::string& style) {
  for (const model::FigureKindDef& k : kinds)
    if (!k.art.look.empty() && seen.insert(k.art.look).second)
      style += "." + std::string(k.art.look) + "{" + std::string(k.art.css) + "}";
}

// The style sheet: the fixed part, the looks of every registered module's figures (the same
// sheet whichever modules a position enables), then any look only `cfg` declares (a module
// outside the registry, e.g. a test's).
std::string Style(const model::GameConfig& cfg) {
  static const std::pair<std::string, std::set<std::string_view>> registered = [] {
    std::pair<std::string, std::set<std::string_view>> r{kStyle, {}};
    AddLooks(model::MakeConfig({}, exp::All())->figure_kinds, r.second, r.first);
    return r;
  }();
  std::string style = registered.first;
  std::set<std::string_view> seen = registered.second;
  AddLooks(cfg.figure_kinds, seen, style);
  return style;
}

constexpr const char* kMeeple =
    "M0 -12 C4 -12 5.5 -8 3.5 -5.5 L10.5 -2.5 C12.5 -1.5 12 1.5 9.5 1.5 L5 0.5 L9 11 H2 L0 6 "
    "L-2 11 H-9 L-5 0.5 L-9.5 1.5 C-12 1.5 -12.5 -1.5 -10.5 -2.5 L-3.5 -5.5 C-5.5 -8 -4 -12 0 -12 Z";

}  // namespace

std::string Esc(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Text(double x, double y, const std::string& s, const std::string& cls,
                 const std::string& extra) {
  return "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\"" +
         (cls.empty() ? "" : " class=\"" + cls + "\"") + extra + ">" + Esc(s) + "</text>\n";
}

std::string PathEl(const std::string& cls, const std::string& d) {
  return "<path class=\"" + cls + "\" d=\"" + d + "\"/>\n";
}

std::vector<std::string> Wrap(const std::string& s, size_t width) {
  std::vector<std::string> out;
  std::string rest = s;
  while (rest.size() > width) {
    const size_t indent = out.empty() ? 0 : 4;  // continuation lines start with 4 spaces
    size_t cut = rest.rfind(' ', width);
    if (cut == std::string::npos || cut <= indent) cut = width;  // no space: a hard break
    out.push_back(rest.substr(0, cut));
    rest = rest.substr(cut == width ? cut : cut + 1);
    if (!rest.empty()) rest = "    " + rest;
  }
  out.push_back(rest);
  return out;
}

std::string FigureSvg(const model::FigureKindDef& kind, int owner, bool lying, double x, double y,
                      const std::string& tip) {
  const model::FigureArt& art = kind.art;
  std::string colour = kPalette[((owner % 6) + 6) % 6];
  std::string o = "<g transform=\"translate(" + Num(x) + " " + Num(y) + ")" +
                  (lying ? " rotate(90)" : "") + "\">";
  if (!tip.empty()) o += "<title>" + Esc(tip) + "</title>";
  const std::string cls = "fig" + (art.look.empty() ? "" : " " + std::string(art.look));
  const std::string stroke = art.outline ? " stroke=\"" + colour + "\"" : "";
  switch (art.shape) {
    case model::FigureArt::Shape::kMeeple:
      o += "<path class=\"" + cls + "\" fill=\"" + colour + "\"" + stroke + " d=\"" + kMeeple +
           "\"/>";
      break;
    case model::FigureArt::Shape::kDisc:  // a disc with the kind's initial
      o += "<circle class=\"" + cls + "\" r=\"10\" fill=\"" + colour + "\"" + stroke + "/>" +
           Text(-4, 4, std::string(1, kind.name.empty() ? '?' : kind.name[0]));
      break;
  }
  return o + "</g>\n";
}

namespace {

// One tile at (x, y) (pixels, north-west corner); `mark` gives a segment's highlight, if any.
template <typename MarkOf>
std::string Tile(const model::RotatedTile& rt, const std::string& label, double x, double y,
                 double scale, MarkOf mark) {
  std::string o = "<g transform=\"translate(" + Num(x) + " " + Num(y) + ")" +
                  (scale != 1 ? " scale(" + Num(scale) + ")" : "") + "\">\n";
  o += "<rect class=\"field\" width=\"100\" height=\"100\"/>\n";
  for (const Shape& s : DescribeTile(rt)) {
    std::optional<Mark> m = s.segment >= 0 ? mark(s.segment) : std::nullopt;
    std::string hl = !m ? "" : *m == Mark::kScored ? "scored" : "disputed";
    switch (s.role) {
      case Role::kField:
        if (m) o += PathEl("f-" + hl, s.path);
        break;
      case Role::kRoad:
        o += PathEl("roadc", s.path) + PathEl("road", s.path);
        if (m) o += PathEl("r-" + hl, s.path);
        break;
      case Role::kCity:
        o += PathEl("city", s.path);
        if (m) o += PathEl("a-" + hl, s.path);
        break;
      case Role::kMonastery:
        o += PathEl("monastery", s.path);
        if (m) o += PathEl("a-" + hl, s.path);
        break;
      case Role::kShield: o += PathEl("shield", s.path); break;
      case Role::kJunction: o += PathEl("junction", s.path); break;
    }
  }
  o += "<rect class=\"edge\" width=\"100\" height=\"100\"/>\n";
  o += Text(3, 11, label, "tl");
  return o + "</g>\n";
}

}  // namespace

std::string RenderSvg(const Position& pos, const Picture& pic) {
  const model::Board& b = pos.board;
  const model::TileCatalog& cat = b.catalog();
  // Board extent: every tile and the square in question, with one empty ring around. Hostile
  // input: a square in question more than kSquareReach squares beyond the tiles is
  // not drawn (one at (1000000, -1000000) or INT_MAX drew for ever), and the empty grid only
  // while the extent holds at most kMaxGridCells squares (tiles are always drawn).
  constexpr int64_t kSquareReach = 16;
  constexpr int64_t kMaxGridCells = 40000;
  std::vector<Coord> cells;
  for (int i = 0; i < b.size(); ++i) cells.push_back(b.tile(i).pos);
  if (cells.empty()) cells.push_back({0, 0});
  int x0 = cells[0].x, x1 = x0, y0 = cells[0].y, y1 = y0;
  for (Coord c : cells) {
    x0 = std::min(x0, c.x - 1), x1 = std::max(x1, c.x + 1);
    y0 = std::min(y0, c.y - 1), y1 = std::max(y1, c.y + 1);
  }
  std::optional<Coord> square = pic.square;
  if (square && (square->x < x0 - kSquareReach || square->x > x1 + kSquareReach ||
                 square->y < y0 - kSquareReach || square->y > y1 + kSquareReach))
    square.reset();
  if (square) {
    x0 = std::min(x0, square->x - 1), x1 = std::max(x1, square->x + 1);
    y0 = std::min(y0, square->y - 1), y1 = std::max(y1, square->y + 1);
  }
  const bool grid = (int64_t{x1} - x0 + 1) * (int64_t{y1} - y0 + 1) <= kMaxGridCells;
  auto px = [&](int x) { return kMargin + (x - x0) * kTileSize; };
  auto py = [&](int y) { return kMargin + (y - y0) * kTileSize; };
  const double board_w = (x1 - x0 + 1) * kTileSize, board_h = (y1 - y0 + 1) * kTileSize;

  std::string body;
  // Grid and axis labels (x east, y south).
  for (int x = x0; grid && x <= x1; ++x) body += Text(px(x) + 50, kMargin - 10, std::to_string(x), "ax", " text-anchor=\"middle\"");
  for (int y = y0; grid && y <= y1; ++y) body += Text(kMargin - 8, py(y) + 54, std::to_string(y), "ax", " text-anchor=\"end\"");
  for (int x = x0; grid && x <= x1; ++x)
    for (int y = y0; y <= y1; ++y)
      body += "<rect class=\"cell\" x=\"" + Num(px(x)) + "\" y=\"" + Num(py(y)) +
              "\" width=\"100\" height=\"100\"/>\n";
  body += Text(kMargin + board_w, kMargin - 24, "x \u2192 east, y \u2193 south", "ax", " text-anchor=\"end\"");

  for (int i = 0; i < b.size(); ++i) {
    const model::PlacedTile& t = b.tile(i);
    auto mark = [&](int seg) -> std::optional<Mark> {
      auto it = pic.features.find(b.Find(model::Board::Node(i, seg)));
      if (it == pic.features.end()) return std::nullopt;
      return it->second;
    };
    body += Tile(b.rotated(i), cat.Name(t.type) + (t.rotation ? " " + std::to_string(90 * t.rotation) : ""),
                 px(t.pos.x), py(t.pos.y), 1, mark);
  }
  if (square)
    body += "<rect class=\"square" + std::string(pic.square_illegal ? " illegal" : "") +
            "\" x=\"" + Num(px(square->x) + 2.5) + "\" y=\"" + Num(py(square->y) + 2.5) +
            "\" width=\"95\" height=\"95\"/>\n";
  // The tile's name again, over the dashed square, so that it stays legible.
  if (square)
    if (auto at = b.At(*square); at && *at >= 0) {
      const model::PlacedTile& t = b.tile(*at);
      body += "<g transform=\"translate(" + Num(px(t.pos.x)) + " " + Num(py(t.pos.y)) + ")\">" +
              Text(3, 11, cat.Name(t.type) + (t.rotation ? " " + std::to_string(90 * t.rotation) : ""), "tl") +
              "</g>\n";
    }

  // Figures on the segment they occupy; figures sharing a segment step aside. A figure lies when
  // its posture says so (a farmer) or when an expansion laid its feature down (Christmas
  // Present's lay-down cards, XMAS-FN11): drawn on its side.
  std::map<int, int> on_node;
  const std::set<int> laid_down = LaidDownRoots(pos);
  bool any_laid_down = false;
  const std::vector<model::FigureKindDef>& kinds = pos.cfg().figure_kinds;
  std::vector<bool> kind_shown(kinds.size(), false);  // for the key lines of looks (FigureArt)
  for (const model::Figure& f : pos.figures) {
    const int tile = model::Board::TileOf(f.node), seg = model::Board::SegmentOf(f.node);
    const model::RotatedTile& rt = b.rotated(tile);
    Point a = SegmentAnchor(rt, seg);
    const Coord c = b.tile(tile).pos;
    const int k = on_node[f.node]++;
    const std::string kind = pos.cfg().figure_kinds[f.kind].name;
    const std::string owner = f.owner < static_cast<int>(pos.players.size()) ? pos.players[f.owner].name : "?";
    const bool field = rt.segments[seg].kind == model::FeatureKind::kField;
    const bool laid = !field && (f.lying || laid_down.count(b.Find(f.node)) > 0);
    any_laid_down |= laid;
    kind_shown[f.kind] = true;
    body += FigureSvg(kinds[f.kind], f.owner, f.lying || laid, px(c.x) + a.x * kTileSize + 16 * k,
                      py(c.y) + a.y * kTileSize,
                      owner + ": " + kind + (laid ? " lying (laid down)" : "") + " on " +
                          model::FeatureName(rt, seg) + " at (" + std::to_string(c.x) + ", " +
                          std::to_string(c.y) + ")");
  }

  for (const model::Figure& f : pic.returned) {
    const int tile = model::Board::TileOf(f.node), seg = model::Board::SegmentOf(f.node);
    if (tile < 0 || tile >= b.size()) continue;
    const model::RotatedTile& rt = b.rotated(tile);
    const Point a = SegmentAnchor(rt, seg);
    const Coord c = b.tile(tile).pos;
    const std::string kind = pos.cfg().figure_kinds[f.kind].name;
    const std::string owner =
        f.owner < static_cast<int>(pos.players.size()) ? pos.players[f.owner].name : "?";
    // Laid down as it stood (XMAS-FN11), so it lies faded as it lay.
    const bool laid = rt.segments[seg].kind != model::FeatureKind::kField &&
                      (f.lying || laid_down.count(b.Find(f.node)) > 0);
    any_laid_down |= laid;
    body += "<g opacity=\".4\">" +
            FigureSvg(kinds[f.kind], f.owner, f.lying || laid, px(c.x) + a.x * kTileSize + 16 * on_node[f.node]++,
                      py(c.y) + a.y * kTileSize,
                      owner + ": " + kind + (laid ? " lying (laid down)" : "") + " on " +
                          model::FeatureName(rt, seg) + " at (" +
                          std::to_string(c.x) + ", " + std::to_string(c.y) +
                          "), returned by the ruling") +
            "</g>\n";
  }

  // Incomplete cities a scored farm touches: crossed out on each of their tiles.
  for (int root : pic.crossed)
    for (int i = 0; i < b.size(); ++i) {
      const model::RotatedTile& rt = b.rotated(i);
      for (size_t seg = 0; seg < rt.segments.size(); ++seg) {
        if (b.Find(model::Board::Node(i, static_cast<int>(seg))) != b.Find(root)) continue;
        const Point a = SegmentAnchor(rt, static_cast<int>(seg));
        const double cx = px(b.tile(i).pos.x) + a.x * kTileSize,
                     cy = py(b.tile(i).pos.y) + a.y * kTileSize;
        body += "<path class=\"cross\" d=\"M" + Num(cx - 12) + " " + Num(cy - 12) + " L" +
                Num(cx + 12) + " " + Num(cy + 12) + " M" + Num(cx + 12) + " " + Num(cy - 12) +
                " L" + Num(cx - 12) + " " + Num(cy + 12) + "\"/>\n";
      }
    }
  // Numbered labels of the scored features, as the caption numbers the score events.
  std::map<int, int> labels_on;  // node -> labels already there
  for (const auto& [number, node] : pic.labels) {
    const int tile = model::Board::TileOf(node);
    if (tile < 0 || tile >= b.size()) continue;
    const Point a = SegmentAnchor(b.rotated(tile), model::Board::SegmentOf(node));
    const int k = labels_on[node]++;
    const double cx = px(b.tile(tile).pos.x) + a.x * kTileSize + 16 + 22 * k,
                 cy = py(b.tile(tile).pos.y) + a.y * kTileSize - 14;
    body += "<circle class=\"lbl\" cx=\"" + Num(cx) + "\" cy=\"" + Num(cy) + "\" r=\"10\"/>\n";
    body += Text(cx, cy + 4.5, std::to_string(number), "lbt", " text-anchor=\"middle\"");
  }

  // Legend: title, rules, turn, tile in hand, players, supply, expansion state, key.
  const double lx = kMargin + board_w + 30;
  double ly = kMargin;
  std::string legend;
  auto line = [&](const std::string& s, const std::string& cls = "") {
    for (const std::string& part : Wrap(s, 40)) {
      legend += Text(lx, ly, part, cls);
      ly += kLine;
    }
  };
  if (!pic.title.empty()) line(pic.title, "h");
  std::string rules = "Rules: " + std::string(model::EditionName(pos.cfg().options.edition));
  for (const auto* e : pos.cfg().expansions) rules += " + " + std::string(e->Id());
  line(rules);
  std::string who = pos.turn.player < static_cast<int>(pos.players.size()) ? pos.players[pos.turn.player].name : "?";
  line(pos.turn.game_over ? "Game over"
       : !pic.step.empty() ? pic.step
                           : "Turn: " + who + ", step " + std::string(pos.current_step().Name()));
  if (pos.turn.drawn) {
    line("Tile in hand: " + cat.Name(*pos.turn.drawn) + " (shown at rotation 0)");
    legend += Tile(cat.rotated(*pos.turn.drawn, 0), cat.Name(*pos.turn.drawn), lx, ly - 8, 0.7,
                   [](int) { return std::optional<Mark>(); });
    ly += 74;
  }
  ly += 6;
  line("Players (score, figures in supply)", "h");
  for (size_t p = 0; p < pos.players.size(); ++p) {
    const model::Player& pl = pos.players[p];
    std::string s = pl.name + "  " + std::to_string(pl.score);
    if (p < pic.scores_after.size() && pic.scores_after[p] != pl.score)
      s += " \u2192 " + std::to_string(pic.scores_after[p]);
    for (size_t k = 0; k < pl.supply.size(); ++k)
      s += (k ? ", " : "  ") + pos.cfg().figure_kinds[k].name + " " + std::to_string(pl.supply[k]);
    legend += FigureSvg(kinds[model::kMeeple], static_cast<int>(p), false, lx + 10, ly - 4, "");
    legend += Text(lx + 28, ly, s);
    ly += kLine + 8;
  }
  std::string tiles = "Tiles left: " + std::to_string(pos.supply.total());
  if (pos.supply.ordered && !pos.supply.order.empty()) {
    tiles += " (next:";
    for (size_t i = 0; i < pos.supply.order.size() && i < 6; ++i) tiles += " " + cat.Name(pos.supply.order[i]);
    tiles += pos.supply.order.size() > 6 ? " ...)" : ")";
  }
  line(tiles);
  if (!pos.cfg().expansions.empty()) {
    ly += 6;
    legend += ExpansionLegend(pos, lx, ly);
  }
  ly += 6;
  // The key lists only what the picture shows.
  if (square) {
    legend += "<rect class=\"square" + std::string(pic.square_illegal ? " illegal" : "") + "\" x=\"" + Num(lx) + "\" y=\"" + Num(ly - 12) + "\" width=\"22\" height=\"14\"/>\n";
    legend += Text(lx + 30, ly, pic.square_illegal ? "the square of the illegal placement" : "the square in question");
    ly += kLine + 4;
  }
  bool scored = false, disputed = false;
  for (const auto& [root, m] : pic.features) (m == Mark::kScored ? scored : disputed) = true;
  if (scored) {
    legend += "<rect class=\"a-scored\" x=\"" + Num(lx) + "\" y=\"" + Num(ly - 12) + "\" width=\"22\" height=\"14\"/>\n";
    legend += Text(lx + 30, ly, pic.labels.empty() ? "scored in the ruling" : "scored in the ruling (numbers: see caption)");
    ly += kLine + 4;
  }
  for (size_t k = 0; k < kinds.size(); ++k)  // a figure of a look of its own, when shown
    if (kind_shown[k] && !kinds[k].art.key.empty()) {
      legend += FigureSvg(kinds[k], 3, false, lx + 11, ly - 5, "");
      legend += Text(lx + 30, ly, std::string(kinds[k].art.key));
      ly += kLine + 4;
    }
  if (!pic.returned.empty()) {
    legend += "<g opacity=\".4\">" + FigureSvg(kinds[model::kMeeple], 3, false, lx + 11, ly - 5, "") + "</g>";
    legend += Text(lx + 30, ly, "faded: returned to its owner in the ruling");
    ly += kLine + 4;
  }
  if (any_laid_down) {
    legend += FigureSvg(kinds[model::kMeeple], 3, true, lx + 11, ly - 5, "");
    legend += Text(lx + 30, ly, "on its side off a field: laid down, lies");
    ly += kLine + 4;
  }
  if (!pic.crossed.empty()) {
    legend += "<path class=\"cross\" d=\"M" + Num(lx + 5) + " " + Num(ly - 12) + " L" + Num(lx + 17) + " " + Num(ly) + " M" + Num(lx + 17) + " " + Num(ly - 12) + " L" + Num(lx + 5) + " " + Num(ly) + "\"/>\n";
    legend += Text(lx + 30, ly, "incomplete city: pays the farm nothing");
    ly += kLine + 4;
  }
  if (disputed) {
    legend += "<rect class=\"a-disputed\" x=\"" + Num(lx) + "\" y=\"" + Num(ly - 12) + "\" width=\"22\" height=\"14\"/>\n";
    legend += Text(lx + 30, ly, "feature of the illegal action");
    ly += kLine;
  }

  // Caption under the board and the legend.
  const double width = lx + kLegend;
  double cy = std::max(kMargin + board_h, ly) + 28;
  std::string caption;
  const size_t chars = static_cast<size_t>((width - 2 * 12) / 7.4);
  for (size_t i = 0; i < pic.caption.size(); ++i)
    for (const std::string& part : Wrap(pic.caption[i], chars)) {
      const size_t indent = std::min(part.find_first_not_of(' '), part.size());  // XML drops it
      caption += Text(12 + 7 * indent, cy, part.substr(indent), i == 0 ? "h" : "");
      cy += kLine;
    }
  const double height = cy + 4;

  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Num(width) + "\" height=\"" +
         Num(height) + "\" viewBox=\"0 0 " + Num(width) + " " + Num(height) + "\">\n<style>" +
         Style(pos.cfg()) + "</style>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n" + body +
         legend + caption + "</svg>\n";
}

}  // namespace carc::render

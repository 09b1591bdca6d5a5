#include "model/render/svg.h"

#include <algorithm>
#include <set>

#include "model/core/position_io.h"
#include "model/core/scoring.h"
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

namespace {

// The board's extent in squares and where a square is drawn.
struct Frame {
  int x0, x1, y0, y1;
  std::optional<Coord> square;  // the square in question, when drawn
  bool grid;                    // the empty squares and axis labels are drawn
  double board_w, board_h;
  double px(int x) const { return kMargin + (x - x0) * kTileSize; }
  double py(int y) const { return kMargin + (y - y0) * kTileSize; }
};

// What the figures drawn put in the key.
struct Shown {
  std::vector<bool> kinds;  // a kind of figure drawn (for the key lines of looks, FigureArt)
  bool laid_down = false;   // a figure drawn lying off a field
};

// Board extent: every tile and the square in question, with one empty ring around. Hostile
// input: a square in question more than kSquareReach squares beyond the tiles is not drawn (one
// at (1000000, -1000000) or INT_MAX drew for ever), and the empty grid only while the extent
// holds at most kMaxGridCells squares (tiles are always drawn).
Frame BoardFrame(const model::Board& b, const Picture& pic) {
  constexpr int64_t kSquareReach = 16;
  constexpr int64_t kMaxGridCells = 40000;
  std::vector<Coord> cells;
  for (int i = 0; i < b.size(); ++i) cells.push_back(b.tile(i).pos);
  if (cells.empty()) cells.push_back({0, 0});
  Frame f;
  f.x0 = f.x1 = cells[0].x;
  f.y0 = f.y1 = cells[0].y;
  for (Coord c : cells) {
    f.x0 = std::min(f.x0, c.x - 1), f.x1 = std::max(f.x1, c.x + 1);
    f.y0 = std::min(f.y0, c.y - 1), f.y1 = std::max(f.y1, c.y + 1);
  }
  f.square = pic.square;
  if (f.square && (f.square->x < f.x0 - kSquareReach || f.square->x > f.x1 + kSquareReach ||
                   f.square->y < f.y0 - kSquareReach || f.square->y > f.y1 + kSquareReach))
    f.square.reset();
  if (f.square) {
    f.x0 = std::min(f.x0, f.square->x - 1), f.x1 = std::max(f.x1, f.square->x + 1);
    f.y0 = std::min(f.y0, f.square->y - 1), f.y1 = std::max(f.y1, f.square->y + 1);
  }
  f.grid = (int64_t{f.x1} - f.x0 + 1) * (int64_t{f.y1} - f.y0 + 1) <= kMaxGridCells;
  f.board_w = (f.x1 - f.x0 + 1) * kTileSize, f.board_h = (f.y1 - f.y0 + 1) * kTileSize;
  return f;
}

std::string TileLabel(const model::TileCatalog& cat, const model::PlacedTile& t) {
  return cat.Name(t.type) + (t.rotation ? " " + std::to_string(90 * t.rotation) : "");
}

// Grid and axis labels (x east, y south), the tiles, the square in question.
std::string BoardSvg(const model::Board& b, const Picture& pic, const Frame& f) {
  const model::TileCatalog& cat = b.catalog();
  std::string body;
  for (int x = f.x0; f.grid && x <= f.x1; ++x)
    body += Text(f.px(x) + 50, kMargin - 10, std::to_string(x), "ax", " text-anchor=\"middle\"");
  for (int y = f.y0; f.grid && y <= f.y1; ++y)
    body += Text(kMargin - 8, f.py(y) + 54, std::to_string(y), "ax", " text-anchor=\"end\"");
  for (int x = f.x0; f.grid && x <= f.x1; ++x)
    for (int y = f.y0; y <= f.y1; ++y)
      body += "<rect class=\"cell\" x=\"" + Num(f.px(x)) + "\" y=\"" + Num(f.py(y)) +
              "\" width=\"100\" height=\"100\"/>\n";
  body += Text(kMargin + f.board_w, kMargin - 24, "x \u2192 east, y \u2193 south", "ax",
               " text-anchor=\"end\"");
  for (int i = 0; i < b.size(); ++i) {
    const model::PlacedTile& t = b.tile(i);
    auto mark = [&](int seg) -> std::optional<Mark> {
      auto it = pic.features.find(b.Find(model::Board::Node(i, seg)));
      if (it == pic.features.end()) return std::nullopt;
      return it->second;
    };
    body += Tile(b.rotated(i), TileLabel(cat, t), f.px(t.pos.x), f.py(t.pos.y), 1, mark);
  }
  if (f.square)
    body += "<rect class=\"square" + std::string(pic.square_illegal ? " illegal" : "") +
            "\" x=\"" + Num(f.px(f.square->x) + 2.5) + "\" y=\"" + Num(f.py(f.square->y) + 2.5) +
            "\" width=\"95\" height=\"95\"/>\n";
  // The tile's name again, over the dashed square, so that it stays legible.
  if (f.square)
    if (auto at = b.At(*f.square); at && *at >= 0) {
      const model::PlacedTile& t = b.tile(*at);
      body += "<g transform=\"translate(" + Num(f.px(t.pos.x)) + " " + Num(f.py(t.pos.y)) +
              ")\">" + Text(3, 11, TileLabel(cat, t), "tl") + "</g>\n";
    }
  return body;
}

// One figure where it stands: on the segment it occupies, stepped aside by the `k` figures
// already there. A figure lies when its posture says so (a farmer) or when an expansion laid
// its feature down (Christmas Present's lay-down cards, XMAS-FN11): drawn on its side.
std::string PlacedFigure(const Position& pos, const Frame& f, const model::Figure& fig, int k,
                         const std::set<int>& laid_down, const std::string& tip_end,
                         bool& laid) {
  const model::Board& b = pos.board;
  const int tile = model::Board::TileOf(fig.node), seg = model::Board::SegmentOf(fig.node);
  const model::RotatedTile& rt = b.rotated(tile);
  const Point a = SegmentAnchor(rt, seg);
  const Coord c = b.tile(tile).pos;
  // Named by its role on the feature (a meeple on a city is a knight), as the verdict names it.
  const std::string kind = model::FigureRole(pos, fig.kind, rt.segments[seg].kind);
  const std::string owner =
      fig.owner < static_cast<int>(pos.players.size()) ? pos.players[fig.owner].name : "?";
  laid = rt.segments[seg].kind != model::FeatureKind::kField &&
         (fig.lying || laid_down.count(b.Find(fig.node)) > 0);
  return FigureSvg(pos.cfg().figure_kinds[fig.kind], fig.owner, fig.lying || laid,
                   f.px(c.x) + a.x * kTileSize + 16 * k, f.py(c.y) + a.y * kTileSize,
                   owner + ": " + kind + (laid ? " lying (laid down)" : "") + " on " +
                       model::FeatureName(rt, seg) + " at (" + std::to_string(c.x) + ", " +
                       std::to_string(c.y) + ")" + tip_end);
}

// The figures on the board, then those the ruling returned (faded, where they stood).
std::string FiguresSvg(const Position& pos, const Picture& pic, const Frame& f, Shown& shown) {
  std::string body;
  std::map<int, int> on_node;
  const std::set<int> laid_down = LaidDownRoots(pos);
  shown.kinds.assign(pos.cfg().figure_kinds.size(), false);
  for (const model::Figure& fig : pos.figures) {
    bool laid = false;
    const int k = on_node[fig.node]++;
    body += PlacedFigure(pos, f, fig, k, laid_down, "", laid);
    shown.laid_down |= laid;
    shown.kinds[fig.kind] = true;
  }
  for (const model::Figure& fig : pic.returned) {
    const int tile = model::Board::TileOf(fig.node);
    if (tile < 0 || tile >= pos.board.size()) continue;
    // Laid down as it stood (XMAS-FN11), so it lies faded as it lay.
    bool laid = false;
    const std::string svg =
        PlacedFigure(pos, f, fig, on_node[fig.node]++, laid_down, ", returned by the ruling", laid);
    shown.laid_down |= laid;
    body += "<g opacity=\".4\">" + svg + "</g>\n";
  }
  return body;
}

// Incomplete cities a scored farm touches, crossed out on each of their tiles; numbered labels
// of the scored features, as the caption numbers the score events.
std::string MarksSvg(const model::Board& b, const Picture& pic, const Frame& f) {
  std::string body;
  for (int root : pic.crossed)
    for (int i = 0; i < b.size(); ++i) {
      const model::RotatedTile& rt = b.rotated(i);
      for (size_t seg = 0; seg < rt.segments.size(); ++seg) {
        if (b.Find(model::Board::Node(i, static_cast<int>(seg))) != b.Find(root)) continue;
        const Point a = SegmentAnchor(rt, static_cast<int>(seg));
        const double cx = f.px(b.tile(i).pos.x) + a.x * kTileSize,
                     cy = f.py(b.tile(i).pos.y) + a.y * kTileSize;
        body += "<path class=\"cross\" d=\"M" + Num(cx - 12) + " " + Num(cy - 12) + " L" +
                Num(cx + 12) + " " + Num(cy + 12) + " M" + Num(cx + 12) + " " + Num(cy - 12) +
                " L" + Num(cx - 12) + " " + Num(cy + 12) + "\"/>\n";
      }
    }
  std::map<int, int> labels_on;  // node -> labels already there
  for (const auto& [number, node] : pic.labels) {
    const int tile = model::Board::TileOf(node);
    if (tile < 0 || tile >= b.size()) continue;
    const Point a = SegmentAnchor(b.rotated(tile), model::Board::SegmentOf(node));
    const int k = labels_on[node]++;
    const double cx = f.px(b.tile(tile).pos.x) + a.x * kTileSize + 16 + 22 * k,
                 cy = f.py(b.tile(tile).pos.y) + a.y * kTileSize - 14;
    body += "<circle class=\"lbl\" cx=\"" + Num(cx) + "\" cy=\"" + Num(cy) + "\" r=\"10\"/>\n";
    body += Text(cx, cy + 4.5, std::to_string(number), "lbt", " text-anchor=\"middle\"");
  }
  return body;
}

// The legend's text part: title, rules, turn, tile in hand, players, supply, expansion state.
std::string LegendState(const Position& pos, const Picture& pic, double lx, double& ly) {
  const model::TileCatalog& cat = pos.board.catalog();
  const std::vector<model::FigureKindDef>& kinds = pos.cfg().figure_kinds;
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
  std::string who = pos.turn.player < static_cast<int>(pos.players.size())
                        ? pos.players[pos.turn.player].name
                        : "?";
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
      s += (k ? ", " : "  ") + kinds[k].name + " " + std::to_string(pl.supply[k]);
    legend += FigureSvg(kinds[model::kMeeple], static_cast<int>(p), false, lx + 10, ly - 4, "");
    legend += Text(lx + 28, ly, s);
    ly += kLine + 8;
  }
  std::string tiles = "Tiles left: " + std::to_string(pos.supply.total());
  if (pos.supply.ordered && !pos.supply.order.empty()) {
    tiles += " (next:";
    for (size_t i = 0; i < pos.supply.order.size() && i < 6; ++i)
      tiles += " " + cat.Name(pos.supply.order[i]);
    tiles += pos.supply.order.size() > 6 ? " ...)" : ")";
  }
  line(tiles);
  if (!pos.cfg().expansions.empty()) {
    ly += 6;
    legend += ExpansionLegend(pos, lx, ly);
  }
  ly += 6;
  return legend;
}

// A key entry: its sample, then its text at (lx + 30, ly).
std::string KeyRect(const std::string& cls, double lx, double ly) {
  return "<rect class=\"" + cls + "\" x=\"" + Num(lx) + "\" y=\"" + Num(ly - 12) +
         "\" width=\"22\" height=\"14\"/>\n";
}

// The key lists only what the picture shows.
std::string LegendKey(const Position& pos, const Picture& pic, const Frame& f,
                      const Shown& shown, double lx, double& ly) {
  const std::vector<model::FigureKindDef>& kinds = pos.cfg().figure_kinds;
  std::string legend;
  auto entry = [&](const std::string& sample, const std::string& text, double step) {
    legend += sample + Text(lx + 30, ly, text);
    ly += step;
  };
  if (f.square)
    entry(KeyRect(std::string("square") + (pic.square_illegal ? " illegal" : ""), lx, ly),
          pic.square_illegal ? "the square of the illegal placement" : "the square in question",
          kLine + 4);
  bool scored = false, disputed = false;
  for (const auto& [root, m] : pic.features) (m == Mark::kScored ? scored : disputed) = true;
  if (scored)
    entry(KeyRect("a-scored", lx, ly),
          pic.labels.empty() ? "scored in the ruling"
                             : "scored in the ruling (numbers: see caption)",
          kLine + 4);
  for (size_t k = 0; k < kinds.size(); ++k)  // a figure of a look of its own, when shown
    if (shown.kinds[k] && !kinds[k].art.key.empty())
      entry(FigureSvg(kinds[k], 3, false, lx + 11, ly - 5, ""), std::string(kinds[k].art.key),
            kLine + 4);
  if (!pic.returned.empty())
    entry("<g opacity=\".4\">" + FigureSvg(kinds[model::kMeeple], 3, false, lx + 11, ly - 5, "") +
              "</g>",
          "faded: returned to its owner in the ruling", kLine + 4);
  if (shown.laid_down)
    entry(FigureSvg(kinds[model::kMeeple], 3, true, lx + 11, ly - 5, ""),
          "on its side off a field: laid down, lies", kLine + 4);
  if (!pic.crossed.empty())
    entry("<path class=\"cross\" d=\"M" + Num(lx + 5) + " " + Num(ly - 12) + " L" +
              Num(lx + 17) + " " + Num(ly) + " M" + Num(lx + 17) + " " + Num(ly - 12) + " L" +
              Num(lx + 5) + " " + Num(ly) + "\"/>\n",
          "incomplete city: pays the farm nothing", kLine + 4);
  if (disputed) entry(KeyRect("a-disputed", lx, ly), "feature of the illegal action", kLine);
  return legend;
}

// The caption, wrapped to the picture's width, from `cy` down; `cy` ends below its last line.
std::string CaptionSvg(const Picture& pic, double width, double& cy) {
  std::string caption;
  const size_t chars = static_cast<size_t>((width - 2 * 12) / 7.4);
  for (size_t i = 0; i < pic.caption.size(); ++i)
    for (const std::string& part : Wrap(pic.caption[i], chars)) {
      const size_t indent = std::min(part.find_first_not_of(' '), part.size());  // XML drops it
      caption += Text(12 + 7 * indent, cy, part.substr(indent), i == 0 ? "h" : "");
      cy += kLine;
    }
  return caption;
}

}  // namespace

std::string RenderSvg(const Position& pos, const Picture& pic) {
  const Frame f = BoardFrame(pos.board, pic);
  Shown shown;
  const std::string body = BoardSvg(pos.board, pic, f) + FiguresSvg(pos, pic, f, shown) +
                           MarksSvg(pos.board, pic, f);
  // Legend beside the board, caption under both.
  const double lx = kMargin + f.board_w + 30;
  double ly = kMargin;
  std::string legend = LegendState(pos, pic, lx, ly);
  legend += LegendKey(pos, pic, f, shown, lx, ly);
  const double width = lx + kLegend;
  double cy = std::max(kMargin + f.board_h, ly) + 28;
  const std::string caption = CaptionSvg(pic, width, cy);
  const double height = cy + 4;
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Num(width) + "\" height=\"" +
         Num(height) + "\" viewBox=\"0 0 " + Num(width) + " " + Num(height) + "\">\n<style>" +
         Style(pos.cfg()) + "</style>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n" +
         body + legend + caption + "</svg>\n";
}

}  // namespace carc::render

// The modules' state beside the board, drawn from what each module's describe-state hook says
// (model/core/state_picture.h): headings and lines, cards face up, face-down piles with their
// counts, a scoring track. Which module said it is none of this file's business.
#include "model/render/expansion_art.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "model/core/core_steps.h"  // LaidDownByExpansion
#include "model/core/position_io.h"
#include "model/core/state_picture.h"
#include "model/render/svg_parts.h"
#include "model/render/tile_art.h"

namespace carc::render {

using model::Position;
using nlohmann::json;

namespace {

constexpr double kCardW = 68, kCardH = 48, kCardGap = 6;
constexpr int kCardsPerRow = 4;  // 4 x 68 + 3 x 6 = 290 px, inside the 300 px column
constexpr size_t kWrap = 40;     // characters per legend line, as svg.cc's
constexpr double kCell = 30;     // a scoring track's space

// A card's title in lines of at most 12 characters, broken at spaces (a longer word stays whole).
std::vector<std::string> CardLines(const std::string& title) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < title.size()) {
    size_t end = title.find(' ', at);
    if (end == std::string::npos) end = title.size();
    const std::string word = title.substr(at, end - at);
    if (!lines.empty() && lines.back().size() + 1 + word.size() <= 12)
      lines.back() += " " + word;
    else
      lines.push_back(word);
    at = end + 1;
  }
  return lines;
}

// The state's lines and drawings, appended in the legend column.
struct Column {
  const Position& pos;
  double x;
  double& y;
  std::string svg;

  void Line(const std::string& s, const std::string& cls = "") {
    for (const std::string& part : Wrap(s, kWrap)) {
      const size_t indent = std::min(part.find_first_not_of(' '), part.size());
      svg += Text(x + (indent ? 14 : 0), y, part.substr(indent), cls);
      y += kLine;
    }
  }
  // One card at (cx, cy), face up, its title written on it.
  void Card(double cx, double cy, const model::PictureCard& c) {
    svg += "<g class=\"card\"><title>" + Esc(c.tip) + "</title><rect x=\"" + Num(cx) + "\" y=\"" +
           Num(cy) + "\" width=\"" + Num(kCardW) + "\" height=\"" + Num(kCardH) +
           "\" rx=\"4\" fill=\"" + c.look.fill + "\" stroke=\"" + c.look.stroke +
           "\" stroke-width=\"1.5\"/>\n";
    std::vector<std::string> lines = CardLines(c.title);
    double ty = cy + 12 + (3 - std::min<size_t>(lines.size(), 3)) * 5;
    for (const std::string& l : lines) {
      svg += Text(cx + kCardW / 2, ty, l, "cn", " text-anchor=\"middle\"");
      ty += 10;
    }
    // The timing symbol sits at the foot of the card, as printed.
    if (c.lightning)
      svg += "<path fill=\"#e0a000\" stroke=\"#7a5200\" stroke-width=\".6\" d=\"M" +
             Num(cx + kCardW / 2 + 2) + " " + Num(cy + kCardH - 14) +
             " l-5 7 h4 l-3 6 l7 -8 h-4 l3 -5 z\"/>\n";
    else if (!c.foot.empty())
      svg += Text(cx + kCardW / 2, cy + kCardH - 4, c.foot, "ct", " text-anchor=\"middle\"");
    svg += "</g>\n";
  }
  // Cards in rows of four from the current line; y advanced past them.
  void Cards(const model::PictureCards& cards) {
    const std::vector<model::PictureCard>& cs = cards.cards;
    for (size_t i = 0; i < cs.size(); ++i)
      Card(x + (i % kCardsPerRow) * (kCardW + kCardGap),
           y - 8 + (i / kCardsPerRow) * (kCardH + kCardGap), cs[i]);
    if (!cs.empty()) y += ((cs.size() - 1) / kCardsPerRow + 1) * (kCardH + kCardGap) + 6;
  }
  // A face-down pile with its count written on its back, and its caption beside it.
  void Pile(const model::PicturePile& p) {
    const double px = x, py = y - 8;
    if (!p.tip.empty()) svg += "<g><title>" + Esc(p.tip) + "</title>";
    for (int k = std::min(p.count, 3) - 1; k >= 0; --k)
      svg += "<rect x=\"" + Num(px + 3 * k) + "\" y=\"" + Num(py + 3 * k) + "\" width=\"" +
             Num(kCardW * 0.6) + "\" height=\"" + Num(kCardH * 0.8) + "\" rx=\"3\" fill=\"" +
             p.back + "\" stroke=\"#fff\" stroke-width=\"1\"/>\n";
    if (p.count == 0)
      svg += "<rect x=\"" + Num(px) + "\" y=\"" + Num(py) + "\" width=\"" + Num(kCardW * 0.6) +
             "\" height=\"" + Num(kCardH * 0.8) + "\" rx=\"3\" fill=\"none\" stroke=\"#999\" " +
             "stroke-dasharray=\"3 2\"/>\n";
    svg += Text(px + kCardW * 0.3 + (p.count > 1 ? 3 : 0), py + kCardH * 0.5,
                std::to_string(p.count), "pc", " text-anchor=\"middle\"");
    if (!p.tip.empty()) svg += "</g>\n";
    const double y0 = y;
    const double save_x = x;
    x += kCardW * 0.6 + 14;
    for (const std::string& part : Wrap(p.caption, kWrap - 8)) {
      svg += Text(x, y, part.substr(std::min(part.find_first_not_of(' '), part.size())));
      y += kLine - 2;
    }
    x = save_x;
    y = std::max(y, y0 + kCardH * 0.8 + 4) + 6;
  }
  // The track from just under the line before it: its spaces numbered, the markers in their
  // players' colours, up to four to a space.
  void Track(const model::PictureTrack& t) {
    y -= 8;
    const int row = std::max(t.per_row, 1);
    for (int sp = 0; sp < t.spaces; ++sp) {
      const double cx = x + (sp % row) * kCell, cy = y + (sp / row) * kCell;
      const bool dark = t.dark_every > 0 && sp % t.dark_every == 0;
      svg += "<rect x=\"" + Num(cx) + "\" y=\"" + Num(cy) + "\" width=\"" + Num(kCell) +
             "\" height=\"" + Num(kCell) + "\" fill=\"" + (dark ? "#555" : "#f4efe2") +
             "\" stroke=\"#999\"/>\n";
      svg += "<text x=\"" + Num(cx + 2) + "\" y=\"" + Num(cy + 9) +
             "\" style=\"font-size:8px;fill:" + (dark ? "#fff" : "#666") + "\">" +
             std::to_string(sp) + "</text>\n";
    }
    for (const model::PictureTrack::Marker& m : t.markers) {
      const int sp = t.spaces > 0 ? ((m.points % t.spaces) + t.spaces) % t.spaces : 0;
      const double fx = x + (sp % row) * kCell + 9 + (m.place % 2) * 12;
      const double fy = y + (sp / row) * kCell + 15 + (m.place / 2 % 2) * 9;
      svg += "<g><title>" + Esc(m.tip) + "</title><circle cx=\"" + Num(fx) + "\" cy=\"" + Num(fy) +
             "\" r=\"5.5\" fill=\"" + kPalette[m.player % 6] +
             "\" stroke=\"#000\" stroke-width=\"0.8\"/>" + "<text x=\"" + Num(fx) + "\" y=\"" +
             Num(fy + 3) +
             "\" style=\"font-size:8px;font-weight:bold;fill:#fff\" text-anchor=\"middle\">" +
             Esc(m.letter) + "</text></g>\n";
    }
    y += (t.spaces + row - 1) / row * kCell + 20;
  }
  void Draw(const model::StatePicture& picture) {
    for (const model::PictureItem& item : picture.items)
      std::visit(
          [&](const auto& it) {
            using T = std::decay_t<decltype(it)>;
            if constexpr (std::is_same_v<T, model::PictureLine>)
              Line(it.text, it.heading ? "h" : "");
            else if constexpr (std::is_same_v<T, model::PictureCards>)
              Cards(it);
            else if constexpr (std::is_same_v<T, model::PicturePile>)
              Pile(it);
            else
              Track(it);
          },
          item);
  }
};

}  // namespace

std::set<int> LaidDownRoots(const Position& pos) {
  std::set<int> roots;
  for (size_t f = 0; f < pos.figures.size(); ++f)
    if (model::LaidDownByExpansion(pos, static_cast<int>(f)))
      roots.insert(pos.board.Find(pos.figures[f].node));
  return roots;
}

std::string ExpansionLegend(const Position& pos, double x, double& y) {
  Column col{pos, x, y, ""};
  const json dumped = model::DumpPosition(pos);
  for (const model::ModuleDecl& m : pos.cfg().modules) {
    const std::string id(m.module->Id());
    const json state =
        dumped.contains("expansions") ? dumped["expansions"].value(id, json()) : json();
    model::StatePicture picture;
    if (!m.state.make)
      picture.Line(id + ": (no state of its own)");
    else if (state.is_null() || state.empty())
      picture.Line(id + ": (all at defaults)");
    else if (!m.hooks.describe_state.empty())
      m.hooks.describe_state.front().fn(pos, state, picture);
    else
      model::FlattenInto(state, id, picture);
    col.Draw(picture);
    y += 4;
  }
  return col.svg;
}

}  // namespace carc::render

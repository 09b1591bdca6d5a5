#pragma once
// Pieces of SVG shared by the board picture (svg.cc) and the expansion state drawn beside it
// (expansion_art.cc). Internal to model/render.

#include <string>
#include <vector>

#include "model/core/expansion.h"

namespace carc::render {

// Player colours, by player index (mod 6).
inline constexpr const char* kPalette[6] = {"#d62728", "#1f5fd6", "#f2c40f",
                                            "#222222", "#9b30c8", "#f4f4f4"};
inline constexpr double kLine = 18;  // legend line height

std::string Esc(const std::string& s);  // XML escaping of text and attribute values
std::string Text(double x, double y, const std::string& s, const std::string& cls = "",
                 const std::string& extra = "");
std::string PathEl(const std::string& cls, const std::string& d);
// Splits text into lines of at most `width` characters, at spaces where possible; continuation
// lines start with 4 spaces.
std::vector<std::string> Wrap(const std::string& s, size_t width);
// A figure of `kind` in its owner's colour centred at (x, y), drawn as its art declares
// (FigureArt); `lying` draws it on its side.
std::string FigureSvg(const model::FigureKindDef& kind, int owner, bool lying, double x, double y,
                      const std::string& tip);

}  // namespace carc::render

#pragma once
// PNG from the SVG pictures, drawn with librsvg (Debian librsvg2-dev). `carc render --png` and
// `carc adjudicate --png` (adjudicator/cmd_render.cc) call this.

#include <string>

#include "model/core/status.h"

namespace carc::render {

// True when the binary was built with librsvg (CMake found librsvg-2.0 with pkg-config).
bool PngAvailable();

// The PNG file (bytes) of an SVG picture, at the picture's own size in pixels, or scaled down
// (aspect kept) to at most 16384 pixels a side and 32 M pixels in all: a board of any width
// is drawn.
// Errors: kUnknownRules (69, sysexits "unavailable") when built without librsvg; kInternal when
// librsvg cannot read or draw the picture.
model::StatusOr<std::string> SvgToPng(const std::string& svg);

}  // namespace carc::render

// The PNG functions of the static `carc` (adjudicator/CMakeLists.txt): linked before
// libcarc_render.a, so model/render/png.cc and its dlopen of librsvg stay out of the binary (a
// static executable cannot load librsvg, which needs the shared libc). main.cc runs every
// command line naming --png in build/carc-serve, so these are reached only by a command line
// that draws a PNG without naming --png, which none does.
#include "model/render/png.h"

namespace carc::render {

bool PngAvailable() { return false; }

model::StatusOr<std::string> SvgToPng(const std::string&) {
  return model::Status(model::ErrorCode::kInternal,
                       "this static carc draws PNGs in build/carc-serve (run with --png)");
}

}  // namespace carc::render

// libFuzzer target: bytes -> position file -> `carc render` (RenderPositionFile) and
// `carc adjudicate --svg` (RunJson, then RenderRuling). No crash, hang, sanitizer report or
// uncaught exception; a picture may not grow with the coordinates (svg.cc draw-area cap).
#include <cstddef>
#include <cstdint>

#include "adjudicator/adjudicate.h"
#include "model/render/svg.h"
#include "property-tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto doc = carc::fuzz::ReadLikeAFile(data, size, "fuzz.json");
  if (!doc) return 0;
  (void)carc::render::RenderPositionFile(*doc, "fuzz.json");
  // Depth questions count move sequences; bounded, but slow for a fuzzer (position_fuzzer too).
  if (doc->is_object() && doc->contains("question") && (*doc)["question"].is_object() &&
      (*doc)["question"].contains("depth"))
    return 0;
  auto o = carc::adjudicator::RunJson(*doc, "fuzz.json", {});
  if (o.error.empty()) {
    carc::fuzz::PrintLikeTheCli(o.ruling);
    (void)carc::adjudicator::RulingText(o.ruling);
    (void)carc::render::RenderRuling(*doc, o.ruling, "fuzz.json");
  }
  return 0;
}

// libFuzzer target: arbitrary bytes -> the one-line notation (model/core/notation.h) as every
// command reads it: the line reader, the action reader of `carc play`, the column finder of
// messages; then, on a line that reads, the position reader and the round trip the notation
// promises (adjudicator/POSITION_FORMAT.md "One-line notation"): a document the writer can state
// reads back as the same document. No crash, hang, sanitizer report or uncaught exception is
// allowed. Build and run: property-tests/README.md "libFuzzer targets".
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "model/core/notation.h"
#include "model/core/position_io.h"
#include "model/expansions/registry.h"
#include "property-tests/fuzz/fuzz_util.h"

using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)carc::model::LooksLikeLine(text);
  (void)carc::model::LineActionsToJson(text, "fuzz.line");
  (void)carc::model::LocateInLine(text, "line", "line:/board/1/rotation: x");
  auto doc = carc::model::LineToJson(text, "fuzz.line");
  if (!doc.ok()) return 0;
  carc::fuzz::PrintLikeTheCli(*doc);
  auto pos = carc::model::ParsePosition(*doc, carc::exp::Context("fuzz.line"));
  if (pos.ok()) carc::fuzz::PrintLikeTheCli(carc::model::DumpPosition(*pos));
  // JSON -> line -> JSON is the identity for what the writer can state.
  auto line = carc::model::JsonToLine(*doc);
  if (!line.ok()) return 0;
  auto back = carc::model::LineToJson(*line, "again.line");
  if (!back.ok() || *back != *doc) std::abort();
  return 0;
}

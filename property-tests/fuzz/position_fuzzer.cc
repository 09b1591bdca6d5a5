// libFuzzer target: arbitrary bytes -> position parser -> validate / legal / score /
// adjudicate (adjudicator::RunJson, what `carc` runs), then the model directly on a position that
// parsed: Validate, LegalActions, applying each listed action, DumpPosition round trip. No crash,
// hang, sanitizer report or uncaught exception is allowed. Build and run: README.md.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "adjudicator/adjudicate.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "property-tests/fuzz/fuzz_util.h"
#include "property-tests/gen_game.h"

using carc::adjudicator::Mode;
using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Read as the product reads a file (nesting cap, duplicate keys, huge numbers).
  auto read = carc::fuzz::ReadLikeAFile(data, size, "fuzz.json");
  if (!read) return 0;
  const json& doc = *read;
  // Expansions not yet covered by the property work (gen_game.h CoveredExpansions; set
  // CARC_PROP_EXPANSIONS=all to include them) are left to their own sessions.
  static const std::vector<std::string> covered = carc::prop::CoveredExpansions();
  if (doc.is_object() && doc.contains("rules") && doc["rules"].is_object() &&
      doc["rules"].contains("expansions") && doc["rules"]["expansions"].is_array())
    for (const json& e : doc["rules"]["expansions"])
      if (e.is_string() && carc::exp::ByName(e.get<std::string>()) &&
          std::find(covered.begin(), covered.end(), e.get<std::string>()) == covered.end())
        return 0;
  // Known finding, skipped so that the run goes on
  // (fixtures/malformed/fuzz_question_depth_unbounded): an unbounded question.depth makes `legal`
  // run perft for ever.
  if (doc.is_object() && doc.contains("question") && doc["question"].is_object() &&
      doc["question"].contains("depth") &&
      !(doc["question"]["depth"].is_number_integer() &&
        doc["question"]["depth"].get<long long>() <= 3))
    return 0;
  {
    // The board read as records (what `carc validate FILE` does) reads as the document does:
    // the same position, or the same message.
    const std::string text(reinterpret_cast<const char*>(data), size);
    carc::model::CompactBoard board;
    auto compact = carc::model::ParseJsonText(text, "fuzz.json", &board);
    if (!compact.ok()) std::abort();  // the document parsed
    auto a = carc::model::ParsePosition(doc, carc::exp::Context("fuzz.json"));
    auto b = carc::model::ParsePosition(*compact, carc::exp::Context("fuzz.json"), &board);
    if (a.ok() != b.ok()) std::abort();
    if (!a.ok() && a.status().message() != b.status().message()) std::abort();
    if (a.ok() && carc::model::DumpPosition(*a) != carc::model::DumpPosition(*b)) std::abort();
  }
  for (Mode m : {Mode::kValidate, Mode::kLegal, Mode::kScore, Mode::kAdjudicate}) {
    auto o = carc::adjudicator::RunJson(doc, "fuzz.json", {m, 0});
    if (o.error.empty()) {  // serialised as the CLI prints it
      carc::fuzz::PrintLikeTheCli(o.ruling);
      (void)carc::adjudicator::RulingText(o.ruling);
    }
  }
  carc::adjudicator::RunJson(doc, "fuzz.json", {Mode::kLegal, 1});
  auto pos = carc::model::ParsePosition(doc, carc::exp::Context("fuzz.json"));
  if (!pos.ok() || !carc::model::Validate(*pos).empty()) return 0;
  carc::model::ApplyResult pre;
  carc::model::Advance(*pos, pre);
  for (const auto& a : carc::model::LegalActions(*pos)) {
    carc::model::Position p = *pos;
    carc::model::Apply(p, a);
  }
  json again = carc::model::DumpPosition(*pos);
  (void)carc::model::ParsePosition(again, carc::exp::Context("again.json"));
  return 0;
}

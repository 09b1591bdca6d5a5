// The one-line notation: JSON -> line -> JSON is the identity for the position at
// every decision of random games of every expansion combination (2-6 players, printable ASCII
// names, duplicates included), with the action taken there as the question; and the short form
// a person types (MinimalJson) reads back to the same position. board_partial (absent, true or
// false) travels too.
#include <gtest/gtest.h>

#include "model/core/notation.h"
#include "model/core/notation_text.h"
#include "model/expansions/registry.h"
#include "property-tests/rc_support.h"

namespace carc::prop {
namespace {

using nlohmann::json;

// Names of printable ASCII, at most 64 characters (a name's limit, model/core/notation_text.h),
// from a small alphabet now and then (so that two players share a name and owners are written
// as #index). An empty name or one of spaces only is refused by every reader (NameProblem), so
// it is not a name to write.
rc::Gen<std::vector<std::string>> GenNames(int n) {
  auto name = rc::gen::oneOf(
      rc::gen::suchThat(
          rc::gen::resize(64, rc::gen::container<std::string>(rc::gen::inRange<char>(32, 127))),
          [](const std::string& s) { return model::NameProblem(s).empty(); }),
      rc::gen::container<std::string>(1, rc::gen::elementOf(std::string("AB"))));
  return rc::gen::container<std::vector<std::string>>(n, name);
}

std::optional<Failure> CheckLine(const model::Position& pos, const json& action,
                                 const std::vector<std::string>& names, bool minimal, int partial) {
  auto fail = [&](const std::string& what, const json& doc) {
    return Failure{"notation", what, doc, action};
  };
  json j = model::DumpPosition(pos);
  for (size_t i = 0; i < j["players"].size() && i < names.size(); ++i)
    j["players"][i]["name"] = names[i];
  j["meta"] = {{"id", "prop"}, {"title", "a; b / \"c\" {d}"}};
  if (partial > 0) j["board_partial"] = partial == 1;
  if (!action.is_null())
    j["question"] = {{"ask", "apply"}, {"actions", {action}}, {"claim", {{"legal", true}}}};
  auto line = model::JsonToLine(j);
  if (!line.ok()) return fail("JsonToLine refused: " + line.status().message(), j);
  if (!model::LooksLikeLine(*line)) return fail("the line is not recognised: " + *line, j);
  auto back = model::LineToJson(*line, "prop.line");
  if (!back.ok())
    return fail("the line does not read back: " + back.status().message() + "\n" + *line, j);
  if (*back != j) return fail("JSON -> line -> JSON differs:\n" + *line + "\n" + back->dump(), j);
  if (!minimal) return std::nullopt;
  // The short form: the same position once read.
  const auto ctx = exp::Context("prop.line");
  auto p1 = model::ParsePosition(j, ctx);
  if (!p1.ok()) return fail("the dump does not parse: " + p1.status().message(), j);
  auto short_line = model::JsonToLine(model::MinimalJson(j, ctx));
  if (!short_line.ok()) return fail("short form refused: " + short_line.status().message(), j);
  auto short_back = model::LineToJson(*short_line, "prop.line");
  if (!short_back.ok())
    return fail("short line does not read back: " + short_back.status().message(), j);
  auto p2 = model::ParsePosition(*short_back, ctx);
  if (!p2.ok())
    return fail("short line does not parse: " + p2.status().message() + "\n" + *short_line, j);
  if (model::DumpPosition(*p1) != model::DumpPosition(*p2))
    return fail("the short line is another position:\n" + *short_line, j);
  if (short_line->size() > line->size()) return fail("the short line is longer", j);
  return std::nullopt;
}

RC_GTEST_PROP(Notation, JsonToLineToJsonIsTheIdentity, ()) {
  const GameSpec spec = *GenAnySpec();
  const auto names = *GenNames(spec.players);
  const int partial = *rc::gen::inRange(0, 3);  // absent, true, false
  const Game g = PlayOrFail(spec);
  for (int i = 0; i < g.decisions(); ++i)
    Report(CheckLine(g.before[i], model::DumpAction(g.before[i], g.actions[i]), names, i % 8 == 0,
                     partial),
           spec);
  Report(CheckLine(g.final_pos, json(), names, true, partial), spec);
}

}  // namespace
}  // namespace carc::prop

#include "property-tests/check_util.h"

#include "model/core/position_io.h"

namespace carc::prop {

using model::Action;
using model::ApplyResult;
using model::Position;
using nlohmann::json;

Failure Fail(std::string property, std::string message, const Position& pos, const Action* a) {
  Failure f{std::move(property), std::move(message), model::DumpPosition(pos), json()};
  if (a) f.action = model::DumpAction(pos, *a);
  return f;
}

std::string Refusal(const ApplyResult& r) {
  if (!r.input_error.empty()) return "input error: " + r.input_error;
  if (!r.verdict.legal)
    return "illegal: " + (r.verdict.reasons.empty()
                              ? std::string("(no reason)")
                              : r.verdict.reasons[0].ruling + " " + r.verdict.reasons[0].text);
  return "legal";
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += "\n  " + x;
  return s;
}

std::vector<int> Scores(const Position& pos) {
  std::vector<int> s;
  for (const auto& p : pos.players) s.push_back(p.score);
  return s;
}

std::string Show(const std::vector<int>& v) { return json(v).dump(); }

}  // namespace carc::prop

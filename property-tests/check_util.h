// Helpers shared by the property checks (checks.cc, unused_check.cc).
#ifndef CARC_PROPERTY_TESTS_CHECK_UTIL_H_
#define CARC_PROPERTY_TESTS_CHECK_UTIL_H_

#include <string>
#include <vector>

#include "model/core/action.h"
#include "model/core/position.h"
#include "property-tests/checks.h"

namespace carc::prop {

// A failure of `property` at `pos` (and `a`, when given), as position-file JSON.
Failure Fail(std::string property, std::string message, const model::Position& pos,
             const model::Action* a = nullptr);
// Why an action was refused, or "legal".
std::string Refusal(const model::ApplyResult& r);
// Each string on its own indented line.
std::string Join(const std::vector<std::string>& v);
std::vector<int> Scores(const model::Position& pos);
std::string Show(const std::vector<int>& v);

}  // namespace carc::prop

#endif  // CARC_PROPERTY_TESTS_CHECK_UTIL_H_

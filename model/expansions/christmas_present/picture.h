#pragma once
// Christmas Present's state described for a picture (picture.cc; the describe-state hook,
// registered in Load).

#include <nlohmann/json_fwd.hpp>

#include "model/core/position.h"
#include "model/core/state_picture.h"

namespace carc::exp::christmas_present {

// `section` is the module's section of the written position.
void DescribeState(const model::Position& pos, const nlohmann::json& section,
                   model::StatePicture& out);

}  // namespace carc::exp::christmas_present

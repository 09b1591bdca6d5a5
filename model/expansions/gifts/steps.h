#pragma once
// The Gifts turn steps (steps.cc): gift_hold, open_gift, take_2 before place_tile; draw_gift
// after it; gift_end_turn.

#include <vector>

#include "model/core/module_loader.h"
#include "model/core/step.h"
#include "model/expansions/gifts/gifts.h"

namespace carc::exp::gifts {

// Declares the steps.
void AddSteps(model::ModuleLoader& loader);

}  // namespace carc::exp::gifts

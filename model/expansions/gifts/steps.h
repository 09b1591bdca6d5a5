#pragma once
// The Gifts turn steps (steps.cc): gift_hold, open_gift, take_2 before place_tile; draw_gift
// after it; gift_phantom before Phantom's step (variant next-turn-only); gift_end_turn.

#include <vector>

#include "model/core/module_loader.h"
#include "model/core/step.h"
#include "model/expansions/gifts/gifts.h"

namespace carc::exp::gifts {

// Declares the steps (gift_phantom only when a figure has a step of its own: Phantom).
void AddSteps(model::ModuleLoader& loader);

}  // namespace carc::exp::gifts

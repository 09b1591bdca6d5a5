#pragma once
// The Messengers' position-file form (io.cc), declared to the module loader by Messengers::Load:
// the "expansions": {"messengers": {...}} slice codec, the four actions (assign_points,
// draw_message, take_seal, carry_out_message) and the table of disputed readings. Formats:
// README.md of this folder. Internal to the module.

#include "model/core/module_loader.h"

namespace carc::exp::messengers {

// MSG-SETUP, MSG-CHOOSE: the slice and its JSON section.
void DeclareState(model::ModuleLoader& loader);
// The four actions with their parse, dump and describe (Code in messengers.h).
void DeclareActions(model::ModuleLoader& loader);
// MSG-FN13, MSG-FN15, MSG-Q-*: the disputed items, the adopted reading first.
void DeclareVariants(model::ModuleLoader& loader);

}  // namespace carc::exp::messengers

// Subcommand group registered by RegisterRenderCommands (see commands.h). Owned by the render work.
#include "adjudicator/commands.h"

namespace carc::adjudicator {

void RegisterRenderCommands(Registry& reg) { (void)reg; }

}  // namespace carc::adjudicator

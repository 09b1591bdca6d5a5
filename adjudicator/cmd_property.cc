// Subcommand group registered by RegisterPropertyCommands (see commands.h). Owned by the property work.
#include "adjudicator/commands.h"

namespace carc::adjudicator {

void RegisterPropertyCommands(Registry& reg) { (void)reg; }

}  // namespace carc::adjudicator

// Subcommand group registered by RegisterDatabaseCommands (see commands.h). Owned by the database work.
#include "adjudicator/commands.h"

namespace carc::adjudicator {

void RegisterDatabaseCommands(Registry& reg) { (void)reg; }

}  // namespace carc::adjudicator

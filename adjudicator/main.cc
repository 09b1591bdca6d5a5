// carc: the Carcassonne rules adjudicator. See README.md for the subcommands and exit codes.
#include <exception>
#include <iostream>

#include "adjudicator/cli.h"
#include "adjudicator/exit_codes.h"

int main(int argc, char** argv) {
  try {
    return carc::adjudicator::Run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "carc: internal error: " << e.what() << "\n";
    return carc::adjudicator::kExitInternal;
  }
}

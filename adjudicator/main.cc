// carc: the Carcassonne rules adjudicator. See README.md for the subcommands and exit codes.
#include "adjudicator/cli.h"

int main(int argc, char** argv) { return carc::adjudicator::Main(argc, argv); }

// Subcommand group registered by RegisterPropertyCommands (see commands.h). Owned by the
// property work: `carc fuzz`, the soak of the property tests (property-tests/README.md).
#include <iostream>

#include "adjudicator/commands.h"
#include "adjudicator/exit_codes.h"
#include "model/expansions/registry.h"
#include "property-tests/soak.h"

namespace carc::adjudicator {

namespace {

struct FuzzState {
  long games = 0;
  double seconds = 0;
  uint64_t seed = 1;
  std::vector<std::string> expansions;
  bool combinations = false;
  std::string out = "carc-fuzz-counterexample.json";
};

int RunFuzz(const FuzzState& st) {
  std::vector<std::string> expansions = st.expansions;
  if (expansions.size() == 1 && expansions[0] == "all") expansions = exp::Ids();
  for (const std::string& id : expansions)
    if (!exp::ByName(id)) {
      std::string known;
      for (const std::string& k : exp::Ids()) known += (known.empty() ? "" : ", ") + k;
      std::cerr << "carc: fuzz: unknown expansion \"" << id << "\" (known: " << known << ")\n";
      return kExitUnknownRules;
    }
  prop::SoakOptions opts;
  opts.games = st.games;
  opts.seconds = st.seconds;
  opts.seed = st.seed;
  opts.expansions = expansions;
  opts.combinations = st.combinations;
  opts.out = st.out;
  prop::SoakResult r = prop::RunSoak(opts, std::cerr);
  std::cerr << "carc fuzz: seed " << st.seed << ", " << r.games << " games, " << r.decisions
            << " decisions in " << r.seconds << " s\n";
  if (!r.failure) {
    std::cout << "no counterexample in " << r.games << " games\n";
    return kExitUpheld;
  }
  std::cout << "counterexample (" << r.failure->property << "): " << r.failure->message << "\n"
            << "written to " << st.out << " and " << st.out << ".position.json\n";
  return kExitRejected;
}

}  // namespace

void RegisterPropertyCommands(Registry& reg) {
  static FuzzState st;
  auto* fuzz = reg.root->add_subcommand(
      "fuzz", "Soak: random games through every property check; writes any counterexample");
  auto* games =
      fuzz->add_option("--games", st.games, "Number of games")->check(CLI::PositiveNumber);
  auto* seconds =
      fuzz->add_option("--seconds", st.seconds, "Run for this long")->check(CLI::PositiveNumber);
  games->excludes(seconds);
  fuzz->add_option("--seed", st.seed, "PRNG seed (same seed, same games)");
  fuzz->add_option("--expansions", st.expansions,
                   "Expansions enabled in every game (e.g. phantom,gifts; all: every one)")
      ->delimiter(',');
  fuzz->add_flag("--combinations", st.combinations,
                 "Cycle through every subset of --expansions (base game included), one per game");
  fuzz->add_option("--out", st.out, "Counterexample file");
  fuzz->callback([games, seconds] {
    if (games->count() == 0 && seconds->count() == 0)
      throw CLI::RequiredError("--games N or --seconds S");
  });
  reg.commands.push_back({fuzz, [] { return RunFuzz(st); }});
}

}  // namespace carc::adjudicator

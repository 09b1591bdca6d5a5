// Conformance: `carc conform` checks another engine against the reference model;
// `carc engine` is the reference adapter (PROTOCOL.md); `carc conform export DIR` writes the suite.
#include <iostream>

#include "adjudicator/commands.h"
#include "adjudicator/conform/checker.h"
#include "adjudicator/conform/engine.h"
#include "adjudicator/exit_codes.h"
#include "adjudicator/jcz.h"

#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

namespace carc::adjudicator {

namespace {

using nlohmann::json;

struct State {
  std::string engine;
  std::vector<std::string> jcz;
  int random = 0;
  uint32_t seed = 1;
  double timeout = 10;
  bool progress = false;
  std::string root = CARC_SOURCE_DIR;
  std::string dir;
  std::string mutant;
  bool list_mutants = false;
};

int Conform(const State& st, const OutputFormat& f) {
  if (!st.jcz.empty()) {
    // A real engine's recorded games as a conformance source.
    int worst = kExitUpheld;
    json games = json::array();
    for (const std::string& file : st.jcz) {
      auto r = CheckJcz(file);
      if (!r.ok()) {
        std::cerr << "carc: " << r.status().message() << "\n";
        worst = std::max(worst, static_cast<int>(r.status().code()));
        continue;
      }
      games.push_back(JczReportJson(*r));
      if (!r->agree) worst = std::max(worst, kExitRejected);
      if (f.format == "text")
        std::cout << (r->agree ? "agree    " : "DISAGREE ") << file
                  << (r->agree ? "" : "  first difference: " + r->first_difference) << "\n";
    }
    if (f.format != "text") std::cout << json({{"games", games}}).dump(2) << "\n";
    return worst;
  }
  if (st.engine.empty()) {
    std::cerr << "carc: conform needs --engine \"CMD\" (or --jcz FILE...)\n";
    return kExitUsage;
  }
  auto suite = conform::BuildSuite({st.root, st.random, st.seed});
  if (!suite.ok()) {
    std::cerr << "carc: " << suite.status().message() << "\n";
    return static_cast<int>(suite.status().code());
  }
  conform::Report rep = conform::Check(*suite, {st.engine, st.timeout, st.progress, 300});
  if (f.format == "text")
    std::cout << conform::ReportText(rep.json);
  else
    std::cout << rep.json.dump(2) << "\n";
  if (rep.exit_code == kExitIo) std::cerr << "carc: " << rep.json.value("error", "") << "\n";
  return rep.exit_code;
}

}  // namespace

void RegisterConformCommands(Registry& reg) {
  static State st;
  OutputFormat& fmt = *reg.format;
  auto* conform = reg.root->add_subcommand(
      "conform",
      "Check another engine against the reference model (adjudicator/conform/PROTOCOL.md)");
  conform->add_option("--engine", st.engine, "Shell command that starts the engine");
  conform->add_option("--jcz", st.jcz,
                      "Instead: replay JCloisterZone .jcz games and compare scores");
  conform->add_option("--random", st.random, "Also check N random positions")
      ->check(CLI::Range(0, 1000000));
  conform->add_option("--seed", st.seed, "Seed of the random positions");
  conform->add_option("--timeout", st.timeout, "Seconds to wait for each answer")
      ->check(CLI::Range(0.1, 3600.0));
  conform->add_option("--root", st.root, "Project checkout holding fixtures/");
  conform->add_flag("--progress", st.progress, "Print a progress line on stderr");
  AddFormatOption(conform, fmt);
  reg.commands.push_back({conform, [&fmt] { return Conform(st, fmt); }});

  auto* exp =
      conform->add_subcommand("export", "Write the suite as position + expected answer files");
  exp->add_option("dir", st.dir, "Output folder")->required();
  exp->fallthrough();  // --root, --random, --seed of conform apply here too
  reg.commands.push_back({exp, [] {
                            auto suite = conform::BuildSuite({st.root, st.random, st.seed});
                            if (!suite.ok()) {
                              std::cerr << "carc: " << suite.status().message() << "\n";
                              return static_cast<int>(suite.status().code());
                            }
                            auto s = conform::ExportSuite(*suite, st.dir);
                            if (!s.ok()) {
                              std::cerr << "carc: " << s.message() << "\n";
                              return static_cast<int>(s.code());
                            }
                            std::cout << "wrote " << suite->size() << " queries to " << st.dir
                                      << "\n";
                            return 0;
                          }});

  auto* engine = reg.root->add_subcommand(
      "engine", "The reference adapter: speak the conformance protocol on stdin/stdout");
  engine->add_option("--mutant", st.mutant, "Break one rule on purpose (see --list-mutants)");
  engine->add_flag("--list-mutants", st.list_mutants,
                   "List the mutants and the ruling each breaks");
  reg.commands.push_back({engine, [] {
                            if (st.list_mutants) {
                              for (const auto& m : conform::Mutants())
                                std::cout << m.name << "  " << m.ruling << "  " << m.description
                                          << "\n";
                              return 0;
                            }
                            int mutant = -1;
                            if (!st.mutant.empty()) {
                              auto m = conform::FindMutant(st.mutant);
                              if (!m) {
                                std::cerr << "carc: unknown mutant \"" << st.mutant
                                          << "\" (see --list-mutants)\n";
                                return kExitUsage;
                              }
                              mutant = *m;
                            }
                            return conform::RunEngine(std::cin, std::cout, mutant);
                          }});
}

}  // namespace carc::adjudicator

// Conformance: `carc conform` checks another engine against the reference model;
// `carc engine` is the reference adapter (PROTOCOL.md); `carc conform export DIR` writes the suite.
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "adjudicator/commands.h"
#include "adjudicator/conform/checker.h"
#include "adjudicator/conform/engine.h"
#include "adjudicator/conform/merge.h"
#include "adjudicator/conform/process.h"
#include "adjudicator/exit_codes.h"
#include "adjudicator/jcz.h"
#include "model/expansions/registry.h"

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
  bool progress = false, no_progress = false;
  int jobs = 1;
  std::string root = CARC_SOURCE_DIR;
  std::string dir, out, rerun;
  std::string mutant;
  bool list_mutants = false;
  std::string shard = "1/1";  // K/N
  std::string report;         // --report FILE: the run, the shard and every query's outcome
  std::string trace;          // --trace FILE: every request and answer
  std::string only;           // --only NAME: the queries of one source
  // conform merge
  std::string db;
  std::vector<std::string> reports;
  CLI::App* conform = nullptr;  // which of its options were given
};

// The first of `options` given on the command line, or "".
std::string FirstGiven(const State& st, std::initializer_list<const char*> options) {
  for (const char* o : options)
    if (st.conform->count(o) > 0) return o;
  return "";
}

// Options a mode would silently ignore are refused (64), naming the option: a run must not
// seem to have done what it was asked and did not (an engine never started, a trace never
// written, a seed never used). `mode`: "jcz", "export" or "engine". Empty: nothing refused.
std::string UnusedOption(const State& st, const std::string& mode) {
  if (st.progress && st.no_progress) return "--progress and --no-progress contradict each other";
  if (mode == "jcz") {
    if (std::string o = FirstGiven(
            st, {"--engine", "--random", "--seed", "--only", "--out", "--rerun", "--trace",
                 "--jobs", "--timeout", "--shard", "--report", "--progress", "--no-progress"});
        !o.empty())
      return o + " applies to an --engine run, not to --jcz (a .jcz check runs no engine)";
    return "";
  }
  if (mode == "export") {
    if (std::string o =
            FirstGiven(st, {"--engine", "--rerun", "--out", "--report", "--jcz", "--shard",
                            "--trace", "--jobs", "--timeout", "--progress", "--no-progress"});
        !o.empty())
      return o +
             " applies to a check, not to conform export (the export writes the whole "
             "suite, asking no engine)";
  }
  // One path for two outputs (or an output over the input): one would replace the other.
  if (!st.rerun.empty() && !st.out.empty() && !FileNamedTwice({st.rerun, st.out}).empty())
    return "--out names the --rerun folder (" + st.out +
           "): the findings would replace the cases it reruns; give another folder";
  const std::pair<const char*, const std::string*> outputs[] = {
      {"--report", &st.report}, {"--trace", &st.trace}, {"--out", &st.out}};
  for (size_t i = 0; i < std::size(outputs); ++i)
    for (size_t k = i + 1; k < std::size(outputs); ++k)
      if (!outputs[i].second->empty() && !outputs[k].second->empty() &&
          !FileNamedTwice({*outputs[i].second, *outputs[k].second}).empty())
        return std::string(outputs[i].first) + " and " + outputs[k].first +
               " name the same path (" + *outputs[k].second + "): one would overwrite the other";
  const bool random_name = conform::IsRandomName(st.only);
  if (!st.rerun.empty()) {
    if (std::string o = FirstGiven(st, {"--random", "--seed"}); !o.empty())
      return o + " does not apply to --rerun (a rerun checks only the folder's cases)";
    if (random_name)
      return "--only \"" + st.only +
             "\" names a random position, which --rerun does not generate (a rerun checks only "
             "the folder's cases; --only names a case's source)";
  }
  if (st.conform->count("--seed") > 0 && st.random == 0 && !random_name)
    return "--seed applies to random positions: give --random N (or --only \"random seed S "
           "#I\")";
  if (random_name) {
    if (std::string e = conform::CheckRandomName(st.only); !e.empty()) return e;
    if (st.conform->count("--seed") > 0 && conform::ParseRandomName(st.only)->first != st.seed)
      return "--only \"" + st.only + "\" names seed " +
             std::to_string(conform::ParseRandomName(st.only)->first) + ", --seed says " +
             std::to_string(st.seed) + " (give one)";
  }
  return "";
}

int ConformJcz(const State& st, const OutputFormat& f) {
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

// "scores differ" -> "scores_differ".
std::string Slug(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return out;
}

int Conform(const State& st, const OutputFormat& f) {
  if (std::string e = UnusedOption(st, st.jcz.empty() ? "engine" : "jcz"); !e.empty()) {
    std::cerr << "carc: conform: " << e << "\n";
    return kExitUsage;
  }
  if (std::string twice = FileNamedTwice(st.jcz); !twice.empty()) {
    std::cerr << "carc: conform --jcz: " << twice << "\n";
    return kExitUsage;
  }
  if (!st.jcz.empty()) return ConformJcz(st, f);
  if (st.engine.empty()) {
    std::cerr << "carc: conform needs --engine \"CMD\" (or --jcz FILE...)\n";
    return kExitUsage;
  }
  conform::SuiteOptions so{st.root, st.rerun, st.random, st.seed};
  so.only = st.only;
  if (std::string e = ParseShard(st.shard, so.shard, so.shards); !e.empty()) {
    std::cerr << "carc: conform: " << e << "\n";
    return kExitUsage;
  }
  conform::CheckOptions co;
  co.engine = st.engine;
  co.timeout = st.timeout;
  co.jobs = st.jobs;
  // Progress on a terminal by default; --progress forces it, --no-progress silences it.
  co.progress = !st.no_progress && (st.progress || isatty(STDERR_FILENO));
  co.trace = st.trace;
  // --report: each query's record goes to a side file as it finishes (memory does not grow
  // with the suite), and the report is written from it at the end.
  const std::string cases_file = st.report.empty() ? "" : st.report + ".cases.tmp";
  std::ofstream cases_out;
  if (!cases_file.empty()) {
    cases_out.open(cases_file);
    if (!cases_out) {
      std::cerr << "carc: conform: cannot write the report " << st.report << "\n";
      return kExitIo;
    }
    co.on_case = [&](const json& r) { cases_out << r.dump() << "\n"; };
  }
  // Ctrl-C, kill or a closed terminal end the engines too (their own process groups).
  conform::KillEnginesOnSignals();
  conform::Report rep = conform::Check(so, co);
  if (!cases_file.empty()) cases_out.close();
  if (rep.json.contains("error")) {  // printed once, on stderr
    if (!cases_file.empty()) std::remove(cases_file.c_str());
    std::cerr << "carc: conform: " << rep.json["error"].get<std::string>() << "\n";
    return rep.exit_code;
  }
  if (!st.report.empty()) {  // the report with every query of the shard, for conform merge
    std::string head = rep.json.dump();
    head.pop_back();  // the closing brace: "cases" follows
    std::ofstream out(st.report);
    std::ifstream in(cases_file);
    out << head << (rep.json.empty() ? "" : ",") << "\"cases\":[";
    bool first = true;
    for (std::string line; std::getline(in, line);) {
      out << (first ? "" : ",") << line;
      first = false;
    }
    out << "]}\n";
    out.close();
    in.close();
    std::remove(cases_file.c_str());
    if (!out) {
      std::cerr << "carc: conform: cannot write the report " << st.report << "\n";
      return kExitIo;
    }
  }
  if (!st.out.empty()) {
    std::vector<std::string> names;
    for (size_t i = 0; i < rep.examples.size(); ++i) {
      char num[32];
      std::snprintf(num, sizeof num, "%02zu_", i + 1);
      names.push_back(num + Slug(rep.example_meta[i]["category"].get<std::string>()));
    }
    auto s = conform::WriteCases(rep.examples, names, rep.example_meta, st.out);
    if (!s.ok()) {
      std::cerr << "carc: conform: " << s.message() << "\n";
      return static_cast<int>(s.code());
    }
    rep.json["out"] = {{"dir", st.out}, {"cases", names}};
  }
  if (f.format == "text") {
    std::cout << conform::ReportText(rep.json);
    if (!st.out.empty())
      std::cout << "wrote " << rep.examples.size() << " examples to " << st.out
                << " (rerun: carc conform --engine CMD --rerun " << st.out << ")\n";
  } else {
    std::cout << rep.json.dump(2) << "\n";
  }
  return rep.exit_code;
}

}  // namespace

void RegisterConformCommands(Registry& reg) {
  static State st;
  OutputFormat& fmt = *reg.format;
  if (reg.Wants("conform")) {
    auto* conform = reg.root->add_subcommand(
        "conform",
        "Check another engine against the reference model (adjudicator/conform/PROTOCOL.md)");
    conform->add_option("--engine", st.engine, "Shell command that starts the engine");
    conform->add_option("--jcz", st.jcz,
                        "Instead: replay JCloisterZone .jcz games and compare scores");
    conform
        ->add_option("--random", st.random,
                     "Also check N random positions, spread over every expansion combination "
                     "the engine declares")
        ->check(CLI::Range(0, conform::kMaxRandom));
    conform->add_option("--seed", st.seed, "Seed of the random positions");
    conform->add_option("--timeout", st.timeout, "Seconds to wait for each answer")
        ->check(CLI::Range(0.1, 3600.0));
    conform->add_option("--jobs,-j", st.jobs, "Engine processes to run in parallel")
        ->check(CLI::Range(1, 64));
    conform->add_option("--root", st.root, "Project checkout holding fixtures/");
    conform->add_option("--out", st.out,
                        "Write each group's example as case files (position + question + reference "
                        "answer, manifest.json) to DIR");
    conform->add_option("--rerun", st.rerun,
                        "Check only the cases of DIR (written by --out or conform export)");
    conform->add_option("--shard", st.shard,
                        "K/N: check only the queries i of the suite (fixtures, then random "
                        "positions, in suite order) with i % N == K - 1; N shards together check "
                        "the unsharded run's queries");
    conform->add_option("--report", st.report,
                        "Also write the report with every query's outcome as JSON (for conform "
                        "merge)");
    conform->add_option("--trace", st.trace,
                        "Write every request sent to the engine and every answer line received "
                        "to FILE, one JSON object a line");
    conform->add_option("--only", st.only,
                        "Check only the queries of one source: a fixture path (as reports name "
                        "it) or a random position's name, \"random seed S #I\"");
    conform->add_flag("--progress", st.progress,
                      "Print progress on stderr even when not a terminal");
    conform->add_flag("--no-progress", st.no_progress, "Never print progress");
    AddFormatOption(conform, fmt);
    st.conform = conform;
    reg.commands.push_back({conform, [&fmt] { return Conform(st, fmt); }});

    auto* exp = conform->add_subcommand(
        "export", "Write the suite as case files (position + expected answer, manifest)");
    exp->add_option("dir", st.dir, "Output folder")->required();
    exp->fallthrough();  // --root, --random, --seed of conform apply here too
    reg.commands.push_back({exp, [] {
                              if (std::string e = UnusedOption(st, "export"); !e.empty()) {
                                std::cerr << "carc: conform export: " << e << "\n";
                                return kExitUsage;
                              }
                              if (st.dir.empty()) {  // as every other path option
                                std::cerr << "carc: conform export: dir: an empty file name: "
                                             "name a folder\n";
                                return kExitUsage;
                              }
                              conform::Declared all;
                              for (const auto& id : exp::Ids()) all.expansions.insert(id);
                              conform::SuiteOptions so{st.root, "", st.random, st.seed};
                              so.only = st.only;
                              auto suite = conform::SuiteReader::Open(
                                  so, conform::DeclaredCombinations(all));
                              if (!suite.ok()) {
                                std::cerr << "carc: " << suite.status().message() << "\n";
                                return static_cast<int>(suite.status().code());
                              }
                              auto n = conform::ExportSuite(**suite, st.dir);
                              if (!n.ok()) {
                                std::cerr << "carc: " << n.status().message() << "\n";
                                return static_cast<int>(n.status().code());
                              }
                              std::cout << "wrote " << *n << " cases to " << st.dir << "\n";
                              return 0;
                            }});

    auto* merge = conform->add_subcommand(
        "merge",
        "Merge conform --report files (e.g. of shards) into the database; print each "
        "run's queries, disagreements and groups");
    merge->add_option("--db", st.db, "Database file (created if missing)")->required();
    merge->add_option("reports", st.reports, "Report files of carc conform --report")->required();
    reg.commands.push_back({merge, [] { return conform::MergeReports(st.db, st.reports); }});
  }

  if (reg.Wants("engine")) {
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
}

}  // namespace carc::adjudicator

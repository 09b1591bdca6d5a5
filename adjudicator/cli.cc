#include "adjudicator/cli.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "adjudicator/adjudicate.h"
#include "adjudicator/exit_codes.h"
#include "adjudicator/jcz.h"
#include "adjudicator/rulings_catalog.h"

#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

namespace carc::adjudicator {

namespace {

using nlohmann::json;

struct Common {
  std::string format = "json";
};

void AddFormat(CLI::App* app, Common& c) {
  app->add_option("--format", c.format, "Output: json (default) or text")
      ->check(CLI::IsMember({"json", "text"}));
}

int Emit(const Outcome& o, const Common& c) {
  if (!o.error.empty()) {
    std::cerr << "carc: " << o.error << "\n";
    return o.exit_code;
  }
  if (c.format == "text")
    std::cout << RulingText(o.ruling);
  else
    std::cout << o.ruling.dump(2) << "\n";
  return o.exit_code;
}

int CheckJczFiles(const std::vector<std::string>& files, const Common& c) {
  json reports = json::array();
  int agree = 0, worst = kExitUpheld;
  for (const std::string& f : files) {
    auto r = CheckJcz(f);
    if (!r.ok()) {
      std::cerr << "carc: " << r.status().message() << "\n";
      worst = std::max(worst, static_cast<int>(r.status().code()));
      continue;
    }
    reports.push_back(JczReportJson(*r));
    if (r->agree)
      ++agree;
    else
      worst = std::max(worst, kExitRejected);
    if (c.format == "text")
      std::cout << (r->agree ? "agree    " : "DISAGREE ") << f << "  " << r->turns << " turns, final "
                << json(r->final_model).dump()
                << (r->agree ? "" : "  first difference: " + r->first_difference) << "\n";
  }
  if (c.format == "text")
    std::cout << agree << " of " << files.size() << " games agree turn by turn\n";
  else
    std::cout << json({{"games", reports}, {"agree", agree}, {"total", files.size()}}).dump(2) << "\n";
  return worst;
}

int Coverage(const std::string& root, const Common& c) {
  auto cat = LoadCatalog(root);
  if (!cat.ok()) {
    std::cerr << "carc: " << cat.status().message() << "\n";
    return static_cast<int>(cat.status().code());
  }
  std::map<std::string, std::pair<int, int>> per;  // expansion -> covered, in scope
  json gaps = json::array(), out_of_scope = json::array();
  for (const RulingEntry& r : cat->rulings) {
    if (!InScope(r)) {
      out_of_scope.push_back({{"id", r.id}, {"status", r.status}});
      continue;
    }
    auto& [covered, total] = per[r.expansion];
    ++total;
    if (cat->fixtures_by_id.count(r.id))
      ++covered;
    else
      gaps.push_back({{"id", r.id}, {"expansion", r.expansion}, {"title", r.title}});
  }
  json unknown = json::array();
  for (const auto& [id, files] : cat->fixtures_by_id) {
    bool found = false;
    for (const RulingEntry& r : cat->rulings) found |= r.id == id;
    if (!found) unknown.push_back({{"id", id}, {"fixtures", files}});
  }
  if (c.format == "text") {
    for (const auto& [e, ct] : per)
      std::cout << e << ": " << ct.first << " of " << ct.second << " in-scope rulings have fixtures\n";
    for (const json& g : gaps) std::cout << "  no fixture: " << g["id"].get<std::string>() << "  " << g["title"].get<std::string>() << "\n";
    for (const json& u : unknown) std::cout << "  fixture cites unknown ruling: " << u["id"].get<std::string>() << "\n";
    std::cout << out_of_scope.size() << " rulings out of scope (needs-expansion or unmodelled expansion)\n";
    std::cout << (gaps.empty() && unknown.empty() ? "coverage: no gap\n" : "coverage: " + std::to_string(gaps.size()) + " gaps\n");
  } else {
    json j = {{"gaps", gaps}, {"unknown_ids_in_fixtures", unknown}, {"out_of_scope", out_of_scope.size()}};
    for (const auto& [e, ct] : per) j["per_expansion"][e] = {{"covered", ct.first}, {"in_scope", ct.second}};
    std::cout << j.dump(2) << "\n";
  }
  return gaps.empty() && unknown.empty() ? kExitUpheld : kExitRejected;
}

}  // namespace

int Run(int argc, char** argv) {
  CLI::App app{"carc: the Carcassonne rules adjudicator (base game + Phantom, The Messengers, "
               "The Gifts, Christmas Present). Exit codes: 0 upheld/legal, 1 rejected/illegal, "
               "2 impossible position, 64 usage, 65 malformed, 66 no input, 69 unknown rules, "
               "70 internal, 74 I/O."};
  app.require_subcommand(1);
  Common common;
  std::string file;
  int depth = 0;

  auto* adj = app.add_subcommand("adjudicate", "Answer the question in a position file");
  adj->add_option("file", file, "Position file (JSON)")->required();
  AddFormat(adj, common);

  auto* val = app.add_subcommand("validate", "Can this position arise under the rules?");
  val->add_option("file", file, "Position file (JSON)")->required();
  AddFormat(val, common);

  auto* legal = app.add_subcommand("legal", "List the legal actions, or count sequences (perft)");
  legal->add_option("file", file, "Position file (JSON)")->required();
  legal->add_option("--depth", depth, "Count action sequences of this depth, with a divide")
      ->check(CLI::Range(0, 8));
  AddFormat(legal, common);

  auto* score = app.add_subcommand("score", "Final scoring of the position as it stands");
  score->add_option("file", file, "Position file (JSON)")->required();
  AddFormat(score, common);

  auto* games = app.add_subcommand("games", "Game records");
  games->require_subcommand(1);
  std::vector<std::string> jcz_files;
  auto* jcz = games->add_subcommand("check-jcz", "Replay JCloisterZone games, compare every turn's scores");
  jcz->add_option("files", jcz_files, ".jcz files")->required();
  AddFormat(jcz, common);

  auto* rulings = app.add_subcommand("rulings", "The ruling catalogue");
  rulings->require_subcommand(1);
  std::string root = CARC_SOURCE_DIR;
  auto* coverage = rulings->add_subcommand("coverage", "List in-scope ruling IDs without a fixture");
  coverage->add_option("--root", root, "Project checkout holding database/rulings and fixtures");
  AddFormat(coverage, common);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }

  if (adj->parsed()) return Emit(RunFile(file, {Mode::kAdjudicate, 0}), common);
  if (val->parsed()) return Emit(RunFile(file, {Mode::kValidate, 0}), common);
  if (legal->parsed()) return Emit(RunFile(file, {Mode::kLegal, depth}), common);
  if (score->parsed()) return Emit(RunFile(file, {Mode::kScore, 0}), common);
  if (jcz->parsed()) return CheckJczFiles(jcz_files, common);
  if (coverage->parsed()) return Coverage(root, common);
  return kExitUsage;
}

}  // namespace carc::adjudicator

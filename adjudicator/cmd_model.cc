// The model's own subcommands: adjudicate, validate, legal, score, games check-jcz,
// rulings coverage.
#include <iostream>
#include <map>

#include "adjudicator/commands.h"
#include "adjudicator/exit_codes.h"
#include "adjudicator/jcz.h"
#include "adjudicator/rulings_catalog.h"

#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

namespace carc::adjudicator {

namespace {

using nlohmann::json;

int CheckJczFiles(const std::vector<std::string>& files, const OutputFormat& f) {
  if (std::string twice = FileNamedTwice(files); !twice.empty()) {
    std::cerr << "carc: games check-jcz: " << twice << "\n";
    return kExitUsage;
  }
  json reports = json::array();
  int agree = 0, worst = kExitUpheld;
  for (const std::string& file : files) {
    auto r = CheckJcz(file);
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
    if (f.format == "text")
      std::cout << (r->agree ? "agree    " : "DISAGREE ") << file << "  " << r->turns
                << " turns, final " << json(r->final_model).dump()
                << (r->agree ? "" : "  first difference: " + r->first_difference) << "\n";
  }
  if (f.format == "text")
    std::cout << agree << " of " << files.size() << " games agree turn by turn\n";
  else
    std::cout << json({{"games", reports}, {"agree", agree}, {"total", files.size()}}).dump(2)
              << "\n";
  return worst;
}

int Coverage(const std::string& root, const OutputFormat& f) {
  auto cat = LoadCatalog(root);
  if (!cat.ok()) {
    std::cerr << "carc: " << cat.status().message() << "\n";
    return static_cast<int>(cat.status().code());
  }
  std::map<std::string, std::pair<int, int>> per;  // expansion -> covered, in scope
  json gaps = json::array();
  int out_of_scope = 0;
  for (const RulingEntry& r : cat->rulings) {
    if (!InScope(r)) {
      ++out_of_scope;
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
  const bool ok = gaps.empty() && unknown.empty();
  if (f.format == "text") {
    for (const auto& [e, ct] : per)
      std::cout << e << ": " << ct.first << " of " << ct.second
                << " in-scope rulings have fixtures\n";
    for (const json& g : gaps)
      std::cout << "  no fixture: " << g["id"].get<std::string>() << "  "
                << g["title"].get<std::string>() << "\n";
    for (const json& u : unknown)
      std::cout << "  fixture cites unknown ruling: " << u["id"].get<std::string>() << "\n";
    std::cout << out_of_scope
              << " rulings out of scope (needs-expansion or an expansion not yet modelled)\n";
    std::cout << (ok ? std::string("coverage: no gap\n")
                     : "coverage: " + std::to_string(gaps.size() + unknown.size()) + " gaps\n");
  } else {
    json j = {{"gaps", gaps}, {"unknown_ids_in_fixtures", unknown}, {"out_of_scope", out_of_scope}};
    for (const auto& [e, ct] : per)
      j["per_expansion"][e] = {{"covered", ct.first}, {"in_scope", ct.second}};
    std::cout << j.dump(2) << "\n";
  }
  return ok ? kExitUpheld : kExitRejected;
}

struct State {
  std::string file;
  int depth = 0;
  std::vector<std::string> jcz_files;
  std::string root = CARC_SOURCE_DIR;
};

}  // namespace

void RegisterModelCommands(Registry& reg) {
  static State st;
  OutputFormat& fmt = *reg.format;
  CLI::App& app = *reg.root;

  if (reg.Wants("adjudicate")) {
    auto* adj = app.add_subcommand("adjudicate", "Answer the question in a position file");
    adj->add_option("file", st.file, "Position file (JSON)")->required();
    AddFormatOption(adj, fmt);
    reg.adjudicate = adj;
    reg.commands.push_back({adj, [&reg, &fmt] {
                              Outcome o = RunFile(st.file, {Mode::kAdjudicate, 0});
                              int code = Emit(o, fmt);
                              for (const auto& hook : reg.adjudication_hooks)
                                if (int c = hook(st.file, o); c != 0) return c;
                              return code;
                            }});
  }

  // validate, legal, score: a position file, a format, one question of the model.
  auto file_question = [&](const char* name, const char* help, Mode mode) {
    auto* cmd = app.add_subcommand(name, help);
    cmd->add_option("file", st.file, "Position file (JSON)")->required();
    reg.commands.push_back({cmd, [&fmt, mode, cmd] {
                              const bool stated = mode != Mode::kLegal || cmd->count("--depth") > 0;
                              return Emit(RunFile(st.file, {mode, st.depth, stated}), fmt);
                            }});
    return cmd;
  };
  if (reg.Wants("validate"))
    AddFormatOption(
        file_question("validate", "Can this position arise under the rules?", Mode::kValidate),
        fmt);
  if (reg.Wants("legal")) {
    auto* legal =
        file_question("legal", "List the legal actions, or count sequences (perft)", Mode::kLegal);
    legal->add_option("--depth", st.depth, "Count action sequences of this depth, with a divide")
        ->check(CLI::Range(0, 8));
    AddFormatOption(legal, fmt);
  }
  if (reg.Wants("score"))
    AddFormatOption(
        file_question("score", "Final scoring of the position as it stands", Mode::kScore), fmt);

  if (reg.Wants("games")) {
    auto* games = app.add_subcommand("games", "Game records");
    games->require_subcommand(1);
    auto* jcz = games->add_subcommand("check-jcz",
                                      "Replay JCloisterZone games, compare every turn's scores");
    jcz->add_option("files", st.jcz_files, ".jcz files")->required();
    AddFormatOption(jcz, fmt);
    reg.commands.push_back({jcz, [&fmt] { return CheckJczFiles(st.jcz_files, fmt); }});
  }

  if (reg.Wants("rulings")) {
    auto* rulings = app.add_subcommand("rulings", "The ruling catalogue");
    rulings->require_subcommand(1);
    auto* coverage =
        rulings->add_subcommand("coverage", "List in-scope ruling IDs without a fixture");
    coverage->add_option("--root", st.root,
                         "Project checkout holding database/rulings and fixtures");
    AddFormatOption(coverage, fmt);
    reg.commands.push_back({coverage, [&fmt] { return Coverage(st.root, fmt); }});
  }
}

}  // namespace carc::adjudicator

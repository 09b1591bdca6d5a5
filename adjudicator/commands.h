#pragma once
// Subcommand groups of `carc`. Each group lives in its own cmd_*.cc file and registers its
// subcommands here; cli.cc lists the groups (one line each) and runs the one that was parsed.

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "adjudicator/adjudicate.h"

namespace carc::adjudicator {

struct OutputFormat {
  std::string format = "json";  // json | text
};

struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

// Called after `carc adjudicate FILE` has produced its outcome (e.g. --db, --svg); returns an
// exit code to use instead of the ruling's when it fails (0 = keep the ruling's).
using AdjudicationHook = std::function<int(const std::string& file, const Outcome& outcome)>;

struct Registry {
  // Start-up: when set, groups register only the top-level subcommand of this name
  // (cli.cc falls back to registering every one for help, errors and unknown names).
  std::string_view only;
  bool Wants(std::string_view name) const { return only.empty() || only == name; }
  CLI::App* root = nullptr;
  CLI::App* adjudicate = nullptr;  // groups may add flags to it (with a hook)
  OutputFormat* format = nullptr;
  std::vector<Command> commands;
  std::vector<AdjudicationHook> adjudication_hooks;
};

void AddFormatOption(CLI::App* app, OutputFormat& f);
// Prints a ruling (JSON or text) or an error line; returns the exit code.
int Emit(const Outcome& o, const OutputFormat& f);

// A list of files that names one file twice (the same path, or two names of one file), so that
// one game would count twice in a tally: the message naming both (64); "" when each is named
// once.
std::string FileNamedTwice(const std::vector<std::string>& files);

void RegisterModelCommands(
    Registry& reg);  // cmd_model.cc: adjudicate validate legal score games rulings
void RegisterDatabaseCommands(
    Registry& reg);  // cmd_database.cc: db, rulings search/show/list, games import/...
void RegisterRenderCommands(Registry& reg);     // cmd_render.cc: render, adjudicate --svg
void RegisterPropertyCommands(Registry& reg);   // cmd_property.cc: fuzz (soak)
void RegisterConformCommands(Registry& reg);    // cmd_conform.cc: conform, engine
void RegisterAuthoringCommands(Registry& reg);  // cmd_authoring.cc: convert, tiles, new, play
void RegisterServeCommands(Registry& reg);      // cmd_serve.cc: serve (the web page)

}  // namespace carc::adjudicator

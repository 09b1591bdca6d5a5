// `carc serve`: the judge's workbench and ruling browser in a web page (adjudicator/serve/).
// This file only wires the command line to the server; the page's answers come from the same
// RunJson the other subcommands use.
#include <iostream>

#include "adjudicator/commands.h"
#include "adjudicator/exit_codes.h"
#include "adjudicator/serve/server.h"

#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

namespace carc::adjudicator {

namespace {

struct State {
  serve::ServeOptions serve;
  std::string db = "carc.db";
  std::string root = CARC_SOURCE_DIR;
};

int RunServe(const State& st) {
  auto api = serve::Api::Create({.run = RunJson, .db_path = st.db, .root = st.root});
  if (!api.ok()) {
    std::cerr << "carc: " << api.status().message() << "\n";
    return static_cast<int>(api.status().code());
  }
  return serve::Serve(st.serve, **api);
}

}  // namespace

void RegisterServeCommands(Registry& reg) {
  static State st;
  auto* serve = reg.root->add_subcommand(
      "serve", "The judge's workbench and ruling browser in a web page (prints its URL)");
  serve->add_option("--host", st.serve.host,
                    "Address to listen on (default 127.0.0.1: this machine only)");
  serve->add_option("--port", st.serve.port, "Port (default 8080; 0 = any free port)")
      ->check(CLI::Range(0, 65535));
  serve->add_option("--db", st.db,
                    "Database file, opened read-only (default carc.db; when missing, the "
                    "rulings of the source tree are built into memory)");
  serve->add_option("--root", st.root, "Project checkout holding database/rulings and fixtures");
  serve->add_option("--max-body", st.serve.max_body, "Request body limit in bytes")
      ->check(CLI::Range(1024, 16 * 1024 * 1024));
  reg.commands.push_back({serve, [] { return RunServe(st); }});
}

}  // namespace carc::adjudicator

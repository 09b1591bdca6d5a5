// `carc serve`: the judge's workbench and ruling browser in a web page (adjudicator/serve/).
// This file only wires the command line to the server; the page's answers come from the same
// RunJson the other subcommands use.
// The server (its HTTP reader, threads and embedded page) lives in the sibling binary
// carc-serve, built from this file with CARC_SERVE_IN_PROCESS: in `carc` itself `serve` parses
// the same options and execs carc-serve, so that no other subcommand carries them at start-up
// (`carc adjudicate` should cost little more than starting a process).
#include <unistd.h>

#include <climits>
#include <iostream>
#include <string>
#include <vector>

#include "adjudicator/commands.h"
#include "adjudicator/exit_codes.h"
#ifdef CARC_SERVE_IN_PROCESS
#include "adjudicator/serve/server.h"
#endif

#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

namespace carc::adjudicator {

namespace {

// The options (defaults as in serve::ServeOptions, adjudicator/serve/server.h).
struct State {
  std::string host = "127.0.0.1";
  int port = 8080;
  size_t max_body = 512 * 1024;
  int read_timeout = 5;
  int idle_timeout = 5;
  int max_connections = 128;
  std::string db = "carc.db";
  std::string root = CARC_SOURCE_DIR;
};

#ifdef CARC_SERVE_IN_PROCESS
int RunServe(const State& st) {
  auto api = serve::Api::Create({.run = RunJson, .db_path = st.db, .root = st.root});
  if (!api.ok()) {
    std::cerr << "carc: " << api.status().message() << "\n";
    return static_cast<int>(api.status().code());
  }
  serve::ServeOptions opts;
  opts.host = st.host;
  opts.port = st.port;
  opts.max_body = st.max_body;
  opts.timeout_s = st.read_timeout;
  opts.idle_s = st.idle_timeout;
  opts.threads = st.max_connections;
  return serve::Serve(opts, **api);
}
#else
// Runs carc-serve from the directory of this binary with the parsed options.
int RunServe(const State& st) {
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string dir = n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string();
  dir = dir.substr(0, dir.find_last_of('/') + 1);
  const std::string exe = dir + "carc-serve";
  std::vector<std::string> args = {exe,
                                   "serve",
                                   "--host",
                                   st.host,
                                   "--port",
                                   std::to_string(st.port),
                                   "--db",
                                   st.db,
                                   "--root",
                                   st.root,
                                   "--max-body",
                                   std::to_string(st.max_body),
                                   "--read-timeout",
                                   std::to_string(st.read_timeout),
                                   "--idle-timeout",
                                   std::to_string(st.idle_timeout),
                                   "--max-connections",
                                   std::to_string(st.max_connections)};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  execv(exe.c_str(), argv.data());
  std::cerr << "carc: serve needs the carc-serve binary next to carc (" << exe
            << "): build the carc-serve target\n";
  return kExitUnknownRules;  // 69, sysexits' "unavailable"
}
#endif

}  // namespace

void RegisterServeCommands(Registry& reg) {
  if (!reg.Wants("serve")) return;  // start-up: another subcommand was named
  static State st;
  auto* serve = reg.root->add_subcommand(
      "serve", "The judge's workbench and ruling browser in a web page (prints its URL)");
  serve->add_option("--host", st.host,
                    "Address to listen on (default 127.0.0.1: this machine only)");
  serve->add_option("--port", st.port, "Port (default 8080; 0 = any free port)")
      ->check(CLI::Range(0, 65535));
  serve->add_option("--db", st.db,
                    "Database file, opened read-only (default carc.db; when missing, the "
                    "rulings of the source tree are built into memory)");
  serve->add_option("--root", st.root, "Project checkout holding database/rulings and fixtures");
  serve->add_option("--max-body", st.max_body, "Request body limit in bytes")
      ->check(CLI::Range(1024, 16 * 1024 * 1024));
  serve
      ->add_option("--read-timeout", st.read_timeout,
                   "Seconds a request (or its answer) may move no byte before the connection "
                   "is closed (default 5)")
      ->check(CLI::Range(1, 300));
  serve
      ->add_option("--idle-timeout", st.idle_timeout,
                   "Seconds a kept-alive connection may wait for its next request (default 5)")
      ->check(CLI::Range(1, 300));
  serve
      ->add_option("--max-connections", st.max_connections,
                   "Connections served at once, one thread each (default 128); a connection "
                   "beyond them is answered 503 and closed")
      ->check(CLI::Range(1, 1024));
  reg.commands.push_back({serve, [] { return RunServe(st); }});
}

}  // namespace carc::adjudicator

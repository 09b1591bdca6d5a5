#pragma once
// `carc serve`: the judge's workbench and ruling browser, an HTTP/1.1 server (http_conn.h) with
// the page (embedded HTML, CSS, JavaScript; nothing fetched from the internet) and the JSON
// API of api.h.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "adjudicator/serve/api.h"

namespace carc::serve {

// The limits (adjudicator/docs/limits.md): a client cannot hold the server for others.
struct ServeOptions {
  std::string host = "127.0.0.1";  // loopback unless the user says otherwise
  int port = 8080;                 // 0: any free port (the URL printed names it)
  size_t max_body = 512 * 1024;    // request body limit (413 beyond): a 72-tile position is ~6 KiB
  int timeout_s = 5;  // a request (or answer) that moves no byte for this long is dropped
  int idle_s = 5;     // a kept-alive connection with no new request is closed
  int keep_alive_requests = 100;  // requests per kept-alive connection
  // Connections served at once, one thread each (started as needed): slow or idle clients
  // each hold one, and everyone else is still answered; a connection beyond this is answered
  // 503 (exit_code 74) and closed, never left waiting.
  int threads = 128;
  // Once listening: the port, and a function that stops the server (tests; Serve returns 0).
  std::function<void(int port, std::function<void()> stop)> on_listening;
};

// Serves until killed. Prints "carc serve: http://HOST:PORT/" on stdout once listening.
// Returns an exit code (74 when the address cannot be bound).
int Serve(const ServeOptions& opts, Api& api);

// The embedded page files (generated from adjudicator/serve/assets/ at build time).
struct Asset {
  const char* path;  // "/index.html"
  const char* content_type;
  std::string_view data;
};
const Asset* FindAsset(std::string_view path);

}  // namespace carc::serve

#pragma once
// `carc serve`: the judge's workbench and ruling browser, an HTTP server (cpp-httplib) with
// the page (embedded HTML, CSS, JavaScript; nothing fetched from the internet) and the JSON
// API of api.h.

#include <cstddef>
#include <string>
#include <string_view>

#include "adjudicator/serve/api.h"

namespace carc::serve {

struct ServeOptions {
  std::string host = "127.0.0.1";  // loopback unless the user says otherwise
  int port = 8080;                 // 0: any free port (the URL printed names it)
  size_t max_body = 512 * 1024;    // request body limit: a 72-tile position is about 6 KiB
  int timeout_s = 10;              // read / write timeout per request
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

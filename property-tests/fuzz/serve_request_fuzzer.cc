// libFuzzer target: bytes -> one request to `carc serve`'s JSON API (serve::Api::Handle, the
// request reading and dispatch behind the HTTP server, without sockets). The first byte picks
// the call; up to the first newline the rest is the call's parameter (query value or path part),
// after it the request body. Every answer must be JSON {"error", "exit_code"} or the call's own
// answer, never a 500 (an internal error is a finding: the input is a bad request or a ruling).
//
// Built twice: `serve_request_fuzzer` takes every call; `serve_body_fuzzer`
// (CARC_SERVE_FUZZ_BODIES_ONLY) only the six POST calls that read a position from the request
// body (byte 0 modulo 6), so its runs go to the body reader and the rulings it leads to, not to
// the search of the rulings' text (a GET query, most of the other target's time).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "adjudicator/adjudicate.h"
#include "adjudicator/serve/api.h"

#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

using nlohmann::json;

namespace {

carc::serve::Api* api = nullptr;

#ifdef CARC_SERVE_FUZZ_BODIES_ONLY
constexpr int kCalls = 6;  // cases 0-5 below: the calls with a body
#else
constexpr int kCalls = 12;
#endif

}  // namespace

// The API is built once, before the first input (the rulings of the source tree into memory,
// no database file): built inside the first input it counted against that input's time.
// `legal` counts to depth 1 at most: a depth-2 count of a large position is the same code run
// longer, and took most of the run's time.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  auto a = carc::serve::Api::Create({.run = carc::adjudicator::RunJson,
                                     .db_path = "",
                                     .root = CARC_SOURCE_DIR,
                                     .max_perft_depth = 1});
  if (!a.ok()) std::abort();
  api = a->release();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  const size_t nl = rest.find('\n');
  const std::string param = nl == std::string::npos ? std::string() : rest.substr(0, nl);
  const std::string body = nl == std::string::npos ? rest : rest.substr(nl + 1);
  std::string method = "POST", path;
  std::map<std::string, std::string> query;
  switch (data[0] % kCalls) {
    case 0:
      path = "/api/adjudicate";
      break;
    case 1:
      path = "/api/validate";
      break;
    case 2:
      path = "/api/score";
      break;
    case 3:
      path = "/api/legal";
      if (!param.empty()) query["depth"] = param;
      break;
    case 4:
      path = "/api/render";
      break;
    case 5:
      path = "/api/fit";
      break;
    case 6:
      method = "GET", path = "/api/rulings/search";
      query["q"] = body;
      if (!param.empty()) query["limit"] = param;
      break;
    case 7:
      method = "GET", path = "/api/rulings/" + param;
      break;
    case 8:
      method = "GET", path = "/api/games/" + param + "/turn/" + body;
      break;
    case 9:
      method = "GET", path = "/api/fixture";
      query["path"] = param;
      break;
    case 10:
      path = "/api/legal";  // a parameter no call takes
      query[param] = body;
      break;
    default:
      method = "GET", path = "/api/info";
      break;
  }
  const carc::serve::Response r = api->Handle(method, path, query, body);
  auto finding = [&](const char* what) {
    std::fprintf(stderr, "%s: %s %s -> %d %s\n", what, method.c_str(), path.c_str(), r.status,
                 r.body.substr(0, 2000).c_str());
    std::abort();
  };
  if (r.status == 500) finding("internal error");
  if (r.content_type == "application/json") {
    // An answer is only checked to be JSON (no document built: a search answer is large); an
    // error is read for its message.
    if (r.status == 200) {
      if (!json::accept(r.body)) finding("not JSON");
    } else {
      const json j = json::parse(r.body, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded()) finding("not JSON");
      if (!(j.contains("error") && j.contains("exit_code")))
        finding("an error without its message");
    }
  }
  return 0;
}

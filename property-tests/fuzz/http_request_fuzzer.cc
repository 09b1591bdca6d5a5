// libFuzzer target: bytes -> the stream a client sends to `carc serve` on one connection ->
// the server's HTTP reader (adjudicator/serve/http_conn.h), request after request, as the
// server reads them. The bytes go through a socket pair whose sending end is then shut, so a
// read never waits. Every request read must be one the server can answer (a known method, an
// origin-form target, a body within the limit); every refusal an error status with the
// documented JSON error's text and exit code.
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "adjudicator/serve/http_conn.h"

namespace {

using carc::serve::http::Conn;

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A socket pair holds ~200 KiB unread; the requests that matter are far shorter.
  if (size > 64 * 1024) return 0;
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return 0;
  size_t sent = 0;
  while (sent < size) {
    const ssize_t n = write(fds[1], data + sent, size - sent);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  shutdown(fds[1], SHUT_WR);  // end of the client's bytes: every read ends
  {
    carc::serve::http::Limits limits;
    limits.max_body = 4096;  // small, so that the fuzzer reaches the 413 path
    limits.timeout_s = 1;
    limits.idle_s = 1;
    Conn conn(fds[0], limits);  // closes fds[0]
    for (int i = 0; i < 1000; ++i) {
      carc::serve::http::Request req;
      carc::serve::http::Refusal why;
      Conn::Got got = conn.ReadHead(req, why, /*first=*/i == 0);
      if (got == Conn::Got::kRequest) got = conn.ReadBody(req, why);
      if (got == Conn::Got::kGone) break;
      if (got == Conn::Got::kRefused) {
        Check(why.status >= 400 && why.status <= 599);
        Check(!why.error.empty());
        Check(why.exit_code == 64 || why.exit_code == 65 || why.exit_code == 74);
        break;  // the server answers, then closes
      }
      Check(req.method == "GET" || req.method == "HEAD" || req.method == "POST");
      Check(!req.target.empty() && req.target[0] == '/');
      Check(req.minor == 0 || req.minor == 1);
      Check(req.body.size() <= limits.max_body);
    }
  }
  close(fds[1]);
  return 0;
}

#pragma once
// One HTTP/1.1 connection of `carc serve`, read strictly (RFC 9112): a request is answered only
// when it can be read one way. Anything a proxy in front could frame otherwise (a length or
// chunk size written loosely, a header line ending in a bare LF, a folded or percent-encoded
// header value, two framings) is refused with a Refusal, never guessed. The bytes read past one
// request stay in the connection's buffer and begin the next (pipelining).

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace carc::serve::http {

// The limits of adjudicator/docs/limits.md ("carc serve").
inline constexpr size_t kMaxRequestLine = 8192;         // beyond: 414
inline constexpr size_t kMaxHeaderLine = 8192;          // one header line; beyond: 431
inline constexpr size_t kMaxHeaderSection = 64 * 1024;  // all header (or trailer) lines; 431
inline constexpr size_t kMaxChunkLine = 4096;           // a chunk-size line with its extensions

struct Limits {
  size_t max_body = 512 * 1024;  // the decoded body, whatever its framing; beyond: 413
  int timeout_s = 5;             // a request under way that moves no byte for this long: 408
  int idle_s = 5;                // a kept-alive connection with no new request: closed
  int stop_fd = -1;              // readable once the server stops: every wait ends
};

using Headers = std::vector<std::pair<std::string, std::string>>;

struct Request {
  std::string method;  // "GET", "HEAD" or "POST"
  std::string target;  // origin-form, as sent: "/api/games/1?x=y"
  int minor = 1;       // HTTP/1.minor
  Headers headers;     // names as sent; values without surrounding blanks, never decoded
  std::string body;    // decoded from its framing
  bool expect_continue = false;

  // The first value of a header (names compare case-insensitively), or nullptr.
  const std::string* Find(std::string_view name) const;
};

// A request refused: the answer's status, its JSON error and exit code, extra headers. The
// connection is closed after it (the rest of the request is not read as the next one).
struct Refusal {
  int status = 400;
  std::string error;
  int exit_code = 64;
  Headers headers;
};

class Conn {
 public:
  Conn(int fd, const Limits& limits) : fd_(fd), limits_(limits) {}
  ~Conn();
  Conn(const Conn&) = delete;
  Conn& operator=(const Conn&) = delete;

  enum class Got {
    kRequest,  // read
    kRefused,  // answer the Refusal, then Close()
    kGone,     // the client closed or went quiet, or the server stops: close, answer nothing
  };
  // Reads the next request's line and headers and checks its framing (Content-Length,
  // Transfer-Encoding, Content-Encoding, Host syntax, Expect). `first`: the connection's first
  // request (waited for timeout_s; a later one idle_s).
  Got ReadHead(Request& req, Refusal& why, bool first);
  // Reads the body the head frames (Content-Length or chunked), at most max_body decoded bytes.
  // Sends "100 Continue" first when the client asked for it.
  Got ReadBody(Request& req, Refusal& why);

  // Writes all of `bytes` (false when the client is gone or takes none for timeout_s).
  bool Write(std::string_view bytes);
  // Ends the connection after the last answer: stops sending, then reads and drops what the
  // client still sends (bounded by timeout_s and a byte count), so that closing with unread
  // bytes does not reset the connection before the client has read the answer.
  void Close();

 private:
  enum class Fill { kOk, kEof, kTimeout, kError };
  enum class Line { kOk, kTooLong, kBareLf, kEof, kTimeout, kError };
  Fill More(int timeout_ms);
  Line ReadLine(size_t max, std::string& line);
  Got ReadBytes(size_t n, std::string& out, Refusal& why);
  Got LineFailed(Line got, Refusal& why, int too_long_status, const std::string& what);

  int fd_;
  Limits limits_;
  std::string buf_;  // bytes read and not yet consumed start at pos_
  size_t pos_ = 0;
  // The framing of the request being read.
  bool chunked_ = false;
  size_t length_ = 0;
  size_t declared_left_ = 0;  // Content-Length bytes not read (Close stops draining there)
  bool closed_ = false;
};

// Percent-decodes a URL's path or query part strictly: `%` takes exactly two hex digits; with
// `plus_is_space` (a query) `+` is a space; with `keep_slash` (a path) `%2F` stays written
// `%2F`, so that it is no separator between the path's segments. False on a lone `%`.
bool PercentDecode(std::string_view in, bool plus_is_space, bool keep_slash, std::string& out);

// Checks a Host header's syntax: a bracketed IPv6 address or a name of URI host characters,
// then an optional ':' and port digits. Sets `name` (lower-case, brackets kept).
bool ParseHost(std::string_view value, std::string& name);

}  // namespace carc::serve::http

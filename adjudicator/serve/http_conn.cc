#include "adjudicator/serve/http_conn.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

namespace carc::serve::http {

namespace {

// After a refusal, at most this many bytes the client is still sending are read and dropped
// (more than the largest --max-body), so that a client uploading a body gets its answer.
constexpr size_t kMaxDrain = 32 * 1024 * 1024;

char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (Lower(a[i]) != Lower(b[i])) return false;
  return true;
}

// RFC 9110 tchar: the characters of a method or a header name.
bool IsTchar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool IsToken(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!IsTchar(c)) return false;
  return true;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A control character other than tab: never in a header value (RFC 9110 field-value).
bool HasControl(std::string_view s) {
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t') || u == 0x7f) return true;
  }
  return false;
}

std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A value for a message: cut at 60 bytes.
std::string Shown(std::string_view s) {
  return "\"" + std::string(s.substr(0, 60)) + (s.size() > 60 ? "...\"" : "\"");
}

Refusal Refuse(int status, std::string error, int exit_code = 64) {
  return {status, "carc serve: " + std::move(error), exit_code, {}};
}

Refusal TooLarge() { return {413, "request body too large", 65, {}}; }

bool IsKnownMethod(std::string_view m) {
  for (std::string_view k : {"PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"})
    if (m == k) return true;
  return false;
}

// The request line METHOD TARGET HTTP/1.x: a method served here, an origin-form target of
// printable ASCII, HTTP/1.1 or 1.0. False with the refusal otherwise.
bool ReadRequestLine(const std::string& line, Request& req, Refusal& why) {
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string::npos || line.find(' ', sp2 + 1) != std::string::npos ||
      HasControl(line)) {
    why = Refuse(400, "expected a request line METHOD PATH HTTP/1.1, got " + Shown(line));
    return false;
  }
  req.method = line.substr(0, sp1);
  req.target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  const std::string version = line.substr(sp2 + 1);
  if (!IsToken(req.method) || req.target.empty() || version.size() != 8 ||
      version.compare(0, 5, "HTTP/") != 0 || version[6] != '.' || HexValue(version[5]) < 0 ||
      HexValue(version[5]) > 9 || HexValue(version[7]) < 0 || HexValue(version[7]) > 9) {
    why = Refuse(400, "expected a request line METHOD PATH HTTP/1.1, got " + Shown(line));
    return false;
  }
  if (version != "HTTP/1.1" && version != "HTTP/1.0") {
    why = Refuse(505, version + ": only HTTP/1.1 and HTTP/1.0 are served");
    return false;
  }
  req.minor = version[7] - '0';
  if (req.method != "GET" && req.method != "HEAD" && req.method != "POST") {
    why = Refuse(IsKnownMethod(req.method) ? 405 : 501,
                 Shown(req.method) + ": not a method served here (GET, HEAD, POST)");
    why.headers.push_back({"Allow", "GET, HEAD, POST"});
    return false;
  }
  if (req.target.front() != '/' || req.target.find('#') != std::string::npos) {
    why = Refuse(400, "expected a path starting with '/', got " + Shown(req.target));
    return false;
  }
  for (char c : req.target)
    if (static_cast<unsigned char>(c) > 0x7e || static_cast<unsigned char>(c) <= 0x20) {
      why = Refuse(400,
                   "a blank, control character or byte that is not ASCII in the path: "
                   "percent-encode it");
      return false;
    }

  return true;
}

// The headers' framing, read one way only: one Content-Length of digits or Transfer-Encoding
// chunked (not both), no content coding, a Host of the right form (required in HTTP/1.1),
// an Expect of 100-continue. False with the refusal otherwise.
bool CheckFraming(Request& req, Refusal& why, bool& chunked) {
  // The framing: one reading only.
  for (const char* name : {"Content-Length", "Transfer-Encoding", "Host", "Connection", "Expect"}) {
    int count = 0;
    for (const auto& [n, v] : req.headers) count += EqualsNoCase(n, name);
    if (count > 1) {
      why = Refuse(400,
                   std::string(name) + " given twice: which one the request meant is not guessed");
      return false;
    }
  }
  const std::string* cl = req.Find("Content-Length");
  const std::string* te = req.Find("Transfer-Encoding");
  // Only a POST carries a question: a body on GET or HEAD would be read and dropped, and the
  // answer be about the URL alone.
  if (req.method != "POST" && (te || (cl && cl->find_first_not_of('0') != std::string::npos))) {
    why = Refuse(400, req.method + " carries no body here: send a question with POST");
    return false;
  }
  if (cl && (cl->empty() || cl->find_first_not_of("0123456789") != std::string::npos)) {
    why =
        Refuse(400, "Content-Length: expected the body's length in bytes as decimal digits, got " +
                        Shown(*cl));
    return false;
  }
  if (te) {
    // Transfer codings are named case-insensitively (RFC 9112 section 7).
    if (!EqualsNoCase(*te, "chunked")) {
      why = Refuse(400, "Transfer-Encoding: only chunked is read, got " + Shown(*te));
      return false;
    }
    if (cl) {
      why = Refuse(400,
                   "Content-Length and Transfer-Encoding both given: which one frames the body is "
                   "not guessed");
      return false;
    }
    if (req.minor == 0) {
      why = Refuse(400, "Transfer-Encoding in an HTTP/1.0 request: its framing is not read");
      return false;
    }
    chunked = true;
  }
  // No content coding is decoded: a body declared encoded is refused, never read as plain.
  for (const auto& [n, v] : req.headers)
    if (EqualsNoCase(n, "Content-Encoding") && !EqualsNoCase(v, "identity")) {
      why = Refuse(415,
                   "Content-Encoding: " + Shown(v) +
                       ": request bodies are read as sent; send the body without a content coding",
                   65);
      why.headers.push_back({"Accept-Encoding", "identity"});
      return false;
    }
  const std::string* host = req.Find("Host");
  std::string host_name;
  if (!host && req.minor == 1) {
    why = Refuse(400, "Host: missing (an HTTP/1.1 request names its host)");
    return false;
  }
  if (host && !ParseHost(*host, host_name)) {
    why = Refuse(400, "Host: expected a host name and an optional :port, got " + Shown(*host));
    return false;
  }
  if (const std::string* expect = req.Find("Expect")) {
    if (!EqualsNoCase(*expect, "100-continue")) {
      why = Refuse(417, "Expect: only 100-continue is met, got " + Shown(*expect));
      return false;
    }
    req.expect_continue = req.minor == 1;
  }
  return true;
}

}  // namespace

const std::string* Request::Find(std::string_view name) const {
  for (const auto& [n, v] : headers)
    if (EqualsNoCase(n, name)) return &v;
  return nullptr;
}

Conn::~Conn() {
  if (!closed_) Close();
}

Conn::Fill Conn::More(int timeout_ms) {
  pollfd fds[2] = {{fd_, POLLIN, 0}, {limits_.stop_fd, POLLIN, 0}};
  for (;;) {
    const int n = poll(fds, limits_.stop_fd >= 0 ? 2 : 1, timeout_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Fill::kError;
    if (n == 0) return Fill::kTimeout;
    if (limits_.stop_fd >= 0 && fds[1].revents) return Fill::kError;  // the server stops
    break;
  }
  // The bytes consumed are dropped first: a body of many small chunks with long extensions
  // would otherwise keep every line it sent.
  buf_.erase(0, pos_);
  pos_ = 0;
  char chunk[16384];
  for (;;) {
    const ssize_t got = recv(fd_, chunk, sizeof chunk, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Fill::kError;
    if (got == 0) return Fill::kEof;
    buf_.append(chunk, static_cast<size_t>(got));
    return Fill::kOk;
  }
}

// One line ending in CRLF, without it. A line ending in a bare LF is refused: a proxy that
// reads only CRLF as a line end would frame the request otherwise.
Conn::Line Conn::ReadLine(size_t max, std::string& line) {
  size_t scanned = 0;  // bytes after pos_ already searched (More moves pos_ to 0)
  for (;;) {
    const size_t nl = buf_.find('\n', pos_ + scanned);
    if (nl != std::string::npos) {
      if (nl == pos_ || buf_[nl - 1] != '\r') return Line::kBareLf;
      if (nl - 1 - pos_ > max) return Line::kTooLong;
      line.assign(buf_, pos_, nl - 1 - pos_);
      pos_ = nl + 1;
      return Line::kOk;
    }
    if (buf_.size() - pos_ > max + 1) return Line::kTooLong;
    scanned = buf_.size() - pos_;
    switch (More(limits_.timeout_s * 1000)) {
      case Fill::kOk:
        break;
      case Fill::kEof:
        return Line::kEof;
      case Fill::kTimeout:
        return Line::kTimeout;
      case Fill::kError:
        return Line::kError;
    }
  }
}

Conn::Got Conn::LineFailed(Line got, Refusal& why, int too_long_status, const std::string& what) {
  switch (got) {
    case Line::kTooLong:
      why = Refuse(too_long_status, what + " is too long");
      return Got::kRefused;
    case Line::kBareLf:
      why = Refuse(400, what + " ends in a bare LF: lines end in CRLF");
      return Got::kRefused;
    case Line::kTimeout:
      why = Refuse(408,
                   "the request was not completed: no byte came for " +
                       std::to_string(limits_.timeout_s) + " s (--read-timeout)",
                   74);
      return Got::kRefused;
    default:
      return Got::kGone;
  }
}

Conn::Got Conn::ReadHead(Request& req, Refusal& why, bool first) {
  req = Request{};
  chunked_ = false;
  length_ = declared_left_ = 0;
  buf_.erase(0, pos_);
  pos_ = 0;
  // Nothing of the next request yet: the client may send it later (idle), or close.
  if (buf_.empty() && More((first ? limits_.timeout_s : limits_.idle_s) * 1000) != Fill::kOk)
    return Got::kGone;

  // The request line; an empty line or two before it are ignored (RFC 9112 section 2.2).
  std::string line;
  for (int blank = 0;; ++blank) {
    if (Line got = ReadLine(kMaxRequestLine, line); got != Line::kOk)
      return LineFailed(got, why, 414, "the request line");
    if (!line.empty()) break;
    if (blank == 2) {
      why = Refuse(400, "expected a request line, got empty lines");
      return Got::kRefused;
    }
  }
  if (!ReadRequestLine(line, req, why)) return Got::kRefused;

  // The header lines.
  size_t section = 0;
  for (;;) {
    if (Line got = ReadLine(kMaxHeaderLine, line); got != Line::kOk)
      return LineFailed(got, why, 431, "a header line");
    if (line.empty()) break;
    section += line.size() + 2;
    if (section > kMaxHeaderSection) {
      why = Refuse(431, "the request's headers are longer than " +
                            std::to_string(kMaxHeaderSection) + " bytes");
      return Got::kRefused;
    }
    if (line.front() == ' ' || line.front() == '\t') {
      why = Refuse(400, "a header line begins with a blank (line folding is not read)");
      return Got::kRefused;
    }
    const size_t colon = line.find(':');
    const std::string_view name = std::string_view(line).substr(0, colon);
    if (colon == std::string::npos || !IsToken(name)) {
      why = Refuse(400,
                   "expected a header line NAME: VALUE, with the name directly before the "
                   "':', got " +
                       Shown(line));
      return Got::kRefused;
    }
    const std::string_view value = TrimBlanks(std::string_view(line).substr(colon + 1));
    if (HasControl(value)) {
      why = Refuse(400, std::string(name) + ": a control character in the value");
      return Got::kRefused;
    }
    req.headers.emplace_back(name, value);
  }

  if (!CheckFraming(req, why, chunked_)) return Got::kRefused;
  const std::string* cl = req.Find("Content-Length");
  if (cl) {
    // More digits than any length that fits is over the limit anyway.
    const std::string digits = cl->substr(std::min(cl->find_first_not_of('0'), cl->size()));
    length_ = digits.size() > 15 ? kMaxDrain : digits.empty() ? 0 : std::stoull(digits);
    if (length_ > limits_.max_body) {
      why = TooLarge();
      declared_left_ = length_ - std::min(length_, buf_.size() - pos_);
      return Got::kRefused;
    }
  }
  return Got::kRequest;
}

Conn::Got Conn::ReadBytes(size_t n, std::string& out, Refusal& why) {
  while (buf_.size() - pos_ < n) {
    switch (More(limits_.timeout_s * 1000)) {
      case Fill::kOk:
        break;
      case Fill::kTimeout:
        return LineFailed(Line::kTimeout, why, 0, "");
      default:
        return Got::kGone;
    }
  }
  out.append(buf_, pos_, n);
  pos_ += n;
  return Got::kRequest;
}

Conn::Got Conn::ReadBody(Request& req, Refusal& why) {
  if (!chunked_ && length_ == 0) return Got::kRequest;
  if (req.expect_continue && !Write("HTTP/1.1 100 Continue\r\n\r\n")) return Got::kGone;
  if (!chunked_) {
    declared_left_ = length_;
    const Got got = ReadBytes(length_, req.body, why);
    if (got == Got::kRequest) declared_left_ = 0;
    return got;
  }
  // chunked: chunk-size [ ";" extensions ] CRLF, data CRLF, ..., "0" CRLF, trailers, CRLF.
  std::string line;
  for (;;) {
    if (Line got = ReadLine(kMaxChunkLine, line); got != Line::kOk)
      return LineFailed(got, why, 400, "a chunk-size line");
    size_t digits = 0;
    while (digits < line.size() && HexValue(line[digits]) >= 0) ++digits;
    if (digits == 0 || (digits < line.size() && line[digits] != ';') ||
        HasControl(std::string_view(line).substr(digits))) {
      why = Refuse(
          400, "a chunk size: expected hex digits and optional ;extensions, got " + Shown(line));
      return Got::kRefused;
    }
    size_t size = 0;
    for (size_t i = 0; i < digits; ++i) {
      size = size * 16 + static_cast<size_t>(HexValue(line[i]));
      if (size > limits_.max_body) {  // checked per digit: no overflow
        why = TooLarge();
        return Got::kRefused;
      }
    }
    if (size == 0) break;
    if (size > limits_.max_body - req.body.size()) {
      why = TooLarge();
      return Got::kRefused;
    }
    if (Got got = ReadBytes(size, req.body, why); got != Got::kRequest) return got;
    std::string crlf;
    if (Got got = ReadBytes(2, crlf, why); got != Got::kRequest) return got;
    if (crlf != "\r\n") {
      why = Refuse(400, "a chunk's data is not followed by CRLF: its size does not match");
      return Got::kRefused;
    }
  }
  // The trailer section: read and ignored (no trailer changes how the request is answered).
  size_t section = 0;
  for (;;) {
    if (Line got = ReadLine(kMaxHeaderLine, line); got != Line::kOk)
      return LineFailed(got, why, 431, "a trailer line");
    if (line.empty()) return Got::kRequest;
    section += line.size() + 2;
    const size_t colon = line.find(':');
    if (colon == std::string::npos || !IsToken(std::string_view(line).substr(0, colon)) ||
        HasControl(line)) {
      why = Refuse(400, "expected a trailer line NAME: VALUE, got " + Shown(line));
      return Got::kRefused;
    }
    if (section > kMaxHeaderSection) {
      why = Refuse(431, "the request's trailers are longer than " +
                            std::to_string(kMaxHeaderSection) + " bytes");
      return Got::kRefused;
    }
  }
}

bool Conn::Write(std::string_view bytes) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    pollfd p = {fd_, POLLOUT, 0};
    const int ready = poll(&p, 1, limits_.timeout_s * 1000);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    const ssize_t n = send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

void Conn::Close() {
  if (closed_) return;
  closed_ = true;
  shutdown(fd_, SHUT_WR);
  // Read and drop what the client still sends, until it closes, a declared body's end, or
  // timeout_s in all.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limits_.timeout_s);
  size_t drained = 0;
  const size_t limit = declared_left_ ? std::min(declared_left_, kMaxDrain) : kMaxDrain;
  buf_.clear();
  pos_ = 0;
  while (drained < limit) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0 || More(static_cast<int>(left)) != Fill::kOk) break;
    drained += buf_.size();
    buf_.clear();
  }
  close(fd_);
}

bool PercentDecode(std::string_view in, bool plus_is_space, bool keep_slash, std::string& out) {
  out.clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '+' && plus_is_space) {
      out += ' ';
    } else if (in[i] != '%') {
      out += in[i];
    } else {
      if (i + 2 >= in.size()) return false;
      const int hi = HexValue(in[i + 1]), lo = HexValue(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      const char c = static_cast<char>(hi * 16 + lo);
      if (c == '/' && keep_slash)
        out.append(in.substr(i, 3));
      else
        out += c;
      i += 2;
    }
  }
  return true;
}

bool ParseHost(std::string_view value, std::string& name) {
  size_t end;
  if (!value.empty() && value.front() == '[') {
    end = value.find(']');
    if (end == std::string_view::npos || end == 1) return false;
    for (char c : value.substr(1, end - 1))
      if (HexValue(c) < 0 && c != ':' && c != '.') return false;
    ++end;
  } else {
    end = 0;
    // RFC 3986 reg-name: unreserved, pct-encoded and sub-delims.
    while (end < value.size() &&
           (IsTchar(value[end]) || value[end] == '(' || value[end] == ')' || value[end] == ',' ||
            value[end] == ';' || value[end] == '=') &&
           value[end] != '|' && value[end] != '^' && value[end] != '`' && value[end] != '#')
      ++end;
    if (end == 0) return false;
  }
  std::string_view port = value.substr(end);
  if (!port.empty()) {
    if (port.front() != ':' || port.size() < 2 || port.size() > 6) return false;
    for (char c : port.substr(1))
      if (c < '0' || c > '9') return false;
  }
  name.clear();
  for (char c : value.substr(0, end)) name += Lower(c);
  return true;
}

}  // namespace carc::serve::http

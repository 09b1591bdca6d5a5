#include "adjudicator/serve/server.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <ctime>
#include <deque>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "adjudicator/exit_codes.h"
#include "adjudicator/serve/http_conn.h"

namespace carc::serve {

namespace {

// A URL query read strictly: `name=value` items joined by `&`, each name once, each value
// percent-decoded (`%` with two hex digits, `+` a space). A `;` or a second `=` in an item, or
// a repeated name, is refused: which value was meant is not guessed (a reader that splits at
// `;` takes the last piece of `depth=0;depth=2`, 2). "" when it reads; else the message.
std::string ReadQuery(const std::string& text, std::map<std::string, std::string>& out) {
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find('&', at);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(at, end - at);
    at = end + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    std::string name, value;
    if (!http::PercentDecode(item.substr(0, eq), true, false, name) ||
        (eq != std::string::npos && !http::PercentDecode(item.substr(eq + 1), true, false, value)))
      return "query: a '%' not followed by two hex digits (write '%' itself as %25)";
    if (item.find(';') != std::string::npos ||
        (eq != std::string::npos && item.find('=', eq + 1) != std::string::npos))
      return name + ": a query item holds a second '=' or a ';' (write it as %3D or %3B)";
    if (!out.emplace(name, value).second) return name + ": query parameter given twice";
  }
  return "";
}

// The page runs only its own script; rulings' SVG pictures carry a <style> element.
constexpr const char* kCsp =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'";

bool IsLoopback(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]";
}

const char* Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 413:
      return "Content Too Large";
    case 414:
      return "URI Too Long";
    case 415:
      return "Unsupported Media Type";
    case 417:
      return "Expectation Failed";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Error";
  }
}

std::string JsonError(const std::string& error, int exit_code) {
  return nlohmann::json({{"error", error}, {"exit_code", exit_code}})
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

struct Answer {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  http::Headers headers;
};

Answer ErrorAnswer(int status, const std::string& error, int exit_code) {
  return {status, "application/json", JsonError(error, exit_code), {}};
}

// The bytes of an answer: every one has a Content-Length (HEAD: that of the GET, no body).
std::string Format(const Answer& a, bool close, bool head_only) {
  char date[64];
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  std::string out = "HTTP/1.1 " + std::to_string(a.status) + " " + Reason(a.status) + "\r\n";
  out += "Date: " + std::string(date) + "\r\n";
  out += "Content-Type: " + a.content_type + "\r\n";
  out += "Content-Length: " + std::to_string(a.body.size()) + "\r\n";
  out += "X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n";
  for (const auto& [n, v] : a.headers) out += n + ": " + v + "\r\n";
  if (close) out += "Connection: close\r\n";
  out += "\r\n";
  if (!head_only) out += a.body;
  return out;
}

// Whether the connection ends after this request: the client asked to close it, or it speaks
// HTTP/1.0 (kept-alive HTTP/1.0 connections are not kept).
bool WantsClose(const http::Request& req) {
  if (req.minor == 0) return true;
  const std::string* c = req.Find("Connection");
  std::string v;
  for (char ch : c ? *c : "") v += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  auto has = [&](const std::string& token) {
    size_t at = 0;
    while (at <= v.size()) {
      size_t end = v.find(',', at);
      if (end == std::string::npos) end = v.size();
      std::string item = v.substr(at, end - at);
      item.erase(0, item.find_first_not_of(" \t"));
      item.erase(item.find_last_not_of(" \t") + 1);
      if (item == token) return true;
      at = end + 1;
    }
    return false;
  };
  return has("close");
}

struct Context {
  const ServeOptions& opts;
  Api& api;
  http::Limits limits;
  bool loopback;
};

// Behind a loopback bind, only requests addressed to a loopback name (or the --host given) are
// answered: a web page elsewhere cannot reach the server through a DNS name that resolves to
// 127.0.0.1. The Host header's syntax is checked with the head (http_conn.cc).
bool HostAllowed(const http::Request& req, const Context& ctx) {
  const std::string* host = req.Find("Host");
  if (!host) return true;  // HTTP/1.0 clients
  std::string name;
  if (!http::ParseHost(*host, name)) return false;
  if (name == "localhost" || name == "127.0.0.1" || name == "[::1]") return true;
  const std::string& mine = ctx.opts.host;
  return name == mine || (mine.find(':') != std::string::npos && name == "[" + mine + "]");
}

// The answer to one read request: the API (api.h) under /api/, else one of the page's files.
Answer Route(const http::Request& req, const Context& ctx) {
  const size_t q = req.target.find('?');
  std::string path;
  // `%2F` stays written so: a segment holding it (a game number "1%2Fturn%2F1") is not split.
  if (!http::PercentDecode(req.target.substr(0, q), false, true, path))
    return ErrorAnswer(400,
                       "carc serve: the path holds a '%' not followed by two hex digits "
                       "(write '%' itself as %25)",
                       adjudicator::kExitUsage);
  const std::string method = req.method == "HEAD" ? "GET" : req.method;
  if (path.rfind("/api/", 0) == 0) {
    std::map<std::string, std::string> query;
    if (q != std::string::npos)
      if (std::string bad = ReadQuery(req.target.substr(q + 1), query); !bad.empty())
        return ErrorAnswer(400, bad, adjudicator::kExitUsage);
    Response r = ctx.api.Handle(method, path, query, req.body);
    return {r.status, r.content_type, r.body, {}};
  }
  // The page reads its state from the URL's fragment, never from a query: one given is refused
  // as for the API calls' unread parameters.
  if (q != std::string::npos)
    return ErrorAnswer(400, "carc serve: " + path + " reads no query parameter",
                       adjudicator::kExitUsage);
  bool name_ok = method == "GET";
  for (size_t i = 1; i < path.size() && name_ok; ++i) {
    const char c = path[i];
    name_ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '.' || c == '-';
  }
  const Asset* a = name_ok ? FindAsset(path == "/" ? "/index.html" : path) : nullptr;
  if (!a)
    return ErrorAnswer(404, "carc serve: no such page: " + method + " " + path,
                       adjudicator::kExitNoInput);
  return {200, a->content_type, std::string(a->data), {{"Content-Security-Policy", kCsp}}};
}

void Refuse(http::Conn& conn, const http::Refusal& why, bool head_only = false) {
  Answer a = ErrorAnswer(why.status, why.error, why.exit_code);
  a.headers = why.headers;
  conn.Write(Format(a, /*close=*/true, head_only));
  conn.Close();
}

// One connection, request after request until either side closes it.
void ServeConnection(int fd, const Context& ctx) {
  http::Conn conn(fd, ctx.limits);
  for (int n = 1;; ++n) {
    http::Request req;
    http::Refusal why;
    http::Conn::Got got = conn.ReadHead(req, why, n == 1);
    if (got == http::Conn::Got::kGone) return;
    if (got == http::Conn::Got::kRefused) return Refuse(conn, why, req.method == "HEAD");
    // Before the body is read: a request to another host costs its head only.
    const bool head = req.method == "HEAD";  // answered without a body, refusals included
    if (ctx.loopback && !HostAllowed(req, ctx))
      return Refuse(conn, {403, "carc serve: unexpected Host header", adjudicator::kExitUsage, {}},
                    head);
    got = conn.ReadBody(req, why);
    if (got == http::Conn::Got::kGone) return;
    if (got == http::Conn::Got::kRefused) return Refuse(conn, why, head);
    const bool close = n >= ctx.opts.keep_alive_requests || WantsClose(req);
    Answer a;
    try {
      a = Route(req, ctx);
    } catch (const std::exception& e) {
      a = ErrorAnswer(500, std::string("internal error: ") + e.what(), adjudicator::kExitInternal);
    }
    if (!conn.Write(Format(a, close, req.method == "HEAD")) || close) return conn.Close();
  }
}

// A connection beyond the bound: its request head is read (so that the client, which sends it
// at once, reads the answer rather than a reset), answered 503 and closed.
void TurnAway(int fd, const Context& ctx) {
  http::Conn conn(fd, ctx.limits);
  http::Request req;
  http::Refusal why;
  if (conn.ReadHead(req, why, true) == http::Conn::Got::kGone) return;
  Answer a = ErrorAnswer(503,
                         "carc serve: busy: " + std::to_string(ctx.opts.threads) +
                             " connections are being served (--max-connections); try again",
                         adjudicator::kExitIo);
  a.headers.push_back({"Retry-After", "1"});
  conn.Write(Format(a, /*close=*/true, req.method == "HEAD"));
  conn.Close();
}

// The connections' threads, started as needed up to `max`. A connection that no thread is free
// to take goes to `overflow` (a few threads that answer it 503 and close it) and waits for
// nobody; without an overflow pool (the overflow pool itself) it waits in turn.
class GrowingPool {
 public:
  GrowingPool(size_t max, std::function<void(int)> serve, std::unique_ptr<GrowingPool> overflow)
      : max_(max), serve_(std::move(serve)), overflow_(std::move(overflow)) {}
  ~GrowingPool() { Shutdown(); }

  void Take(int fd) {
    std::unique_lock<std::mutex> lock(mu_);
    if (overflow_ && threads_.size() >= max_ && jobs_.size() >= idle_) {
      lock.unlock();
      return overflow_->Take(fd);
    }
    jobs_.push_back(fd);
    if (jobs_.size() > idle_ && threads_.size() < max_)
      threads_.emplace_back([this] { Work(); });
    else
      cv_.notify_one();
  }
  // Ends once every connection taken is served (the server's stop ends their waits).
  void Shutdown() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
    if (overflow_) overflow_->Shutdown();
  }

 private:
  void Work() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      ++idle_;
      cv_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      --idle_;
      if (jobs_.empty()) return;  // stopping, every connection served
      const int fd = jobs_.front();
      jobs_.pop_front();
      lock.unlock();
      serve_(fd);
      lock.lock();
    }
  }

  const size_t max_;
  const std::function<void(int)> serve_;
  const std::unique_ptr<GrowingPool> overflow_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<int> jobs_;
  std::vector<std::thread> threads_;
  size_t idle_ = 0;
  bool stopping_ = false;
};

// Threads that answer 503 to connections beyond the bound: each holds a connection only while
// its request head is read (a client sends it at once), so a few suffice. Clients slow to send
// it hold these too (each read bounded by the read timeout); the connections behind them wait.
constexpr size_t kTurnAwayThreads = 4;

// A listening socket on host:port (port 0: any free port, written back), or -1.
int Listen(const std::string& host, int& port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* list = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &list) != 0) return -1;
  int fd = -1;
  for (addrinfo* ai = list; ai && fd < 0; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    const int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 || listen(fd, SOMAXCONN) != 0) {
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(list);
  if (fd < 0) return -1;
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  port = ntohs(addr.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port
                                          : reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  return fd;
}

// Written once to stop the server: its read end then stays readable, and every wait on it ends.
struct StopPipe {
  int fds[2] = {-1, -1};
  StopPipe() {
    if (pipe2(fds, O_CLOEXEC) != 0) fds[0] = fds[1] = -1;
  }
  ~StopPipe() {
    for (int fd : fds)
      if (fd >= 0) close(fd);
  }
  void Stop() const {
    const char c = 's';
    if (write(fds[1], &c, 1) < 0) {  // the pipe is never full: one byte, never read
    }
  }
};

}  // namespace

int Serve(const ServeOptions& opts, Api& api) {
  int port = opts.port;
  const int listen_fd = Listen(opts.host, port);
  auto stop = std::make_shared<StopPipe>();
  if (listen_fd < 0 || stop->fds[0] < 0) {
    if (listen_fd >= 0) close(listen_fd);
    std::cerr << "carc: serve: cannot listen on " << opts.host << ":" << opts.port
              << " (address in use, or not an address of this machine)\n";
    return adjudicator::kExitIo;
  }
  const Context ctx{
      opts, api, {opts.max_body, opts.timeout_s, opts.idle_s, stop->fds[0]}, IsLoopback(opts.host)};

  const std::string shown =
      opts.host.find(':') != std::string::npos ? "[" + opts.host + "]" : opts.host;
  std::cout << "carc serve: http://" << shown << ":" << port << "/" << std::endl;
  std::cout << "rulings: " << api.db_description() << std::endl;
  if (!ctx.loopback)
    std::cout << "warning: listening on " << opts.host
              << ", not loopback: anyone who can reach this address can use the page" << std::endl;
  if (opts.on_listening) opts.on_listening(port, [stop] { stop->Stop(); });

  GrowingPool pool(
      static_cast<size_t>(opts.threads), [&ctx](int fd) { ServeConnection(fd, ctx); },
      std::make_unique<GrowingPool>(
          kTurnAwayThreads, [&ctx](int fd) { TurnAway(fd, ctx); }, nullptr));
  int code = 0;
  for (;;) {
    pollfd fds[2] = {{listen_fd, POLLIN, 0}, {stop->fds[0], POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      code = adjudicator::kExitIo;
      break;
    }
    if (fds[1].revents) break;
    const int fd = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      // The client gave up already; or no descriptor is free for now: wait for one to close.
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    pool.Take(fd);
  }
  close(listen_fd);
  pool.Shutdown();
  return code;
}

}  // namespace carc::serve

#include "adjudicator/serve/server.h"

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "adjudicator/exit_codes.h"

namespace carc::serve {

namespace {

// A URL query read strictly: `name=value` items joined by `&`, each name once, each value
// percent-decoded. cpp-httplib's reader takes the last piece of `depth=0;depth=2` as the value
// (2), so a `;` or a second `=` in an item, or a repeated name, is refused: which value was
// meant is not guessed. "" when it reads; else the message.
std::string ReadQuery(const std::string& text, std::map<std::string, std::string>& out) {
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find('&', at);
    if (end == std::string::npos) end = text.size();
    const std::string item = text.substr(at, end - at);
    at = end + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string name =
        httplib::detail::decode_url(item.substr(0, eq), /*convert_plus_to_space=*/true);
    if (item.find(';') != std::string::npos ||
        (eq != std::string::npos && item.find('=', eq + 1) != std::string::npos))
      return name + ": a query item holds a second '=' or a ';' (write it as %3D or %3B)";
    const std::string value =
        eq == std::string::npos ? "" : httplib::detail::decode_url(item.substr(eq + 1), true);
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

// Behind a loopback bind, only requests addressed to a loopback name are answered: a web page
// elsewhere cannot reach the server through a DNS name that resolves to 127.0.0.1.
bool HostAllowed(const httplib::Request& req) {
  std::string host = req.get_header_value("Host");
  if (host.empty()) return true;  // HTTP/1.0 clients
  if (host.front() == '[') {
    host = host.substr(0, host.find(']') + 1);
  } else if (auto colon = host.rfind(':'); colon != std::string::npos) {
    host.resize(colon);
  }
  return IsLoopback(host);
}

// True on the threads that turn connections away (GrowingPool's overflow): their requests are
// answered 503 by the pre-routing handler in Serve.
thread_local bool t_turn_away = false;

// The connections' threads, started as needed up to `max` (httplib's own pool has a fixed 8:
// eight slow or idle clients held every one of them). A connection that no thread is free to
// take goes to `overflow` (a few threads that answer it 503 and close it) and waits for nobody;
// without an overflow pool (the overflow pool itself) it waits in turn.
class GrowingPool : public httplib::TaskQueue {
 public:
  GrowingPool(size_t max, std::unique_ptr<GrowingPool> overflow, bool turn_away)
      : max_(max), overflow_(std::move(overflow)), turn_away_(turn_away) {}
  void enqueue(std::function<void()> fn) override {
    std::unique_lock<std::mutex> lock(mu_);
    if (overflow_ && threads_.size() >= max_ && jobs_.size() >= idle_) {
      lock.unlock();
      return overflow_->enqueue(std::move(fn));
    }
    jobs_.push_back(std::move(fn));
    if (jobs_.size() > idle_ && threads_.size() < max_)
      threads_.emplace_back([this] { Work(); });
    else
      cv_.notify_one();
  }
  void shutdown() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (std::thread& t : threads_) t.join();
    if (overflow_) overflow_->shutdown();
  }

 private:
  void Work() {
    t_turn_away = turn_away_;
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      ++idle_;
      cv_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      --idle_;
      if (jobs_.empty()) return;  // stopping, every connection served
      std::function<void()> fn = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      fn();
      lock.lock();
    }
  }

  const size_t max_;
  const std::unique_ptr<GrowingPool> overflow_;
  const bool turn_away_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  size_t idle_ = 0;
  bool stopping_ = false;
};

// Threads that answer 503 to connections beyond the bound: each holds a connection only while
// its request head is read (a client sends it at once), so a few suffice. Clients slow to send
// it hold these too (each read bounded by the read timeout); the connections behind them wait.
constexpr size_t kTurnAwayThreads = 4;

// A JSON error answered on a connection that is then closed. Written by a content provider that
// then reports failure: cpp-httplib keeps a connection open after a handled request whatever its
// Connection header says, and closes it when writing the answer fails.
void AnswerAndClose(httplib::Response& res, int status, const std::string& error, int exit_code) {
  std::string body = nlohmann::json({{"error", error}, {"exit_code", exit_code}})
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  res.status = status;
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Cache-Control", "no-store");
  res.set_header("Connection", "close");
  res.set_content_provider(body.size(), "application/json",
                           [body](size_t offset, size_t length, httplib::DataSink& sink) {
                             sink.write(body.data() + offset, length);
                             return false;  // the whole answer is written: close
                           });
}

// The answer on a turned-away connection.
void TurnAway(httplib::Response& res, int bound) {
  res.set_header("Retry-After", "1");
  AnswerAndClose(res, 503,
                 "carc serve: busy: " + std::to_string(bound) +
                     " connections are being served (--max-connections); try again",
                 adjudicator::kExitIo);
}

// A request whose framing can be read two ways: cpp-httplib reads a Content-Length of "35abc"
// or "+35" as 35 and takes the first of two, so the body it answers about may be cut short or
// another than the one a proxy in front of it saw. Such a request is refused, never guessed.
// "" when the framing is plain.
std::string AmbiguousFraming(const httplib::Request& req) {
  for (const char* name : {"Content-Length", "Transfer-Encoding", "Host"})
    if (req.get_header_value_count(name) > 1)
      return std::string(name) + " given twice: which one the request meant is not guessed";
  if (req.has_header("Content-Length")) {
    const std::string v = req.get_header_value("Content-Length");
    if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
      return "Content-Length: expected the body's length in bytes as decimal digits, got \"" + v +
             "\"";
  }
  if (req.has_header("Transfer-Encoding")) {
    if (req.get_header_value("Transfer-Encoding") != "chunked")
      return "Transfer-Encoding: only chunked is read, got \"" +
             req.get_header_value("Transfer-Encoding") + "\"";
    if (req.has_header("Content-Length"))
      return "Content-Length and Transfer-Encoding both given: which one frames the body is not "
             "guessed";
  }
  return "";
}

void Send(httplib::Response& res, int status, const std::string& type, const std::string& body) {
  res.status = status;
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Cache-Control", "no-store");
  res.set_content(body, type.c_str());
}

}  // namespace

int Serve(const ServeOptions& opts, Api& api) {
  httplib::Server svr;
  svr.new_task_queue = [n = opts.threads] {
    return new GrowingPool(static_cast<size_t>(n),
                           std::make_unique<GrowingPool>(kTurnAwayThreads, nullptr, true), false);
  };
  svr.set_payload_max_length(opts.max_body);
  svr.set_read_timeout(opts.timeout_s, 0);
  svr.set_write_timeout(opts.timeout_s, 0);
  svr.set_keep_alive_timeout(opts.idle_s);
  svr.set_keep_alive_max_count(static_cast<size_t>(opts.keep_alive_requests));
  const bool loopback = IsLoopback(opts.host);

  auto page = [&](const httplib::Request& req, httplib::Response& res) {
    if (loopback && !HostAllowed(req))
      return Send(res, 403, "text/plain", "carc serve: unexpected Host header\n");
    const Asset* a = FindAsset(req.path == "/" ? "/index.html" : req.path);
    if (!a) return Send(res, 404, "text/plain", "carc serve: no such page: " + req.path + "\n");
    res.set_header("Content-Security-Policy", kCsp);
    Send(res, 200, a->content_type, std::string(a->data));
  };
  auto call = [&](const httplib::Request& req, httplib::Response& res) {
    if (loopback && !HostAllowed(req))
      return Send(res, 403, "application/json",
                  R"({"error":"carc serve: unexpected Host header","exit_code":64})");
    // The URL's query only: cpp-httplib also puts a form-encoded body's fields in req.params.
    std::map<std::string, std::string> query;
    if (auto q = req.target.find('?'); q != std::string::npos)
      if (std::string bad = ReadQuery(req.target.substr(q + 1), query); !bad.empty())
        return Send(res, 400, "application/json",
                    nlohmann::json({{"error", bad}, {"exit_code", 64}})
                        .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    Response r = api.Handle(req.method, req.path, query, req.body);
    Send(res, r.status, r.content_type, r.body);
  };
  // Before the body is read: a turned-away connection costs its request head only.
  svr.set_pre_routing_handler(
      [bound = opts.threads](const httplib::Request& req, httplib::Response& res) {
        if (t_turn_away) {
          TurnAway(res, bound);
          return httplib::Server::HandlerResponse::Handled;
        }
        if (std::string why = AmbiguousFraming(req); !why.empty()) {
          // Closed after: the unread body would be read as the next request.
          AnswerAndClose(res, 400, "carc serve: " + why, 64);
          return httplib::Server::HandlerResponse::Handled;
        }
        return httplib::Server::HandlerResponse::Unhandled;
      });
  svr.Get(R"(/api/.*)", call);
  svr.Post(R"(/api/.*)", call);
  svr.Get(R"(/[A-Za-z0-9_.\-]*)", page);
  svr.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.status == 413)
      res.set_content(R"({"error":"request body too large","exit_code":65})", "application/json");
  });

  int port = opts.port;
  if (port == 0) {
    port = svr.bind_to_any_port(opts.host);
    if (port < 0) port = 0;
  } else if (!svr.bind_to_port(opts.host, port)) {
    port = 0;
  }
  if (port == 0) {
    std::cerr << "carc: serve: cannot listen on " << opts.host << ":" << opts.port
              << " (address in use, or not an address of this machine)\n";
    return adjudicator::kExitIo;
  }
  const std::string shown =
      opts.host.find(':') != std::string::npos ? "[" + opts.host + "]" : opts.host;
  std::cout << "carc serve: http://" << shown << ":" << port << "/" << std::endl;
  std::cout << "rulings: " << api.db_description() << std::endl;
  if (!loopback)
    std::cout << "warning: listening on " << opts.host
              << ", not loopback: anyone who can reach this address can use the page" << std::endl;
  if (opts.on_listening)
    opts.on_listening(port, [&svr] {
      // stop() does nothing before the accept loop runs: wait for it (bounded).
      for (int i = 0; i < 5000 && !svr.is_running(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      svr.stop();
    });
  return svr.listen_after_bind() ? 0 : adjudicator::kExitIo;
}

}  // namespace carc::serve

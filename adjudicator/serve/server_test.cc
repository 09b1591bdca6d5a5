// `carc serve` over real sockets on 127.0.0.1: slow, idle and oversized clients do not keep a
// good request from being answered. Bounded: a fixed number of connections, every socket read
// bounded by SO_RCVTIMEO, the server stopped at the end. The assertions are outcomes (answered,
// status), not times: a client read that gives up counts as "not answered".
#include "adjudicator/serve/server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "adjudicator/adjudicate.h"

namespace carc::serve {
namespace {

const std::string kRoot = CARC_SOURCE_DIR;

// How long a test client waits for an answer before it counts as unanswered: longer than any
// answer takes here, shorter than the time the old server kept a good request waiting.
constexpr int kClientWaitS = 5;

class Socket {
 public:
  explicit Socket(int port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    timeval tv{kClientWaitS, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  ~Socket() { close(fd_); }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;

  bool connected() const { return connected_; }
  bool Send(const std::string& data) {
    size_t sent = 0;
    while (sent < data.size()) {
      ssize_t n = send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }
  // The status line and headers of one answer, read up to the blank line ("" when none came).
  std::string Head() {
    std::string got;
    char c;
    while (got.find("\r\n\r\n") == std::string::npos && recv(fd_, &c, 1, 0) == 1) got += c;
    return got;
  }
  // One whole answer with a Content-Length body (the server always sends one).
  std::string Answer() {
    std::string head = Head();
    const auto p = head.find("Content-Length: ");
    if (p == std::string::npos) return head;
    size_t len = std::stoul(head.substr(p + 16));
    std::string body(len, '\0');
    size_t got = 0;
    while (got < len) {
      ssize_t n = recv(fd_, body.data() + got, len - got, 0);
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    return head + body.substr(0, got);
  }
  // True when the server closed the connection (end of stream); false when it sent more or
  // kept the connection open past the client's wait.
  bool Closed() {
    char c;
    return recv(fd_, &c, 1, 0) == 0;
  }

 private:
  int fd_ = -1;
  bool connected_ = false;
};

std::string Get(const std::string& path, bool keep_alive) {
  return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
         (keep_alive ? "" : "Connection: close\r\n") + "\r\n";
}

std::string Post(const std::string& path, const std::string& body) {
  return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
         "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
}

struct RunningServer {
  std::unique_ptr<Api> api;
  std::thread thread;
  int port = 0;
  std::function<void()> stop;
  int exit_code = -1;

  explicit RunningServer(ServeOptions opts) {
    auto a = Api::Create({.run = adjudicator::RunJson, .db_path = "", .root = kRoot});
    if (!a.ok()) throw std::runtime_error(a.status().message());
    api = std::move(*a);
    std::promise<std::pair<int, std::function<void()>>> ready;
    auto listening = ready.get_future();
    opts.host = "127.0.0.1";
    opts.port = 0;
    opts.on_listening = [&ready](int p, std::function<void()> s) {
      ready.set_value({p, std::move(s)});
    };
    thread = std::thread([this, opts] { exit_code = Serve(opts, *api); });
    auto [p, s] = listening.get();
    port = p;
    stop = std::move(s);
  }
  ~RunningServer() {
    stop();
    thread.join();
  }
};

// 8 clients that send a request's headers a byte a second and never finish (slowloris), 40
// kept-alive connections that sent one request and now say nothing, and one /api/fit of a
// 12,000-tile board still being computed: a new client's GET /api/info is answered 200, and a
// body over the limit is answered 413.
TEST(ServeServer, AGoodRequestIsAnsweredWhileSlowAndIdleClientsHoldConnections) {
  ServeOptions opts;
  opts.max_body = 1 << 20;
  RunningServer server(opts);

  std::vector<std::unique_ptr<Socket>> slow, idle;
  for (int i = 0; i < 8; ++i) {
    slow.push_back(std::make_unique<Socket>(server.port));
    ASSERT_TRUE(slow.back()->connected());
    ASSERT_TRUE(slow.back()->Send("GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "));
  }
  std::atomic<bool> done{false};
  std::thread trickle([&] {
    while (!done) {
      for (auto& s : slow) s->Send("a");
      for (int i = 0; i < 10 && !done; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  for (int i = 0; i < 40; ++i) {
    idle.push_back(std::make_unique<Socket>(server.port));
    ASSERT_TRUE(idle.back()->connected());
    ASSERT_TRUE(idle.back()->Send(Get("/api/info", /*keep_alive=*/true)));
  }
  int idle_answered = 0;
  for (auto& s : idle) idle_answered += s->Answer().rfind("HTTP/1.1 200", 0) == 0;
  EXPECT_EQ(idle_answered, 40);  // each now waits on a kept-alive connection

  // A long computation: 120 x 100 tiles B (a monastery in a field), about 336 KB.
  std::string board;
  for (int i = 0; i < 12000; ++i)
    board += std::string(i ? "," : "") + R"({"tile":"B","x":)" + std::to_string(i % 120) +
             R"(,"y":)" + std::to_string(i / 120) + "}";
  Socket fit(server.port);
  ASSERT_TRUE(fit.connected());
  ASSERT_TRUE(fit.Send(Post("/api/fit", R"({"tile":"B","board":[)" + board + "]}")));

  Socket good(server.port);
  ASSERT_TRUE(good.connected());
  ASSERT_TRUE(good.Send(Get("/api/info", /*keep_alive=*/false)));
  const std::string answer = good.Answer();
  EXPECT_EQ(answer.rfind("HTTP/1.1 200", 0), 0u) << "not answered: " << answer.substr(0, 200);
  EXPECT_NE(answer.find("\"max_perft_depth\":2"), std::string::npos) << answer;

  // 1 MiB + 1 byte of body: refused whole, 413, with a JSON reason.
  Socket big(server.port);
  ASSERT_TRUE(big.connected());
  ASSERT_TRUE(big.Send(Post("/api/fit", std::string((1 << 20) + 1, ' '))));
  const std::string refused = big.Answer();
  EXPECT_EQ(refused.rfind("HTTP/1.1 413", 0), 0u) << refused.substr(0, 200);
  EXPECT_NE(refused.find("request body too large"), std::string::npos) << refused;

  done = true;
  trickle.join();
  slow.clear();
  idle.clear();
}

// More connections than the bound: with 2 connections served at once, two open connections
// that have sent nothing yet each hold a thread; a third connection is answered 503 with a
// JSON reason and closed (not left waiting), and the two held ones are still answered.
TEST(ServeServer, AConnectionBeyondTheBoundIsAnswered503AndClosed) {
  ServeOptions opts;
  opts.threads = 2;
  opts.timeout_s = 60;  // the held connections stay held on a loaded machine
  RunningServer server(opts);
  std::vector<std::unique_ptr<Socket>> held;
  for (int i = 0; i < 2; ++i) {
    held.push_back(std::make_unique<Socket>(server.port));
    ASSERT_TRUE(held.back()->connected());
  }
  for (int i = 0; i < 3; ++i) {  // each turned away, one after the other
    Socket extra(server.port);
    ASSERT_TRUE(extra.connected());
    ASSERT_TRUE(extra.Send(Get("/api/info", /*keep_alive=*/true)));
    const std::string answer = extra.Answer();
    EXPECT_EQ(answer.rfind("HTTP/1.1 503", 0), 0u) << answer.substr(0, 300);
    EXPECT_NE(answer.find("Connection: close"), std::string::npos) << answer.substr(0, 300);
    EXPECT_NE(answer.find(R"("exit_code":74)"), std::string::npos) << answer.substr(0, 300);
    EXPECT_NE(answer.find("2 connections are being served"), std::string::npos) << answer;
    EXPECT_TRUE(extra.Closed()) << "the connection stays open after the 503";
  }
  for (auto& s : held) {
    ASSERT_TRUE(s->Send(Get("/api/info", /*keep_alive=*/false)));
    const std::string answer = s->Answer();
    EXPECT_EQ(answer.rfind("HTTP/1.1 200", 0), 0u) << answer.substr(0, 200);
  }
}

// Two values for one query parameter: neither is guessed (400, usage).
TEST(ServeServer, AQueryParameterGivenTwiceIsRefused) {
  RunningServer server(ServeOptions{});
  Socket s(server.port);
  ASSERT_TRUE(s.connected());
  ASSERT_TRUE(s.Send(Get("/api/rulings/search?q=farmer&q=phantom", false)));
  const std::string answer = s.Answer();
  EXPECT_EQ(answer.rfind("HTTP/1.1 400", 0), 0u) << answer.substr(0, 200);
  EXPECT_NE(answer.find(R"({"error":"q: query parameter given twice","exit_code":64})"),
            std::string::npos)
      << answer;
}

// `;` is no separator: `q=city;limit=1` is not read as the query "1" (cpp-httplib's reader
// keeps the last piece of an item), nor `depth=0;depth=2` as depth 2. An item with a second '='
// is refused too; a percent-encoded '=' or ';' in a value is read as the character.
TEST(ServeServer, ASemicolonOrSecondEqualsInAQueryItemIsRefused) {
  RunningServer server(ServeOptions{});
  for (const char* target : {"/api/rulings/search?q=city;limit=1",
                             "/api/rulings/search?q=city;q=road", "/api/rulings/search?q=a=b"}) {
    Socket s(server.port);
    ASSERT_TRUE(s.connected());
    ASSERT_TRUE(s.Send(Get(target, false)));
    const std::string answer = s.Answer();
    EXPECT_EQ(answer.rfind("HTTP/1.1 400", 0), 0u) << target << ": " << answer.substr(0, 200);
    EXPECT_NE(
        answer.find(
            R"x({"error":"q: a query item holds a second '=' or a ';' (write it as %3D or %3B)","exit_code":64})x"),
        std::string::npos)
        << target << ": " << answer;
  }
  Socket s(server.port);
  ASSERT_TRUE(s.connected());
  ASSERT_TRUE(s.Send(Get("/api/rulings/search?q=city%3Broad&limit=1", false)));
  const std::string answer = s.Answer();
  EXPECT_EQ(answer.rfind("HTTP/1.1 200", 0), 0u) << answer.substr(0, 200);
  EXPECT_NE(answer.find(R"("query":"city;road")"), std::string::npos) << answer.substr(0, 400);
}

// curl -d sends a body as a form (application/x-www-form-urlencoded), whose fields cpp-httplib
// also lists as parameters: only the URL's query is read as parameters, the body as JSON.
TEST(ServeServer, AFormEncodedBodyIsTheBodyNotQueryParameters) {
  RunningServer server(ServeOptions{});
  Socket s(server.port);
  ASSERT_TRUE(s.connected());
  const std::string body = R"({"tile":"E","board":[{"tile":"D","x":0,"y":0}]})";
  ASSERT_TRUE(
      s.Send("POST /api/fit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
             "application/x-www-form-urlencoded\r\nContent-Length: " +
             std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body));
  const std::string answer = s.Answer();
  EXPECT_EQ(answer.rfind("HTTP/1.1 200", 0), 0u) << answer.substr(0, 300);
  EXPECT_NE(answer.find(R"("tile":"E")"), std::string::npos) << answer.substr(0, 300);
}

// A body's framing readable two ways is refused (400, the connection closed), not read as
// cpp-httplib reads it: "35abc" and "+35" as 35, the first of two lengths, a chunked body that
// also states a length. A proxy in front may have framed the body otherwise, and a body cut
// at 35 bytes would be answered as another position.
TEST(ServeServer, AContentLengthReadableTwoWaysIsRefused) {
  RunningServer server(ServeOptions{});
  const std::string body = R"({"tile":"E","board":[{"tile":"D","x":0,"y":0}]})";
  const std::string head =
      "POST /api/fit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
      "application/json\r\nConnection: close\r\n";
  const std::string n = std::to_string(body.size());
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"Content-Length: 35abc\r\n", "Content-Length: expected the body's length"},
      {"Content-Length: +" + n + "\r\n", "Content-Length: expected the body's length"},
      {"Content-Length: " + n + "\r\nContent-Length: 35\r\n", "Content-Length given twice"},
      {"Content-Length: " + n + "\r\nContent-Length: " + n + "\r\n", "Content-Length given twice"},
      {"Host: localhost\r\nContent-Length: " + n + "\r\n", "Host given twice"},
      {"Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
       "Transfer-Encoding given twice"},
      {"Transfer-Encoding: gzip\r\n", "Transfer-Encoding: only chunked is read"},
      {"Transfer-Encoding: chunked\r\nContent-Length: " + n + "\r\n",
       "Content-Length and Transfer-Encoding both given"},
  };
  for (const auto& [headers, says] : cases) {
    Socket s(server.port);
    ASSERT_TRUE(s.connected());
    ASSERT_TRUE(s.Send(head + headers + "\r\n" + body));
    const std::string answer = s.Answer();
    EXPECT_EQ(answer.rfind("HTTP/1.1 400", 0), 0u) << headers << answer.substr(0, 300);
    EXPECT_NE(answer.find(says), std::string::npos) << headers << answer;
    EXPECT_NE(answer.find(R"("exit_code":64)"), std::string::npos) << answer;
    EXPECT_TRUE(s.Closed()) << headers;
  }
  // The same body plainly framed is answered.
  Socket s(server.port);
  ASSERT_TRUE(s.connected());
  ASSERT_TRUE(s.Send(head + "Content-Length: " + n + "\r\n\r\n" + body));
  const std::string answer = s.Answer();
  EXPECT_EQ(answer.rfind("HTTP/1.1 200", 0), 0u) << answer.substr(0, 300);
  EXPECT_NE(answer.find(R"("tile":"E")"), std::string::npos) << answer.substr(0, 300);
}

}  // namespace
}  // namespace carc::serve

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
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "adjudicator/adjudicate.h"
#include "model/core/position_io.h"

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
  // Says the client sends nothing more (a half-close); the server can still answer.
  void ShutWrite() { shutdown(fd_, SHUT_WR); }
  // Everything the server sends until it closes the connection (or the client's wait ends).
  std::string ReadAll() {
    std::string got;
    char buf[65536];
    for (;;) {
      ssize_t n = recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) break;
      got.append(buf, static_cast<size_t>(n));
    }
    return got;
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

// `;` is no separator: `q=city;limit=1` is not read as the query "1" (a reader that splits
// items at `;` keeps the last piece), nor `depth=0;depth=2` as depth 2. An item with a second '='
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

// curl -d sends a body as a form (application/x-www-form-urlencoded), whose fields a web
// library would also list as parameters: only the URL's query is read as parameters, the body
// as JSON.
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
// a lax reader reads it: "35abc" and "+35" as 35, the first of two lengths, a chunked body that
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

// The answers in `raw`, each written STATUS/EXIT ("400/64"; EXIT "-" when the body is not the
// JSON error or verdict with an exit_code), joined by '+'; "none" when nothing came.
std::string Outcomes(const std::string& raw) {
  std::string out;
  size_t at = 0;
  while (at < raw.size()) {
    const size_t end = raw.find("\r\n\r\n", at);
    if (end == std::string::npos || raw.compare(at, 9, "HTTP/1.1 ") != 0) break;
    const std::string head = raw.substr(at, end - at);
    const int status = std::stoi(head.substr(9, 3));
    size_t len = 0;
    if (auto p = head.find("Content-Length: "); p != std::string::npos)
      len = std::stoul(head.substr(p + 16));
    if (status == 100) len = 0;
    const std::string body = raw.substr(end + 4, len);
    at = end + 4 + len;
    std::string code = "-";
    const auto j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (j.is_object() && j.contains("exit_code") && j["exit_code"].is_number_integer())
      code = std::to_string(j["exit_code"].get<int>());
    out += (out.empty() ? "" : "+") + std::to_string(status) + "/" + code;
  }
  return out.empty() ? "none" : out;
}

// Sends `data` on a new connection and reads until the server closes it.
std::string Exchange(int port, const std::string& data, bool half_close = false) {
  Socket s(port);
  if (!s.connected() || !s.Send(data)) return "not sent";
  if (half_close) s.ShutWrite();
  return s.ReadAll();
}

const std::string kSmall = R"({"tile":"E"})";

std::string Head(const std::string& target, const std::string& headers,
                 const std::string& method = "POST") {
  return method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers +
         "Connection: close\r\n\r\n";
}

std::string Chunked(const std::string& size_line, const std::string& data) {
  return size_line + "\r\n" + data + "\r\n0\r\n\r\n";
}

// Requests sent together on one connection are each answered, in order: the bytes read past
// the first stay the start of the second. A body holding a request is the body: the fit body
// of spaces and a whole validate request (placed where a reader's first 4 KiB buffer would
// end) is answered as a fit body that is not JSON (400/65), never as a validate verdict.
TEST(ServeServer, PipelinedRequestsAreEachAnswered) {
  RunningServer server(ServeOptions{});
  const std::string info = "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  EXPECT_EQ(Outcomes(Exchange(server.port, info + info + Post("/api/fit", kSmall))),
            "200/-+200/-+200/-");

  const std::string validate = Post("/api/validate", R"({"players":[]})");
  const std::string head =
      "POST /api/fit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 000000\r\n\r\n";
  const std::string body = std::string(4096 - info.size() - head.size(), ' ') + validate;
  std::string fit = head;
  fit.replace(fit.find("000000"), 6, std::to_string(1000000 + body.size()).substr(1));
  EXPECT_EQ(Outcomes(Exchange(server.port, info + fit + body + Get("/api/info", false))),
            "200/-+400/65+200/-");
}

// A client that half-closes its side after a whole request still gets the answer.
TEST(ServeServer, AHalfClosedClientIsAnswered) {
  RunningServer server(ServeOptions{});
  EXPECT_EQ(Outcomes(Exchange(server.port, Post("/api/fit", kSmall), /*half_close=*/true)),
            "200/-");
  const std::string info = "GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  EXPECT_EQ(Outcomes(Exchange(server.port, info + info, /*half_close=*/true)), "200/-+200/-");
}

// Header values are read as sent, never percent-decoded: "%31%32" is no length, "chunke%64"
// no transfer coding (400), "localhost%3A80" no loopback name (403).
TEST(ServeServer, PercentEncodedHeaderValuesAreRefused) {
  RunningServer server(ServeOptions{});
  for (const char* framing : {"Content-Length: %31%32\r\n", "Content-Length: 1%32\r\n",
                              "Transfer-Encoding: chunke%64\r\n"}) {
    const std::string answer =
        Exchange(server.port, Head("/api/fit", framing) + Chunked("c", kSmall) + kSmall);
    EXPECT_EQ(Outcomes(answer), "400/64") << framing << answer;
  }
  const std::string host = Exchange(
      server.port, "GET /api/info HTTP/1.1\r\nHost: localhost%3A80\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(Outcomes(host), "403/64") << host;
  EXPECT_NE(host.find("unexpected Host header"), std::string::npos) << host;
}

// A chunk size is hex digits, optionally followed by ";extensions", on a line ending in CRLF:
// "+c", "0xc", " c", "c junk", "-1", a bare LF, a size that does not match its data: 400, the
// connection closed. "c;ext=1", "00c", "C", two chunks and "Transfer-Encoding: Chunked" (a
// coding's name is case-insensitive) are read.
TEST(ServeServer, LooseChunkSizesAreRefused) {
  RunningServer server(ServeOptions{});
  const std::string te = "Transfer-Encoding: chunked\r\n";
  for (const char* size : {"+c", "0xc", " c", "c junk", "c ;x", "-1", "b", "d"}) {
    const std::string answer = Exchange(server.port, Head("/api/fit", te) + Chunked(size, kSmall));
    EXPECT_EQ(Outcomes(answer), "400/64") << size << ": " << answer;
  }
  const std::string bare_lf =
      Exchange(server.port, Head("/api/fit", te) + "c\n" + kSmall + "\n0\n\n");
  EXPECT_EQ(Outcomes(bare_lf), "400/64") << bare_lf;
  EXPECT_NE(bare_lf.find("bare LF"), std::string::npos) << bare_lf;
  const std::string no_crlf_after_last =
      Exchange(server.port, Head("/api/fit", te) + "c\r\n" + kSmall + "\r\n0\r\nX\r\n\r\n");
  EXPECT_EQ(Outcomes(no_crlf_after_last), "400/64") << no_crlf_after_last;

  for (const char* size : {"c;ext=1", "c;a=\"b c\";d", "00c", "C"}) {
    const std::string answer = Exchange(server.port, Head("/api/fit", te) + Chunked(size, kSmall));
    EXPECT_EQ(Outcomes(answer), "200/-") << size << ": " << answer;
  }
  const std::string two =
      Exchange(server.port, Head("/api/fit", te) + "5\r\n{\"til\r\n7\r\ne\":\"E\"}\r\n0\r\n\r\n");
  EXPECT_EQ(Outcomes(two), "200/-") << two;
  // One byte a chunk, each size line carrying 3000 bytes of extension: read across the
  // connection's reads, the lines read dropped as it goes.
  std::string ones;
  for (char c : kSmall) ones += "1;x=" + std::string(3000, 'a') + "\r\n" + c + "\r\n";
  const std::string long_ext = Exchange(server.port, Head("/api/fit", te) + ones + "0\r\n\r\n");
  EXPECT_EQ(Outcomes(long_ext), "200/-") << long_ext.substr(0, 300);
  const std::string trailer =
      Exchange(server.port, Head("/api/fit", te) + "c\r\n" + kSmall + "\r\n0\r\nX-Sum: 1\r\n\r\n");
  EXPECT_EQ(Outcomes(trailer), "200/-") << trailer;
  const std::string upper = Exchange(
      server.port, Head("/api/fit", "Transfer-Encoding: Chunked\r\n") + Chunked("c", kSmall));
  EXPECT_EQ(Outcomes(upper), "200/-") << upper;
}

// --max-body holds for the decoded body whatever its framing: a chunked body over it, in one
// chunk or in many, is answered 413 (exit 65) as a Content-Length body is, and not kept.
TEST(ServeServer, ChunkedBodyOverMaxBodyIs413) {
  ServeOptions opts;
  opts.max_body = 1024;
  RunningServer server(opts);
  const std::string te = "Transfer-Encoding: chunked\r\n";
  const std::string big = std::string(2000, ' ') + kSmall;
  std::string many;
  for (size_t at = 0; at < big.size(); at += 100) {
    const std::string part = big.substr(at, 100);
    char size[16];
    std::snprintf(size, sizeof size, "%zx", part.size());
    many += std::string(size) + "\r\n" + part + "\r\n";
  }
  char one[16];
  std::snprintf(one, sizeof one, "%zx", big.size());
  for (const std::string& body :
       {Chunked(one, big), many + "0\r\n\r\n", Chunked("ffffffffffffffffffff", big)}) {
    const std::string answer = Exchange(server.port, Head("/api/fit", te) + body);
    EXPECT_EQ(Outcomes(answer), "413/65") << answer.substr(0, 300);
    EXPECT_NE(answer.find("request body too large"), std::string::npos) << answer;
  }
  EXPECT_EQ(Outcomes(Exchange(server.port, Post("/api/fit", big))), "413/65");
  // At the limit exactly: read.
  const std::string fits = std::string(1024 - kSmall.size(), ' ') + kSmall;
  EXPECT_EQ(Outcomes(Exchange(server.port, Head("/api/fit", te) + Chunked("400", fits))), "200/-");
}

// No content coding is decoded: a body declared encoded (gzip, an unknown coding, a list, two
// headers) is answered 415 (exit 65) with Accept-Encoding: identity, never read as plain.
TEST(ServeServer, UnknownContentEncodingIsRefused) {
  RunningServer server(ServeOptions{});
  const std::string cl = "Content-Length: " + std::to_string(kSmall.size()) + "\r\n";
  for (const char* ce : {"Content-Encoding: xgzipx\r\n", "Content-Encoding: compress\r\n",
                         "Content-Encoding: gzip, gzip\r\n", "Content-Encoding: identity, gzip\r\n",
                         "Content-Encoding: gzip\r\n", "Content-Encoding: br\r\n",
                         "Content-Encoding: identity\r\nContent-Encoding: gzip\r\n"}) {
    const std::string answer = Exchange(server.port, Head("/api/fit", cl + ce) + kSmall);
    EXPECT_EQ(Outcomes(answer), "415/65") << ce << answer;
    EXPECT_NE(answer.find("Accept-Encoding: identity\r\n"), std::string::npos) << answer;
  }
  EXPECT_EQ(Outcomes(Exchange(server.port,
                              Head("/api/fit", cl + "Content-Encoding: identity\r\n") + kSmall)),
            "200/-");
}

// `%2F` in a path segment is data, not a separator: "1%2Fturn%2F1" is no game number.
TEST(ServeServer, EncodedSlashIsNoSeparator) {
  RunningServer server(ServeOptions{});
  for (const char* target :
       {"/api/games/1%2Fturn%2F1", "/api/games/1%2Fturn/1", "/api/games/1%2fturn%2f1"}) {
    const std::string answer = Exchange(server.port, Get(target, false));
    EXPECT_EQ(Outcomes(answer), "400/64") << target << answer;
    EXPECT_NE(answer.find("game: expected a game number"), std::string::npos) << answer;
  }
  // A lone '%' is no encoding: refused, not read as the character.
  EXPECT_EQ(Outcomes(Exchange(server.port, Get("/api/rulings/BASE%2", false))), "400/64");
  EXPECT_EQ(Outcomes(Exchange(server.port, Get("/api/rulings/search?q=%G1", false))), "400/64");
}

// The search question is text: bytes that are not UTF-8 after decoding, or a NUL, are refused
// (400, exit 65, as every reader refuses them), not searched as U+FFFD or cut.
TEST(ServeServer, SearchQueryNotUtf8Is400) {
  RunningServer server(ServeOptions{});
  for (const char* q : {"%FF", "a%00b", "%E2%82", "%C0%AF", "%ED%A0%80"}) {
    const std::string answer =
        Exchange(server.port, Get(std::string("/api/rulings/search?q=") + q, false));
    EXPECT_EQ(Outcomes(answer), "400/65") << q << answer;
  }
  const std::string ok = Exchange(server.port, Get("/api/rulings/search?q=caf%C3%A9+city", false));
  EXPECT_EQ(Outcomes(ok), "200/-") << ok;
  EXPECT_NE(ok.find(R"("query":"café city")"), std::string::npos) << ok.substr(0, 300);
}

// The Host header is a host name and an optional ":port" of digits; an HTTP/1.1 request names
// one (RFC 9112 section 3.2). Anything else is 400; a well-formed name that is not loopback
// (behind a loopback bind) 403.
TEST(ServeServer, LaxHostIsRefused) {
  RunningServer server(ServeOptions{});
  auto get = [&](const std::string& host_line, const std::string& version = "HTTP/1.1") {
    return Exchange(server.port,
                    "GET /api/info " + version + "\r\n" + host_line + "Connection: close\r\n\r\n");
  };
  for (const char* host :
       {"Host: localhost:abc\r\n", "Host: [::1]evil.example\r\n",
        "Host: 127.0.0.1:80@evil.example\r\n", "Host: \r\n", "Host: localhost:\r\n",
        "Host: localhost:1234567\r\n", "Host: local host\r\n", "", "Host: [::1\r\n"}) {
    const std::string answer = get(host);
    EXPECT_EQ(Outcomes(answer), "400/64") << host << answer;
  }
  for (const char* host :
       {"Host: evil.example\r\n", "Host: 127.0.0.1.nip.io\r\n", "Host: localhost.\r\n"})
    EXPECT_EQ(Outcomes(get(host)), "403/64") << host;
  for (const char* host : {"Host: localhost:8080\r\n", "Host: LOCALHOST\r\n", "Host: [::1]:80\r\n",
                           "Host: 127.0.0.1\r\n"})
    EXPECT_EQ(Outcomes(get(host)), "200/-") << host;
  EXPECT_EQ(Outcomes(get("", "HTTP/1.0")), "200/-");  // HTTP/1.0 may omit it
}

// A request is read one way only: a body on GET or HEAD (read and dropped, the answer about the
// URL alone), a second Connection or Expect, a query on a page, or "-0" for a game number are
// refused; a HEAD's refusal has no body.
TEST(ServeServer, SurplusPartsOfARequestAreRefused) {
  RunningServer server(ServeOptions{});
  const std::string host = "Host: 127.0.0.1\r\n";
  const std::string close = "Connection: close\r\n";
  EXPECT_EQ(
      Outcomes(Exchange(server.port, "GET /api/rulings/search?q=city HTTP/1.1\r\n" + host + close +
                                         "Content-Length: 12\r\n\r\n{\"q\":\"farm\"}")),
      "400/64");
  EXPECT_EQ(Outcomes(Exchange(server.port, "GET /api/info HTTP/1.1\r\n" + host + close +
                                               "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n")),
            "400/64");
  EXPECT_EQ(Outcomes(Exchange(server.port, "GET /api/info HTTP/1.1\r\n" + host +
                                               "Connection: keep-alive\r\n" + close + "\r\n")),
            "400/64");
  EXPECT_EQ(Outcomes(Exchange(server.port, "POST /api/fit HTTP/1.1\r\n" + host + close +
                                               "Expect: 100-continue\r\nExpect: x-other\r\n"
                                               "Content-Length: 12\r\n\r\n{\"tile\":\"E\"}")),
            "400/64");
  EXPECT_EQ(Outcomes(Exchange(server.port, "GET /?depth=3 HTTP/1.1\r\n" + host + close + "\r\n")),
            "400/64");
  EXPECT_EQ(
      Outcomes(Exchange(server.port, "GET /api/games/-0 HTTP/1.1\r\n" + host + close + "\r\n")),
      "400/64");
  const std::string head =
      Exchange(server.port, "HEAD /api/info HTTP/1.1\r\nHost: evil.example\r\n" + close + "\r\n");
  EXPECT_EQ(head.substr(0, 12), "HTTP/1.1 403") << head;
  EXPECT_EQ(head.substr(head.find("\r\n\r\n") + 4), "") << head;  // no body after the head
  // Controls: a GET with Content-Length 0, the page, one Connection.
  EXPECT_EQ(Outcomes(Exchange(server.port, "GET /api/info HTTP/1.1\r\n" + host + close +
                                               "Content-Length: 0\r\n\r\n")),
            "200/-");
  EXPECT_EQ(Outcomes(Exchange(server.port, "GET / HTTP/1.1\r\n" + host + close + "\r\n")), "200/-");
}

// Every refusal of a request's form is the documented JSON error (limits.md), with the status
// RFC 9112 gives it, and the connection closed after it.
TEST(ServeServer, EveryRefusalIsTheJsonError) {
  RunningServer server(ServeOptions{});
  const std::string host = "Host: 127.0.0.1\r\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"GET /api/info\r\n" + host + "\r\n", "400/64"},
      {"GET  /api/info HTTP/1.1\r\n" + host + "\r\n", "400/64"},
      {"GET /api/info HTTP/1.1 x\r\n" + host + "\r\n", "400/64"},
      {"get /api/info HTTP/1.1\r\n" + host + "\r\n", "501/64"},
      {"BREW /api/info HTTP/1.1\r\n" + host + "\r\n", "501/64"},
      {"PUT /api/validate HTTP/1.1\r\n" + host + "Content-Length: 2\r\n\r\n{}", "405/64"},
      {"DELETE /api/info HTTP/1.1\r\n" + host + "\r\n", "405/64"},
      {"GET /api/info HTTP/1.2\r\n" + host + "\r\n", "505/64"},
      {"GET /api/info HTTP/2.0\r\n" + host + "\r\n", "505/64"},
      {"GET /api/info HTTP/1.10\r\n" + host + "\r\n", "400/64"},
      {"GET /api/info http/1.1\r\n" + host + "\r\n", "400/64"},
      {"GET http://evil.example/api/info HTTP/1.1\r\n" + host + "\r\n", "400/64"},
      {"GET * HTTP/1.1\r\n" + host + "\r\n", "400/64"},
      {"GET /api/in\tfo HTTP/1.1\r\n" + host + "\r\n", "400/64"},
      {"GET /api/caf\xc3\xa9 HTTP/1.1\r\n" + host + "\r\n", "400/64"},
      {"GET /" + std::string(9000, 'a') + " HTTP/1.1\r\n" + host + "\r\n", "414/64"},
      {"GET /api/info HTTP/1.1\r\n" + host + "X-Big: " + std::string(9000, 'a') + "\r\n\r\n",
       "431/64"},
      {"POST /api/fit HTTP/1.1\r\n" + host + "Content-Length : 12\r\n\r\n" + kSmall, "400/64"},
      {"POST /api/fit HTTP/1.1\r\n" + host + "Content-Length: 12\n\r\n" + kSmall, "400/64"},
      {"GET /api/info HTTP/1.1\n" + host + "\r\n", "400/64"},
      {"POST /api/fit HTTP/1.1\r\n" + host + "Content-Length: 1\r\n 2\r\n\r\n" + kSmall, "400/64"},
      {"GET /api/info HTTP/1.1\r\n" + host + "X-A: a\x01" + "b\r\n\r\n", "400/64"},
      {"GET /api/info HTTP/1.1\r\n" + host + ": empty name\r\n\r\n", "400/64"},
      {"POST /api/fit HTTP/1.1\r\n" + host + "Expect: 200-ok\r\nContent-Length: 12\r\n\r\n" +
           kSmall,
       "417/64"},
      {"POST /api/fit HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n" + Chunked("c", kSmall),
       "400/64"},
  };
  for (const auto& [request, expected] : cases) {
    Socket s(server.port);
    ASSERT_TRUE(s.connected());
    ASSERT_TRUE(s.Send(request));
    const std::string answer = s.ReadAll();
    EXPECT_EQ(Outcomes(answer), expected) << request.substr(0, 80) << "\n" << answer;
    EXPECT_NE(answer.find("Content-Type: application/json\r\n"), std::string::npos) << answer;
    EXPECT_NE(answer.find("Connection: close\r\n"), std::string::npos) << answer;
    EXPECT_NE(answer.find(R"({"error":"carc serve: )"), std::string::npos) << answer;
  }
  // A page that does not exist, or a page asked with POST: the JSON error too (404, 66).
  EXPECT_EQ(Outcomes(Exchange(server.port, Get("/nope.html", false))), "404/66");
  EXPECT_EQ(Outcomes(Exchange(server.port, Post("/index.html", "{}"))), "404/66");
  // A request line over the limit, then nothing more: answered, not waited on.
  EXPECT_EQ(Outcomes(Exchange(server.port, "GET /" + std::string(9000, 'a'))), "414/64");
}

// Keep-alive and the controls a strict reader must still read: Content-Length:12 without a
// blank, a tab before the value, a blank after it, an empty line before the request line,
// "Expect: 100-continue" (answered 100 first), HEAD (the GET's headers, no body).
TEST(ServeServer, PlainRequestsAreStillRead) {
  RunningServer server(ServeOptions{});
  for (const char* cl : {"Content-Length:12\r\n", "Content-Length:\t12\r\n",
                         "Content-Length: 12 \r\n", "content-length: 12\r\n"})
    EXPECT_EQ(Outcomes(Exchange(server.port, Head("/api/fit", cl) + kSmall)), "200/-") << cl;
  EXPECT_EQ(Outcomes(Exchange(server.port, "\r\n" + Get("/api/info", false))), "200/-");
  EXPECT_EQ(Outcomes(Exchange(
                server.port,
                Head("/api/fit", "Expect: 100-continue\r\nContent-Length: 12\r\n") + kSmall)),
            "100/-+200/-");
  const std::string head = Exchange(server.port, Head("/api/info", "", "HEAD"));
  EXPECT_EQ(head.rfind("HTTP/1.1 200", 0), 0u) << head;
  EXPECT_EQ(head.size(), head.find("\r\n\r\n") + 4) << head;  // no body
  // One connection, three requests one after the other, answered each.
  Socket s(server.port);
  ASSERT_TRUE(s.connected());
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(s.Send(Get("/api/info", /*keep_alive=*/true)));
    EXPECT_EQ(s.Answer().rfind("HTTP/1.1 200", 0), 0u) << i;
  }
  ASSERT_TRUE(s.Send(Get("/index.html", /*keep_alive=*/false)));
  const std::string page = s.Answer();
  EXPECT_EQ(page.rfind("HTTP/1.1 200", 0), 0u) << page.substr(0, 200);
  EXPECT_NE(page.find("Content-Security-Policy: "), std::string::npos);
  EXPECT_TRUE(s.Closed());
}

// POST /api/legal without ?depth= counts at the depth the body's question asks, as
// `carc legal FILE` without --depth counts at the file's; with ?depth= the two must agree.
TEST(ServeServer, LegalCountsAtTheBodysDepth) {
  RunningServer server(ServeOptions{});
  auto doc = model::ReadJsonFile(kRoot + "/fixtures/examples/who_scores_the_city.position.json");
  ASSERT_TRUE(doc.ok());
  (*doc)["question"] = {{"ask", "legal"}, {"depth", 1}};
  const std::string answer = Exchange(server.port, Post("/api/legal", doc->dump()));
  EXPECT_EQ(Outcomes(answer), "200/0") << answer.substr(0, 400);
  EXPECT_NE(answer.find(R"("depth":1)"), std::string::npos) << answer.substr(0, 600);
  EXPECT_EQ(Outcomes(Exchange(server.port, Post("/api/legal?depth=1", doc->dump()))), "200/0");
  EXPECT_EQ(Outcomes(Exchange(server.port, Post("/api/legal?depth=0", doc->dump()))), "400/64");
  (*doc)["question"] = {{"ask", "legal"}, {"depth", 3}};  // the page's limit is 2
  EXPECT_EQ(Outcomes(Exchange(server.port, Post("/api/legal", doc->dump()))), "400/64");
}

}  // namespace
}  // namespace carc::serve

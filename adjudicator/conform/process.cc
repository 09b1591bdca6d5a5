#include "adjudicator/conform/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "model/core/input_file.h"

namespace carc::adjudicator::conform {

using model::ErrorCode;
using model::Status;

namespace {

// An engine's score event (PROTOCOL.md, optional): "at" a feature reference, "points" and
// "winners" integers, as the reference writes them. The pointer below the event of its first
// value of another type ("/points", "/at/x"), empty when every one reads.
std::string WrongEventField(const nlohmann::json& e) {
  using nlohmann::json;
  if (!e.is_object()) return "";
  if (e.contains("points") && !model::JsonInt(e["points"])) return "/points";
  if (e.contains("winners")) {
    if (!e["winners"].is_array()) return "/winners";
    for (size_t i = 0; i < e["winners"].size(); ++i)
      if (!model::JsonInt(e["winners"][i])) return "/winners/" + std::to_string(i);
  }
  if (e.contains("at")) {
    const json& at = e["at"];
    if (!at.is_object()) return "/at";
    for (const char* c : {"x", "y"})
      if (at.contains(c) && !model::JsonInt(at[c])) return std::string("/at/") + c;
    if (at.contains("feature") && !at["feature"].is_string()) return "/at/feature";
  }
  return "";
}

// The answer fields the checker reads as typed values (PROTOCOL.md): a wrong type is the
// engine's fault (74, naming what was received), never an exception in the checker, nor a
// number read as another (an id or a score written 1.0 or 1e0 is not the integer 1).
// `actions` and `position` are read by the reference model and become disagreements.
std::string WrongField(const nlohmann::json& j) {
  using nlohmann::json;
  auto strings = [](const json& v) {
    if (!v.is_array()) return false;
    for (const json& e : v)
      if (!e.is_string()) return false;
    return true;
  };
  auto wrong = [](const std::string& where, const json& v) {
    std::string got = v.dump();
    if (got.size() > 200) got = got.substr(0, 200) + "...";
    return where + ": wrong type, received " + got;
  };
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& k = it.key();
    const json& v = it.value();
    bool ok = true;
    if (k == "id") {
      ok = v.is_number_integer();  // the checker's ids are integers
    } else if (k == "score_events" && v.is_array()) {
      for (size_t i = 0; i < v.size(); ++i)
        if (std::string in = WrongEventField(v[i]); !in.empty())
          return wrong("/" + k + "/" + std::to_string(i) + in,
                       v[i].at(nlohmann::json::json_pointer(in)));
    } else if (k == "ok" || k == "legal") {
      ok = v.is_boolean();
    } else if (k == "error" || k == "name") {
      ok = v.is_string();
    } else if (k == "protocol") {
      ok = model::JsonInt(v).has_value();
    } else if (k == "scores") {
      ok = v.is_array() && v.size() <= 6;
      for (size_t i = 0; ok && i < v.size(); ++i) ok = model::JsonInt(v[i]).has_value();
    } else if (k == "expansions" || k == "rulings") {
      ok = strings(v);
    } else if (k == "deviations") {
      ok = v.is_array();
      for (size_t i = 0; ok && i < v.size(); ++i)
        ok = v[i].is_object() && v[i].value("ruling", json("")).is_string() &&
             v[i].value("reason", json("")).is_string();
    }
    if (!ok) return wrong("/" + k, v);
  }
  return "";
}

// After a write to the engine failed (EPIPE: nothing reads its input any more): true when its
// output reaches its end within `timeout` seconds, that is, the engine exited. An exiting engine
// closes its input and its output together, and whether the checker's request went into the pipe
// before that or found it closed is only a matter of timing; both must read the same. Output it
// wrote before is no answer to a request it never read and is dropped.
bool OutputEnds(int fd, double timeout) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<int>(timeout * 1000));
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    char buf[65536];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
  }
}

// The engines' process groups, for the signal handler (async-signal-safe: plain atomics).
constexpr int kMaxGroups = 256;
std::atomic<int> g_groups[kMaxGroups];

void Register(int pid) {
  for (auto& g : g_groups) {
    int zero = 0;
    if (g.compare_exchange_strong(zero, pid)) return;
  }
}
void Unregister(int pid) {
  for (auto& g : g_groups) {
    int p = pid;
    if (g.compare_exchange_strong(p, 0)) return;
  }
}

void OnSignal(int sig) {
  for (auto& g : g_groups)
    if (int pid = g.load(); pid > 0) kill(-pid, SIGKILL);
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void KillEnginesOnSignals() {
  struct sigaction on {};
  on.sa_handler = OnSignal;
  sigemptyset(&on.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &on, nullptr);
}

Trace::~Trace() {
  if (file_) std::fclose(file_);
}

Status Trace::Open(const std::string& path) {
  path_ = path;
  file_ = std::fopen(path.c_str(), "w");
  if (!file_)
    return Status(ErrorCode::kIo, path + ": cannot write the trace: " + std::strerror(errno));
  return Status::Ok();
}

void Trace::Write(int engine, const char* what, const nlohmann::json& value) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string line = nlohmann::json({{"engine", engine}, {what, value}})
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line += "\n";
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fflush(file_);
}

EngineProcess::~EngineProcess() { Stop(); }

Status EngineProcess::Start(const std::string& command, double timeout_seconds) {
  command_ = command;
  timeout_ = timeout_seconds;
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
    return Status(ErrorCode::kIo, "cannot create pipes: " + std::string(std::strerror(errno)));
  signal(SIGPIPE, SIG_IGN);
  pid_ = fork();
  if (pid_ < 0) return Status(ErrorCode::kIo, "cannot fork: " + std::string(std::strerror(errno)));
  if (pid_ == 0) {
    // Its own process group, so a timeout ends the engine and everything it started.
    setpgid(0, 0);
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  setpgid(pid_, pid_);  // also here: no race with the child's own call
  Register(pid_);
  close(in[0]);
  close(out[1]);
  to_child_ = in[1];
  // Written without blocking (Ask polls for room within the timeout); the child's end blocks.
  fcntl(to_child_, F_SETFL, fcntl(to_child_, F_GETFL) | O_NONBLOCK);
  from_child_ = out[0];
  return Status::Ok();
}

model::StatusOr<std::string> EngineProcess::ReadLine() {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<int>(timeout_ * 1000));
  for (;;) {
    if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (line.size() > kMaxAnswerBytes) {
        Kill();
        return Status(ErrorCode::kIo, "engine \"" + command_ + "\" sent a line longer than " +
                                          std::to_string(kMaxAnswerBytes >> 20) +
                                          " MiB, the limit (PROTOCOL.md, Limits)");
      }
      if (trace_) trace_->Write(number_, "received", line);
      return line;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) {
      Kill();
      char secs[32];
      std::snprintf(secs, sizeof secs, "%g", timeout_);
      return Status(ErrorCode::kIo,
                    "engine \"" + command_ + "\" did not answer within " + secs + " s");
    }
    pollfd p{from_child_, POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    char buf[65536];
    ssize_t n = read(from_child_, buf, sizeof buf);
    if (n <= 0)
      return Status(ErrorCode::kIo, "engine \"" + command_ + "\" closed its output (exited?)");
    buffer_.append(buf, static_cast<size_t>(n));
    // No newline within the limit: bounded memory. A line of exactly the limit arrives with its
    // newline, one byte more, so the buffer holds a longer line only when its first newline (in
    // what was just read: the buffer had none before) lies past the limit.
    if (buffer_.size() > kMaxAnswerBytes &&
        buffer_.find('\n', buffer_.size() - static_cast<size_t>(n)) > kMaxAnswerBytes) {
      Kill();
      return Status(ErrorCode::kIo, "engine \"" + command_ + "\" sent a line longer than " +
                                        std::to_string(kMaxAnswerBytes >> 20) +
                                        " MiB, the limit (PROTOCOL.md, Limits)");
    }
  }
}

model::StatusOr<nlohmann::json> EngineProcess::Ask(const nlohmann::json& request) {
  if (pid_ < 0) return Status(ErrorCode::kIo, "engine not started");
  if (trace_) trace_->Write(number_, "sent", request);
  std::string line = request.dump() + "\n";
  // The request is written within the timeout too: an engine that never reads its input (and
  // writes ahead, so it never waits on us) must not block the checker for ever on a full pipe.
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<int>(timeout_ * 1000));
  for (size_t off = 0; off < line.size();) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd p{to_child_, POLLOUT, 0};
    const int ready = left.count() > 0 ? poll(&p, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) {
      Kill();
      char secs[32];
      std::snprintf(secs, sizeof secs, "%g", timeout_);
      return Status(ErrorCode::kIo, "engine \"" + command_ + "\" took no byte of the request for " +
                                        secs + " s: it does not read its input");
    }
    ssize_t n = write(to_child_, line.data() + off, line.size() - off);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) {
      if (OutputEnds(from_child_, timeout_))  // it exited: as if it had exited a moment later
        return Status(ErrorCode::kIo, "engine \"" + command_ + "\" closed its output (exited?)");
      return Status(ErrorCode::kIo, "engine \"" + command_ + "\" does not read its input");
    }
    off += static_cast<size_t>(n);
  }
  auto answer = ReadLine();
  if (!answer.ok()) return answer.status();
  return ParseAnswer(*answer, request, command_);
}

model::StatusOr<nlohmann::json> ParseAnswer(const std::string& line, const nlohmann::json& request,
                                            const std::string& command) {
  // Nesting cap and duplicate keys as for files (model/core/input_file.h).
  // A line that is not JSON (a duplicate key among them) is told apart from JSON that is not an
  // object: the message names the key or the place, not only the line.
  const std::string source = "engine answer";
  auto parsed = model::ParseJsonText(line, source);
  if (!parsed.ok()) {
    std::string why = parsed.status().message();  // "engine answer:/ok: duplicate key \"ok\""
    if (why.rfind(source + ":", 0) == 0) why = why.substr(source.size() + 1);
    return Status(ErrorCode::kIo, "engine \"" + command + "\" answered invalid JSON at " + why +
                                      ": " + line.substr(0, 200));
  }
  if (!parsed->is_object())
    return Status(ErrorCode::kIo,
                  "engine \"" + command +
                      "\" answered something that is not a JSON object: " + line.substr(0, 200));
  nlohmann::json j = std::move(*parsed);
  if (std::string wrong = WrongField(j); !wrong.empty())
    return Status(ErrorCode::kIo, "engine \"" + command + "\" answered " + wrong);
  if (j.value("id", nlohmann::json()) != request.value("id", nlohmann::json()))
    return Status(ErrorCode::kIo,
                  "engine answered id " + j.value("id", nlohmann::json()).dump().substr(0, 200) +
                      " to request " + request.value("id", nlohmann::json()).dump());
  return j;
}

void EngineProcess::Kill() {
  if (pid_ <= 0) return;
  kill(-pid_, SIGKILL);  // the whole process group: sh and whatever it started
  kill(pid_, SIGKILL);
  int status;
  waitpid(pid_, &status, 0);
  Unregister(pid_);
  pid_ = -1;
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  to_child_ = from_child_ = -1;
}

void EngineProcess::Stop() {
  if (pid_ <= 0) return;
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  to_child_ = from_child_ = -1;
  int status;
  for (int i = 0; i < 20; ++i) {
    // The shell has exited: end what it left running in the engine's process group too (a hung
    // engine outlived `carc conform`), while the unreaped leader keeps the group id ours.
    siginfo_t info{};
    if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
        info.si_pid == pid_) {
      kill(-pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      Unregister(pid_);
      pid_ = -1;
      return;
    }
    usleep(10000);
  }
  Kill();
}

}  // namespace carc::adjudicator::conform

#include "adjudicator/conform/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace carc::adjudicator::conform {

using model::ErrorCode;
using model::Status;

EngineProcess::~EngineProcess() { Stop(); }

Status EngineProcess::Start(const std::string& command, double timeout_seconds) {
  command_ = command;
  timeout_ = timeout_seconds;
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0)
    return Status(ErrorCode::kIo, "cannot create pipes: " + std::string(std::strerror(errno)));
  signal(SIGPIPE, SIG_IGN);
  pid_ = fork();
  if (pid_ < 0) return Status(ErrorCode::kIo, "cannot fork: " + std::string(std::strerror(errno)));
  if (pid_ == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  to_child_ = in[1];
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
      return line;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0)
      return Status(ErrorCode::kIo, "engine \"" + command_ + "\" did not answer within " +
                                        std::to_string(timeout_) + " s");
    pollfd p{from_child_, POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    char buf[65536];
    ssize_t n = read(from_child_, buf, sizeof buf);
    if (n <= 0)
      return Status(ErrorCode::kIo, "engine \"" + command_ + "\" closed its output (exited?)");
    buffer_.append(buf, static_cast<size_t>(n));
  }
}

model::StatusOr<nlohmann::json> EngineProcess::Ask(const nlohmann::json& request) {
  if (pid_ < 0) return Status(ErrorCode::kIo, "engine not started");
  std::string line = request.dump() + "\n";
  for (size_t off = 0; off < line.size();) {
    ssize_t n = write(to_child_, line.data() + off, line.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return Status(ErrorCode::kIo, "engine \"" + command_ + "\" does not read its input");
    off += static_cast<size_t>(n);
  }
  auto answer = ReadLine();
  if (!answer.ok()) return answer.status();
  nlohmann::json j = nlohmann::json::parse(*answer, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return Status(ErrorCode::kIo, "engine answered with something that is not a JSON object: " +
                                      answer->substr(0, 200));
  if (j.value("id", nlohmann::json()) != request.value("id", nlohmann::json()))
    return Status(ErrorCode::kIo, "engine answered id " + j.value("id", nlohmann::json()).dump() +
                                      " to request " + request["id"].dump());
  return j;
}

void EngineProcess::Stop() {
  if (pid_ <= 0) return;
  if (to_child_ >= 0) close(to_child_);
  if (from_child_ >= 0) close(from_child_);
  to_child_ = from_child_ = -1;
  int status;
  for (int i = 0; i < 20; ++i) {
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    usleep(10000);
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

}  // namespace carc::adjudicator::conform

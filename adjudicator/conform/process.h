#pragma once
// An engine under test: a child process spoken to in JSON lines, with a timeout per answer.

#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "model/core/status.h"

namespace carc::adjudicator::conform {

// The longest answer line the checker reads (PROTOCOL.md, Limits); longer: exit 74.
inline constexpr size_t kMaxAnswerBytes = size_t{4} << 20;

// --trace FILE: every request sent and every line received, one JSON object a line:
// {"engine": N, "sent": request} or {"engine": N, "received": line} (N: the engine process).
class Trace {
 public:
  ~Trace();
  model::Status Open(const std::string& path);
  void Write(int engine, const char* what, const nlohmann::json& value);

 private:
  std::mutex mu_;
  FILE* file_ = nullptr;
  std::string path_;
};

// On SIGINT, SIGTERM or SIGHUP: every engine's process group is killed, then the signal's
// default action ends `carc` (128 + the signal, as a shell reports it).
void KillEnginesOnSignals();

class EngineProcess {
 public:
  EngineProcess() = default;
  ~EngineProcess();
  EngineProcess(const EngineProcess&) = delete;
  EngineProcess& operator=(const EngineProcess&) = delete;

  // Starts `sh -c command`.
  model::Status Start(const std::string& command, double timeout_seconds);
  // Sends one request and waits for the answer with the same id. Errors: the engine exited,
  // timed out, or answered something that is not a JSON object with that id.
  model::StatusOr<nlohmann::json> Ask(const nlohmann::json& request);
  // Closes the pipes and waits briefly for the engine to exit, then kills it.
  void Stop();
  // Kills the engine's whole process group at once (after a timeout).
  void Kill();
  // Records every request and answer line in `trace` (may be null) as engine `number`.
  void SetTrace(Trace* trace, int number) {
    trace_ = trace;
    number_ = number;
  }

 private:
  model::StatusOr<std::string> ReadLine();

  int pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  double timeout_ = 10;
  std::string buffer_;
  std::string command_;
  Trace* trace_ = nullptr;
  int number_ = 0;
};

// Reads one answer line of the engine to `request` (PROTOCOL.md): not a JSON object, nested
// too deep, a duplicate key, a field of the wrong type or another id -> kIo naming what was
// received. Used by EngineProcess::Ask; a function of its own for the fuzzer.
model::StatusOr<nlohmann::json> ParseAnswer(const std::string& line, const nlohmann::json& request,
                                            const std::string& command);

}  // namespace carc::adjudicator::conform

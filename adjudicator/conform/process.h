#pragma once
// An engine under test: a child process spoken to in JSON lines, with a timeout per answer.

#include <nlohmann/json.hpp>
#include <string>

#include "model/core/status.h"

namespace carc::adjudicator::conform {

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
  void Stop();

 private:
  model::StatusOr<std::string> ReadLine();

  int pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  double timeout_ = 10;
  std::string buffer_;
  std::string command_;
};

}  // namespace carc::adjudicator::conform

#pragma once
// Question (a position file with a "question") -> ruling. Pure: no printing; the CLI and the
// fixture runner both call this.

#include <nlohmann/json.hpp>
#include <string>

#include "model/core/position.h"

namespace carc::adjudicator {

enum class Mode { kAdjudicate, kValidate, kLegal, kScore };

struct Outcome {
  int exit_code = 0;
  nlohmann::json ruling;  // on success (exit 0, 1 or 2)
  std::string error;      // on an error exit (64+): one line naming file and JSON location
};

struct Options {
  Mode mode = Mode::kAdjudicate;
  int depth = 0;  // kLegal: perft depth (0 = list the actions)
  // kLegal: whether `depth` was stated (`carc legal --depth N`); when not, a file asking `legal`
  // with a depth is answered at that depth.
  bool depth_stated = true;
};

// Reads, parses and answers one position file.
Outcome RunFile(const std::string& path, const Options& opts);
// Same, on an already parsed document (`source` names it in messages).
Outcome RunJson(const nlohmann::json& doc, const std::string& source, const Options& opts);

// Whether the document reads as a position with its question (if any) read as `carc
// adjudicate` reads it, as every command and the page check it: the reader's status (file and
// JSON pointer), never an exception.
model::Status CheckPositionJson(const nlohmann::json& doc, const std::string& source);

// The human-readable form of a ruling (--format text).
std::string RulingText(const nlohmann::json& ruling);

}  // namespace carc::adjudicator

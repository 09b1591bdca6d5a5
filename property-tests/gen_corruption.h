#pragma once
// Illegal positions by targeted corruption of a legal one (design notes §6). Each corruption
// changes the position file so that exactly one rule is broken and carries what `carc validate`
// must answer: the exact set of ruling IDs (exit 2), or for input that cannot even be read, exit
// 65 with a message naming the JSON location. Kinds are rows of a table; a module's rows are in its
// row of module_props.cc.

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "model/core/position.h"

namespace carc::prop {

struct Corruption {
  std::string kind;
  std::string what;               // what was changed, for the failure message
  nlohmann::json position;        // the corrupted position file
  std::set<std::string> rulings;  // exit 2 with exactly these ruling IDs ...
  int exit_code = 2;              // ... or 65 (malformed) with a message containing:
  std::string message_contains;
};

struct CorruptionKind {
  std::string name;
  std::vector<std::string> needs;  // expansion ids that must be enabled
  // nullopt when the position offers nothing to corrupt this way (e.g. no completed city).
  std::function<std::optional<Corruption>(const model::Position&, const nlohmann::json&,
                                          std::mt19937_64&)>
      make;
};

const std::vector<CorruptionKind>& CorruptionKinds();
const CorruptionKind* FindCorruption(const std::string& name);
bool Applies(const CorruptionKind& k, const model::Position& pos);

// Whether an enabled module's rules let figure `figure` (an index into pos.figures) break the
// core's check `excuse` (the excuse hook, hooks.h).
bool ExcusedByModule(const model::Position& pos, int figure, model::Excuse excuse);

// A player's supply of figure kind `kind` raised above what they own, breaking `ruling`
// (BASE-MEEPLE-SUPPLY for meeples; each figure kind cites its own supply ruling, e.g. PH-SETUP).
std::optional<Corruption> ExtraFigures(const model::Position& pos, const nlohmann::json& j,
                                       std::mt19937_64& rng, const std::string& kind,
                                       const std::string& ruling, int max);

// Parses and validates the corrupted file (what `carc validate` does); nullopt when the answer is
// exactly what the corruption carries, else what came instead.
std::optional<std::string> CheckCorruption(const Corruption& c);

}  // namespace carc::prop

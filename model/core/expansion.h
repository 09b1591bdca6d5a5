#pragma once
// The Expansion interface. An expansion is stateless; its state is a typed slice of the
// Position. Every hook does nothing by default. The core never names an expansion: the only
// list is model/expansions/registry.cc.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/core/status.h"
#include "model/core/step.h"

namespace carc::model {

class Position;

// A figure kind. The core contributes "meeple"; expansions add their own.
struct FigureKindDef {
  std::string name;
  int per_player = 0;
  int strength = 1;  // weight for majority
  std::string supply_ruling = "BASE-MEEPLE-SUPPLY";  // cited when a player has too many or none
};

// One problem found by Validate: the position cannot arise under the rules.
struct Violation {
  std::string ruling;
  std::string where;  // JSON pointer into the position file, when known
  std::string text;
};

class ExpansionState {
 public:
  virtual ~ExpansionState() = default;
  virtual std::unique_ptr<ExpansionState> Clone() const = 0;
  virtual bool Equals(const ExpansionState& other) const = 0;
};

class Expansion {
 public:
  virtual ~Expansion() = default;
  // The key used in position files ("rules.expansions", "expansions": {id: ...}), folder,
  // namespace, fixture folder and CMake target.
  virtual std::string_view Id() const = 0;
  virtual void ContributeFigures(std::vector<FigureKindDef>& kinds) const { (void)kinds; }
  virtual void ContributeSteps(std::vector<StepInsert>& steps) const { (void)steps; }
  virtual std::unique_ptr<ExpansionState> NewState() const { return nullptr; }
  // Reads and writes the expansion's own "expansions": {id: {...}} section.
  virtual Status ParseState(const nlohmann::json& j, const std::string& where,
                            Position& pos) const {
    (void)j, (void)where, (void)pos;
    return Status::Ok();
  }
  virtual void DumpState(const Position& pos, nlohmann::json& j) const { (void)pos, (void)j; }
  virtual void Validate(const Position& pos, std::vector<Violation>& out) const {
    (void)pos, (void)out;
  }
};

}  // namespace carc::model

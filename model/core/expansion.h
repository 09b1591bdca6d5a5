#pragma once
// The Expansion interface: an id and a Load. An expansion is stateless; its state is a typed
// slice of the Position. The core never names an expansion: the only list is
// model/expansions/registry.cc.

#include <memory>
#include <string>
#include <string_view>

#include "model/core/action.h"
#include "model/core/hooks.h"
#include "model/core/module_loader.h"
#include "model/core/status.h"
#include "model/core/step.h"

namespace carc::model {

class Position;

// What other modules may ask of a figure kind instead of its name.
struct FigureTraits {
  bool follower = true;             // placed, scored and returned like a meeple
  bool counts_for_majority = true;  // its strength counts in a feature's majority
  // Placed at a step of its own after the meeple step (the step's name); empty: none.
  std::string_view own_step;
};

// How pictures (model/render) draw a figure kind, declared with it so that render names no
// expansion.
struct FigureArt {
  enum class Shape : uint8_t {
    kDisc,    // a disc in the owner's colour with the kind's initial
    kMeeple,  // the meeple outline
  };
  Shape shape = Shape::kDisc;
  // A look of its own: a CSS class added to the figure's path, with its rule (written into the
  // style sheet of every picture), and the line the picture's key shows when the kind is drawn.
  std::string_view look;
  std::string_view css;
  bool outline = false;  // the outline drawn in the owner's colour too
  std::string_view key;
};

// A figure kind. The core contributes "meeple"; expansions add their own.
struct FigureKindDef {
  std::string name;
  int per_player = 0;
  int strength = 1;                                  // weight for majority
  std::string supply_ruling = "BASE-MEEPLE-SUPPLY";  // cited when a player has too many or none
  FigureTraits traits = {};
  FigureArt art = {};
  const Expansion* owner = nullptr;  // set by the loader; nullptr = a core figure
};

class ExpansionState {
 public:
  virtual ~ExpansionState() = default;
  virtual std::unique_ptr<ExpansionState> Clone() const = 0;
  virtual bool Equals(const ExpansionState& other) const = 0;
};

// The usual slice: a module's state type `S` (deriving from SliceOf<S>) is copied whole and
// compared with its own operator==.
template <class S>
class SliceOf : public ExpansionState {
 public:
  std::unique_ptr<ExpansionState> Clone() const override {
    return std::make_unique<S>(static_cast<const S&>(*this));
  }
  bool Equals(const ExpansionState& other) const override {
    const auto* o = dynamic_cast<const S*>(&other);
    return o && static_cast<const S&>(*this) == *o;
  }
};

// A module: its id and one Load that declares everything it adds (module_loader.h): figure
// kinds, steps at named anchors, actions, its state slice, its disputed readings and the hooks
// it uses (hooks.h), registered as callables. Stateless; the core never names a module.
class Expansion {
 public:
  // `slot`: the module's own small number, different for every module that may be enabled with
  // it (the registry's modules are numbered by their place in registry.cc's list). MakeConfig
  // resolves it once into the index of the module's slice (GameConfig::slice_of), so that
  // Position::slice finds a module's state by index instead of by a search.
  constexpr Expansion(std::string_view id, int slot) : id_(id), slot_(slot) {}
  virtual ~Expansion() = default;
  Expansion(const Expansion&) = delete;
  Expansion& operator=(const Expansion&) = delete;
  // The key used in position files ("rules.expansions", "expansions": {id: ...}), folder,
  // namespace, fixture folder and CMake target.
  std::string_view Id() const { return id_; }
  int Slot() const { return slot_; }
  virtual void Load(ModuleLoader& loader) const = 0;

 private:
  std::string_view id_;
  int slot_;
};

}  // namespace carc::model

#pragma once
// Phantom (seed 004, rulings PH-*): one extra figure per player, placed after the meeple on a
// different feature of the same tile, or alone; scored and returned like a meeple.
// Fixtures: fixtures/phantom/.

#include "model/core/expansion.h"

namespace carc::exp::phantom {

inline constexpr std::string_view kId = "phantom";
inline constexpr std::string_view kFigure = "phantom";
inline constexpr std::string_view kStep = "place_phantom";

class Phantom final : public model::Expansion {
 public:
  Phantom() : Expansion(kId, /*slot=*/0) {}
  // Declares the phantom figure, its step after the meeple's, and the hook it uses.
  void Load(model::ModuleLoader& loader) const override;
};

const Phantom& Get();

}  // namespace carc::exp::phantom

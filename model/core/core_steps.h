#pragma once
// The core turn steps (base game). Expansions anchor their own steps to these names.

#include <vector>

#include "model/core/step.h"

namespace carc::model {

std::vector<const Step*> CoreSteps();

// Shared by figure-placing steps (core meeple step, expansion figure steps): may `kind` go on
// segment `segment` of the tile placed this turn? Rules: BASE-MEEPLE-TILE, BASE-MEEPLE-FREE,
// BASE-MEEPLE-SUPPLY. `free_ruling` is the ruling cited when the feature is occupied.
Verdict CheckFigure(const Position& pos, const Action& a, int kind, const char* free_ruling);
void ListFigurePlacements(const Position& pos, int kind, std::vector<Action>& out);
void PlaceFigure(Position& pos, const Action& a);

}  // namespace carc::model

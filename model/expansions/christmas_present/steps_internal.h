// Helpers and steps shared by the Christmas Present step files (steps.cc, force_steps.cc).
#ifndef CARC_MODEL_EXPANSIONS_CHRISTMAS_PRESENT_STEPS_INTERNAL_H_
#define CARC_MODEL_EXPANSIONS_CHRISTMAS_PRESENT_STEPS_INTERNAL_H_

#include <initializer_list>
#include <string>

#include "model/core/step.h"
#include "model/expansions/christmas_present/logic.h"

namespace carc::exp::christmas_present {

// Whether `a` is one of this expansion's actions with one of `codes`.
bool IsCode(const model::Action& a, std::initializer_list<int> codes);
// Whether player p has a legal play in window w.
bool HasPlays(const model::Position& pos, Window w, model::PlayerId p);
model::ApplyResult Illegal(std::string ruling, std::string text);

// XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE (force_steps.cc): the step named place_tile that
// stands before the core's, and the step right after the core's that spends forces whose
// square another tile filled.
const model::Step& ForcedPlace();
const model::Step& ForceSpent();

}  // namespace carc::exp::christmas_present

#endif  // CARC_MODEL_EXPANSIONS_CHRISTMAS_PRESENT_STEPS_INTERNAL_H_

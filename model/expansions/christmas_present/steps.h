#pragma once
// The Christmas Present turn steps and their anchors (steps.cc).

#include <optional>
#include <string_view>
#include <vector>

#include "model/core/module_loader.h"
#include "model/core/step.h"
#include "model/expansions/christmas_present/christmas_present.h"

namespace carc::exp::christmas_present {

inline constexpr std::string_view kStepTurnStart = "xmas_turn_start";
inline constexpr std::string_view kStepForceSpent = "xmas_force_spent";
inline constexpr std::string_view kStepDrawMonastery = "xmas_draw_monastery";
inline constexpr std::string_view kStepDrawRoad = "xmas_draw_road";
inline constexpr std::string_view kStepCardsEarly = "xmas_cards_early";
inline constexpr std::string_view kStepCardsLate = "xmas_cards_late";
inline constexpr std::string_view kStepEndCards = "xmas_end_cards";
inline constexpr std::string_view kStepHandLimit = "xmas_hand_limit";

// Declares the steps at their anchors (ChristmasPresent::Load).
void AddSteps(model::ModuleLoader& loader);

// The ruling on one of the module's actions that the turn cannot take where it stands
// (ChristmasPresent::JudgeOutOfStep; model/core/expansion.h lists when it is asked).
std::optional<model::Verdict> OutOfStepRuling(const model::Position& pos, const model::Action& a);

}  // namespace carc::exp::christmas_present

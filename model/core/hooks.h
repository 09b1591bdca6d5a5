#pragma once
// The hooks a module registers in Expansion::Load (ModuleLoader::On...): callables the core
// calls, for the enabled modules in registry order, at fixed points of a turn, of scoring and of
// reading a position. A module registers only the hooks it uses; GameConfig::hooks keeps, per
// hook, the registered callables with the module that registered each.

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/core/action.h"

namespace carc::model {

class Expansion;
class Position;
struct StatePicture;

// One problem found by Validate: the position cannot arise under the rules.
struct Violation {
  std::string ruling;
  std::string where;  // JSON pointer into the position file, when known
  std::string text;
};

// A change a module makes to the majority of a feature, as other modules' reasons name it:
// whose, and what (e.g. "advantage-city", a card's name).
struct MajorityAdjustment {
  PlayerId player = 0;
  std::string what;
};

// The core's figure assumptions a module's rules may lift for one figure (the excuse hook):
// the core's checks, and its reading of an unstated posture, ask before they report.
enum class Excuse : uint8_t {
  // BASE-MEEPLE-TILE: a second figure of its kind on one tile (figures go only on the tile just
  // placed, one per turn).
  kNotOnPlacedTile,
  kOccupiedFeature,   // BASE-MEEPLE-FREE: sharing one segment of a tile with another figure
  kStaysOnCompleted,  // BASE-RETURN: standing on a completed road, city or monastery
  kLaidDown,          // BASE-MEEPLE-TILE: lying on a road, city or monastery
};

// Validate(pos, out): the module's own violations.
using ValidateFn = std::function<void(const Position& pos, std::vector<Violation>& out)>;
// Excused(pos, figure, excuse): figure (an index into pos.figures) may break the core's check.
using ExcuseFn = std::function<bool(const Position& pos, int figure, Excuse excuse)>;
// An action `a` (this module's or any other: check a.expansion) that the turn cannot take where
// `pos` stands. Called, the action's own module first, when
//  - pos is at a decision step that does not take `a` and cannot be passed;
//  - pos is right after the turn's last decision and the rest of the turn needs none: judge
//    only actions that belonged to the ending turn and cannot begin the next one, else nullopt;
//  - the turn passed to another player on the way, or the game is over (pos.turn.game_over).
// A verdict (illegal, with the ruling and a sentence) when the rules forbid the action at this
// point; nullopt leaves it to the core (Step::OutOfStep, BASE-SCORE-TIMING, BASE-END).
using JudgeOutOfStepFn =
    std::function<std::optional<Verdict>(const Position& pos, const Action& a)>;
// Points about to be added to `player` for `ev` (any cause). true: the module takes them over
// (the core then adds nothing), e.g. to let the player choose which scoring figure advances.
using InterceptAwardFn =
    std::function<bool(Position& pos, const ScoreEvent& ev, PlayerId player, int points)>;
// After the majority of a feature was computed (ev.root, ev.strength, ev.winners).
using AdjustMajorityFn = std::function<void(const Position& pos, ScoreEvent& ev)>;
// What adjusts the majority of feature `root` (the things the module's AdjustMajorityFn counts
// lying on it), for other modules' reasons (model::MajorityAdjustmentsOn, scoring.h).
using MajorityAdjustmentsFn =
    std::function<void(const Position& pos, int root, std::vector<MajorityAdjustment>& out)>;
// A completed feature is about to be scored (ev holds its value and majority). Clear
// `return_figures` to keep the figures on the board; events added to `extra` are awarded and
// reported after `ev`.
using OnCompletedFn = std::function<void(Position& pos, ScoreEvent& ev, bool& return_figures,
                                         std::vector<ScoreEvent>& extra)>;
// A road, city or monastery (`root`) was scored during the game and its figures leave it
// (model::FeatureScored). Notes go to `out.notes` (only when pos.explain).
using OnFeatureScoredFn = std::function<void(Position& pos, int root, ApplyResult& out)>;
// Around final scoring (BASE-END): events added here are reported with the others.
using FinalScoringFn = std::function<void(Position& pos, std::vector<ScoreEvent>& out)>;
// Tiles drawn from the supply that the module's state holds (a hand before placement), so that
// `"remaining": "rest"` does not count them again (BASE-SETUP).
using HeldTilesFn = std::function<void(const Position& pos, std::vector<TileType>& out)>;
// The core's tile step placed the tile of `a`: pos.turn.placed is set. Reasons added to
// r.verdict are part of the ruling on the placement; notes go to r.notes.
using OnTilePlacedFn = std::function<void(Position& pos, const Action& a, ApplyResult& r)>;

// The module's state described for a picture (state_picture.h): `section` is its section of the
// written position ("expansions": {id: {...}}, as DumpPosition writes it), never empty. Without
// this hook a picture lists the section's keys and values.
using DescribeStateFn =
    std::function<void(const Position& pos, const nlohmann::json& section, StatePicture& out)>;

// A constraint on where a tile may go, asked by the core's tile step.
struct PlacementConstraint {
  // Whether `allows` may forbid some placement of tile `t` in `pos`: asked once per listing of
  // t's placements, so that a list with no constraint in force asks nothing per placement.
  std::function<bool(const Position& pos, TileType t)> in_force;
  // May tile `t` go on `c` rotated `r` in `pos` (the tile in hand, not yet placed)? false
  // forbids it; then, when `why` is given, it holds the verdict. Listing passes no `why`.
  std::function<bool(const Position& pos, TileType t, Coord c, Rotation r, Verdict* why)> allows;
};

// A registered hook: the callable and the module that registered it.
template <typename Fn>
struct HookEntry {
  const Expansion* module = nullptr;
  Fn fn;
};
template <typename Fn>
using HookList = std::vector<HookEntry<Fn>>;

// Every hook, as the list of registered callables (one module's, or the config's: all enabled
// modules' in registry order).
struct Hooks {
  HookList<ValidateFn> validate;
  HookList<ExcuseFn> excuse;
  HookList<JudgeOutOfStepFn> judge_out_of_step;
  HookList<InterceptAwardFn> intercept_award;
  HookList<AdjustMajorityFn> adjust_majority;
  HookList<MajorityAdjustmentsFn> majority_adjustments;
  HookList<OnCompletedFn> on_completed;
  HookList<OnFeatureScoredFn> on_feature_scored;
  HookList<FinalScoringFn> before_final_scoring;
  HookList<FinalScoringFn> after_final_scoring;
  HookList<HeldTilesFn> held_tiles;
  HookList<PlacementConstraint> constrain_placement;
  HookList<OnTilePlacedFn> on_tile_placed;
  HookList<DescribeStateFn> describe_state;

  // Appends every list of `other` to this one's.
  void Append(const Hooks& other) {
    const auto add = [](auto& to, const auto& from) {
      to.insert(to.end(), from.begin(), from.end());
    };
    add(validate, other.validate);
    add(excuse, other.excuse);
    add(judge_out_of_step, other.judge_out_of_step);
    add(intercept_award, other.intercept_award);
    add(adjust_majority, other.adjust_majority);
    add(majority_adjustments, other.majority_adjustments);
    add(on_completed, other.on_completed);
    add(on_feature_scored, other.on_feature_scored);
    add(before_final_scoring, other.before_final_scoring);
    add(after_final_scoring, other.after_final_scoring);
    add(held_tiles, other.held_tiles);
    add(constrain_placement, other.constrain_placement);
    add(on_tile_placed, other.on_tile_placed);
    add(describe_state, other.describe_state);
  }
};

}  // namespace carc::model

#pragma once
// The Expansion interface. An expansion is stateless; its state is a typed slice of the
// Position. Every hook does nothing by default. The core never names an expansion: the only
// list is model/expansions/registry.cc.

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/action.h"
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

// A change a module makes to the majority of a feature (Expansion::MajorityAdjustmentsOn), as
// other modules' reasons name it: whose, and what (e.g. "advantage-city", a card's name).
struct MajorityAdjustment {
  PlayerId player = 0;
  std::string what;
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
  // Declares everything the module adds (module_loader.h). The default declares what the old
  // hooks below contribute (figures, steps, state, actions) and every hook as used, so that a
  // module not yet migrated keeps working; a migrated module overrides Load and declares only
  // the hooks it uses.
  virtual void Load(ModuleLoader& loader) const;

  // --- Old contributions, read only by the default Load (modules not yet migrated).
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
  // The core's figure checks assume figures go only on the tile just placed, onto a free
  // feature, and leave a completed one. An expansion whose rules let `figure` (an index into
  // pos.figures) break the check named by `ruling` (BASE-MEEPLE-TILE, BASE-MEEPLE-FREE or
  // BASE-RETURN) returns true, and the core's Validate does not report it.
  virtual bool ExcusesFigure(const Position& pos, int figure, std::string_view ruling) const {
    (void)pos, (void)figure, (void)ruling;
    return false;
  }

  // --- Actions of its own (ActionType::kExpansion). ParseAction returns nullopt when the
  // "type" is not one of this expansion's; errors name `where` (a JSON pointer).
  virtual std::optional<StatusOr<Action>> ParseAction(const nlohmann::json& j, const Position& pos,
                                                      const std::string& where) const {
    (void)j, (void)pos, (void)where;
    return std::nullopt;
  }
  virtual void DumpAction(const Position& pos, const Action& a, nlohmann::json& j) const {
    (void)pos, (void)a, (void)j;
  }
  virtual std::string DescribeAction(const Position& pos, const Action& a) const {
    (void)pos, (void)a;
    return "expansion action";
  }
  // An action `a` (this expansion's or any other: check a.expansion) that the turn cannot take
  // where `pos` stands. Called, the action's own expansion first, when
  //  - pos is at a decision step that does not take `a` and cannot be passed;
  //  - pos is right after the turn's last decision and the rest of the turn needs none
  //    (pos.current_step().NeedsDecision(pos) is false): judge only actions that belonged to
  //    the ending turn and cannot begin the next one (a further message), else nullopt;
  //  - the turn passed to another player on the way (pos is at their turn), or the game is over
  //    (pos.turn.game_over).
  // Return a verdict (illegal, with the ruling and a sentence) when the rules forbid the action
  // at this point; nullopt leaves it to the core, which rules by the step (Step::OutOfStep),
  // the end of the turn (BASE-SCORE-TIMING) or the end of the game (BASE-END).
  virtual std::optional<Verdict> JudgeOutOfStep(const Position& pos, const Action& a) const {
    (void)pos, (void)a;
    return std::nullopt;
  }

  // --- Scoring hooks, called in registry order.
  // Points about to be added to `player` for `ev` (any cause: a completed feature, final
  // scoring, an expansion's own points). Return true to take them over (the core then adds
  // nothing), e.g. to let the player choose which scoring figure advances.
  virtual bool InterceptAward(Position& pos, const ScoreEvent& ev, PlayerId player,
                              int points) const {
    (void)pos, (void)ev, (void)player, (void)points;
    return false;
  }
  // After the majority of a feature was computed (ev.root, ev.strength, ev.winners).
  virtual void AdjustMajority(const Position& pos, ScoreEvent& ev) const { (void)pos, (void)ev; }
  // What may adjust the majority of feature `root` in `pos` (the things AdjustMajority counts
  // lying on it), for other modules' reasons (model::MajorityAdjustmentsOn, scoring.h). Asked
  // of the modules using Hook::kAdjustMajority.
  virtual void MajorityAdjustmentsOn(const Position& pos, int root,
                                     std::vector<MajorityAdjustment>& out) const {
    (void)pos, (void)root, (void)out;
  }
  // A completed feature is about to be scored (ev holds its value and majority). Clear
  // `return_figures` to keep the figures on the board. Events added to `extra` (e.g. other
  // players paid at another rate for the same feature) are awarded and reported after `ev`.
  virtual void OnCompleted(Position& pos, ScoreEvent& ev, bool& return_figures,
                           std::vector<ScoreEvent>& extra) const {
    (void)pos, (void)ev, (void)return_figures, (void)extra;
  }
  // A road, city or monastery (`root`) was scored during the game and its figures leave it
  // (model::FeatureScored, Hook::kOnFeatureScored): completed in the scoring step (after
  // OnCompleted and the awards), or scored early "as at game end" by a module's own scoring (a
  // card) that returns every figure. End here what lasts until the feature is scored; notes go to
  // `out.notes` (only when pos.explain).
  virtual void OnFeatureScored(Position& pos, int root, ApplyResult& out) const {
    (void)pos, (void)root, (void)out;
  }
  // Around final scoring (BASE-END): events added here are reported with the others.
  virtual void BeforeFinalScoring(Position& pos, std::vector<ScoreEvent>& out) const {
    (void)pos, (void)out;
  }
  virtual void AfterFinalScoring(Position& pos, std::vector<ScoreEvent>& out) const {
    (void)pos, (void)out;
  }
  // --- Tile placement (the core's place_tile step asks these; no module replaces the step).
  // A constraint on where a tile may go (Hook::kConstrainPlacement): may tile `t` go on `c`
  // rotated `r` in `pos` (the tile in hand, not yet placed)? Asked for every placement the
  // board accepts when the step lists them, and for the placement judged, before the board's
  // own checks. Return false to forbid it; then, when `why` is given, fill it with the verdict
  // (illegal, the ruling and a sentence). Listing passes no `why`: answer without building text.
  virtual bool ConstrainPlacement(const Position& pos, TileType t, Coord c, Rotation r,
                                  Verdict* why) const {
    (void)pos, (void)t, (void)c, (void)r, (void)why;
    return true;
  }
  // Whether ConstrainPlacement may forbid some placement of tile `t` in `pos` (same hook):
  // asked once per listing of `t`'s placements, so that a list with no constraint in force asks
  // nothing per placement. Return false only when ConstrainPlacement would allow every square
  // and rotation of `t` in `pos`.
  virtual bool ConstrainsPlacement(const Position& pos, TileType t) const {
    (void)pos, (void)t;
    return true;
  }
  // The core's tile step placed the tile of `a` (Hook::kOnTilePlaced): pos.turn.placed is set.
  // Reasons added to r.verdict are part of the ruling on the placement; notes go to r.notes.
  virtual void OnTilePlaced(Position& pos, const Action& a, ApplyResult& r) const {
    (void)pos, (void)a, (void)r;
  }
  // Tiles drawn from the supply that the expansion's state holds (a hand before placement),
  // so that `"remaining": "rest"` does not count them again (BASE-SETUP).
  virtual void HeldTiles(const Position& pos, std::vector<TileType>& out) const {
    (void)pos, (void)out;
  }
};

}  // namespace carc::model

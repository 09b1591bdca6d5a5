#pragma once
// The whole game state: rules configuration, board, players, figures, tile supply, turn, and
// one typed slice per enabled expansion.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/core/board.h"
#include "model/core/expansion.h"
#include "model/core/options.h"
#include "model/core/step.h"

namespace carc::model {

// Built once per game from the enabled expansions (registry order).
struct GameConfig {
  RuleOptions options;
  const TileCatalog* catalog = &TileCatalog::Base();
  std::vector<FigureKindDef> figure_kinds;  // index = figure kind id; 0 = meeple
  std::vector<const Expansion*> expansions;
  // By Expansion::Slot(): the index of that module's slice in Position::slices (the same as its
  // index in `expansions`); -1: no enabled module has the slot. Resolved once by MakeConfig.
  std::vector<int> slice_of;
  std::vector<const Step*> pipeline;
  std::vector<const Expansion*> step_owner;    // parallel to pipeline; nullptr = a core step
  std::vector<std::string_view> step_names;    // parallel to pipeline: each step's Name()
  int StepIndex(std::string_view name) const;  // -1 if none
  // The index of `step` in the pipeline (-1: not in it), by the step object's address.
  int IndexOf(const Step* step) const;
  // The pipeline's preempting steps (Step::Preempts) with their indices, in pipeline order.
  std::vector<std::pair<int, const Step*>> preempting;
  // The core steps every pipeline has, by index (resolved by MakeConfig).
  struct CoreSteps {
    int draw_tile = -1;
    int place_tile = -1;
    int place_figure = -1;
    int score_completed = -1;
  } core_step;
  // Per figure kind, the index of the step it is placed at (FigureTraits::own_step); -1: none.
  std::vector<int> own_step;
  const Expansion* StepOwner(int step) const { return step_owner[step]; }
  // What the modules declared (module_loader.h), parallel to `expansions`; per hook, the
  // callables registered (registry order); the declared actions of all modules.
  std::vector<ModuleDecl> modules;
  Hooks hooks;
  std::vector<std::pair<const Expansion*, ActionDecl>> actions;
  const ModuleDecl* Module(const Expansion* e) const;
  int FigureKind(std::string_view name) const;  // -1 if none
  // The figure kind placed at a step of its own (FigureTraits::own_step), where pipeline step
  // `step` is that step; -1 if none (e.g. the meeple step, or a step placing no figure).
  int FigureKindPlacedAt(int step) const;
  const Expansion* FindExpansion(std::string_view id) const;
};

// Builds a config: core steps and figures plus those the expansions contribute.
std::shared_ptr<const GameConfig> MakeConfig(RuleOptions options,
                                             std::vector<const Expansion*> expansions);

inline constexpr int kMeeple = 0;

struct Figure {
  PlayerId owner = 0;
  int kind = kMeeple;
  int node = -1;       // Board::Node(tile, segment)
  bool lying = false;  // farmers lie in the field; others stand
  friend bool operator==(const Figure&, const Figure&) = default;
};

struct Player {
  std::string name;
  int score = 0;
  std::vector<int> supply;  // per figure kind
  friend bool operator==(const Player&, const Player&) = default;
};

struct TileSupply {
  bool ordered = false;         // draw order known
  std::vector<TileType> order;  // next tile first (ordered only)
  std::vector<int> counts;      // remaining per tile type (always kept)
  int total() const;
};

struct TurnState {
  PlayerId player = 0;
  int step = 0;                   // index into config->pipeline; see game_over
  bool game_over = false;         // final scoring done
  std::optional<TileType> drawn;  // tile in hand
  int placed = -1;                // tile index placed this turn
  // The part of the player's turn: 2, 3, ... when a module gave the same player an extra part
  // with a draw of its own (a tile was placed in an earlier part of this turn).
  int part = 1;
  std::vector<int> figures_this_turn;  // indices into Position::figures
  uint32_t decided = 0;                // bit i: pipeline step i was decided this turn
};

class Position {
 public:
  Position() = default;
  Position(const Position& other);
  Position& operator=(const Position& other);
  Position(Position&&) = default;
  Position& operator=(Position&&) = default;

  std::shared_ptr<const GameConfig> config;
  Board board;
  std::vector<Player> players;
  std::vector<Figure> figures;
  TileSupply supply;
  TurnState turn;
  // The file states only part of the table (board_partial, adjudicator/POSITION_FORMAT.md): a
  // square without a stated tile may hold one the file leaves out. BASE-PLACE-ADJ, BASE-SETUP.
  bool board_partial = false;
  // board_empty: squares of a partial board the file states to hold no tile, in file order. A
  // square here that holds a tile (one placed on it since) is no longer empty: KnownEmpty.
  std::vector<Coord> board_empty;
  // false: the lean path (engines, perft, random games): steps decide and score as always but
  // build no reason or note text and keep no score breakdowns; the adjudicator leaves it true.
  // The same rules run both ways (property-tests/lean_explained.cc compares them).
  bool explain = true;
  std::vector<std::unique_ptr<ExpansionState>> slices;  // parallel to config->expansions

  const GameConfig& cfg() const { return *config; }
  // A square of board_empty with no tile on it.
  bool KnownEmpty(Coord c) const;
  // The step the turn stands at in the pipeline: what a position file states as turn.step.
  const Step& pipeline_step() const { return *config->pipeline[turn.step]; }
  // The step that decides next: a preempting step later in the pipeline when it needs a
  // decision now (Step::Preempts), else the pipeline step.
  const Step& current_step() const {
    for (const auto& [i, s] : config->preempting)
      if (turn.step < i && !turn.game_over && s->NeedsDecision(*this)) return *s;
    return pipeline_step();
  }
  // The slice of expansion e (null when it is not enabled), at the index its slot resolves to.
  // The index is checked against the module enabled there, as a module that is not enabled may
  // share its slot with one that is.
  const ExpansionState* slice(const Expansion* e) const {
    const std::vector<int>& slice_of = config->slice_of;
    const size_t slot = static_cast<size_t>(e->Slot());
    if (slot >= slice_of.size()) return nullptr;
    const int i = slice_of[slot];
    if (i < 0 || static_cast<size_t>(i) >= slices.size() || config->expansions[i] != e)
      return nullptr;
    return slices[i].get();
  }
  ExpansionState* slice(const Expansion* e) {
    return const_cast<ExpansionState*>(static_cast<const Position&>(*this).slice(e));
  }

  // Figures standing in the feature whose root is given.
  std::vector<int> FiguresIn(int root) const;
  void FiguresIn(int root, std::vector<int>& out) const;  // into a buffer the caller reuses
  bool AnyFigureIn(int root) const;
  int FiguresOnBoard(PlayerId p, int kind) const;
};

}  // namespace carc::model

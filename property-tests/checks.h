#pragma once
// The properties of as plain checks over played games, shared by the RapidCheck tests
// (which shrink a failing game) and the soak command `carc fuzz` (which runs them for hours).
// Each returns nullopt when the property holds, else a Failure naming the position it broke at.

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/core/module_loader.h"
#include "model/core/position.h"
#include "property-tests/gen_game.h"

namespace carc::prop {

struct Failure {
  std::string property;
  std::string message;
  nlohmann::json position;  // position file at the failing step
  nlohmann::json action;    // the action involved, if any
  std::string Text() const;
};

// A raw action to try outside the legal list; fields are reduced into range at use.
struct RawAction {
  int type = 0;  // 0 place_tile, 1 place_figure, 2 pass, 3 draw, 4 an expansion's own action
  int x = 0, y = 0, rotation = 0, kind = 0, segment = 0, on_other_tile = 0;
};

// --- at one position
// The expansions' candidate actions at one position (ExpansionCandidateActions, brute_force.h),
// enumerated on first use: the soak's checks at one position share them. They are kept as
// enumerated; a check reads back (ReadBack: written out and parsed) only those it uses.
// One cache may serve position after position (Reset), reusing its buffer.
class CandidateCache {
 public:
  // unhandled_read_back: the brute force reads back one in this many of the candidates the step
  // does not handle as enumerated (those it handles: all); 1 (every one) in the RapidCheck
  // properties and perft, kSoakUnhandledReadBack in the soak (CheckAll).
  explicit CandidateCache(const model::Position& pos, int unhandled_read_back = 1)
      : pos_(&pos), unhandled_read_back_(unhandled_read_back) {}
  void Reset(const model::Position& pos) {
    pos_ = &pos;
    built_ = false;
  }
  const std::vector<model::Action>& Get();
  // How many candidates Get() holds and the k-th of them (0 <= k < Count()).
  size_t Count();
  model::Action At(size_t k);
  int unhandled_read_back() const { return unhandled_read_back_; }

 private:
  const model::Position* pos_;
  int unhandled_read_back_;
  bool built_ = false;
  std::vector<model::Action> list_;
};

// The position file of one position (DumpPosition), written on first use: the round trip and
// the features check at one position share it (each wrote its own). One may serve
// position after position (Reset). A check may change it while it runs but leaves it as written.
class PositionFile {
 public:
  explicit PositionFile(const model::Position& pos) : pos_(&pos) {}
  void Reset(const model::Position& pos) {
    pos_ = &pos;
    built_ = false;
  }
  nlohmann::json& Get();

 private:
  const model::Position* pos_;
  bool built_ = false;
  nlohmann::json file_;
};

// Every listed action applies (legal, no input error) and the result validates.
std::optional<Failure> CheckListedActionsApply(const model::Position& pos);
// Actions not listed (at this step or at a later step of the turn reached by passing) are
// refused with a ruling or an input error.
std::optional<Failure> CheckOutsideRefused(const model::Position& pos,
                                           const std::vector<RawAction>& raws);
std::optional<Failure> CheckOutsideRefused(const model::Position& pos,
                                           const std::vector<RawAction>& raws,
                                           CandidateCache& cands);
// The list equals a brute-force enumeration: every square of the bounding box (+1) x every
// rotation (one per picture), every figure kind x segment of the placed tile, and pass.
std::optional<Failure> CheckBruteForce(const model::Position& pos);
std::optional<Failure> CheckBruteForce(const model::Position& pos, CandidateCache& cands);
// At the figure step: the figure placements of `carc legal` (LegalActions + ShortcutActions)
// equal those Apply accepts (part of CheckBruteForce).
std::optional<Failure> CheckFiguresListedEqualAccepted(const model::Position& pos);
// The brute-force enumeration itself: every candidate the current step handles that Apply
// accepts (used by CheckBruteForce and by the perft cross-check). An expansion's candidate is
// read back (ReadBack) and applied when the step handles it as enumerated; of those it does not
// handle, one in cands.unhandled_read_back() (a fixed stride) is read back too and tried if its
// read-back form is handled: a reader that turned one action kind into another shows there.
inline constexpr int kSoakUnhandledReadBack = 16;
std::vector<model::Action> BruteForceActions(const model::Position& pos);
std::vector<model::Action> BruteForceActions(const model::Position& pos, CandidateCache& cands);
// Dump -> parse -> dump is identical, and the parsed position has the same legal actions.
std::optional<Failure> CheckRoundTrip(const model::Position& pos);
std::optional<Failure> CheckRoundTrip(const model::Position& pos, PositionFile& file);
// Supply + board = what each player owns, per figure kind.
std::optional<Failure> CheckConservation(const model::Position& pos);
// The incremental features equal a flood fill and a rebuild in another order (root = tile);
// final scoring and the figure placements listed equal independent oracles on the flood fill.
std::optional<Failure> CheckFeatures(const model::Position& pos, int rebuild_root);
std::optional<Failure> CheckFeatures(const model::Position& pos, int rebuild_root,
                                     PositionFile& file);

// --- across one action
// The score events add up to the change in scores; no score falls.
std::optional<Failure> CheckScoreEvents(const model::Position& before, const model::Action& a,
                                        const model::ApplyResult& r, const model::Position& after);

// --- whole games
std::optional<Failure> CheckPlayout(const Game& g);  // the playout itself ran to the end
// Replays the action list (each action through DumpAction/ParseAction) from the start file:
// the same position before every decision, the same final position and scores. `full_dumps`
// compares each position's whole file (the CI property); without it, before each decision the
// state directly (the soak: SameState in game_checks.cc, the core's fields and each module's
// ExpansionState::Equals), the final position in full either way.
std::optional<Failure> CheckReplay(const Game& g, bool full_dumps = false);
// From decision k on, the transformed position (translated/rotated board) has the same legal
// actions (transformed) at every step and ends with the same scores.
struct BoardTransform;
std::optional<Failure> CheckTransformed(const Game& g, int k, const BoardTransform& t);
// The spec played with `id` enabled but unused equals the spec played without it.
std::optional<Failure> CheckUnusedExpansion(const GameSpec& base_spec, const std::string& id);

// Everything above on one game (the soak, `carc fuzz`). Which decisions get the costlier
// per-position checks (round trip, listed actions apply, features and their oracles, outside
// the list, brute force) is drawn from `salt` (property-tests/README.md "Soak: `carc fuzz`"):
// - every_decision: all of them at every decision, and the brute force reads back every
//   candidate (unhandled_read_back 1, as the ctest properties);
// - else: all but the brute force at every decision of a step (or of the forced placement, the
//   game-end window: StepVisits' keys) taken at most rare_step_at_most times in the game and
//   elsewhere at one in position_one_in decisions; the brute force at one in brute_force_one_in
//   of the decisions so checked.
// Conservation and score events run at every decision; replay, one translation + turn from a
// random decision on, and the unused-expansion comparison for each enabled expansion per game.
struct SoakPolicy {
  bool every_decision = false;
  int rare_step_at_most = 3;
  int position_one_in = 8;
  int brute_force_one_in = 4;
};
// How often each check ran (positions, or games for those named "(game)") and its time.
struct CheckTally {
  std::map<std::string, long> runs;
  std::map<std::string, double> seconds;
};
std::optional<Failure> CheckAll(const Game& g, uint64_t salt, const SoakPolicy& policy = {},
                                CheckTally* tally = nullptr);

}  // namespace carc::prop

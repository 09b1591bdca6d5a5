#pragma once
// Random legal games as lists of choice indices (design notes §6): a game is a draw order taken
// from the 71 non-start tiles plus one index into the legal actions at each decision. `carc
// conform` asks an engine about positions of such games (suite.cc); the property tests
// (property-tests/gen_game.h) fill the same spec from RapidCheck, which shrinks the lists (a
// shorter draw order is a shorter game; a lower index is an earlier action), and the soak from a
// seeded PRNG. Nothing here depends on RapidCheck or names a module.

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/position.h"
#include "model/core/rules.h"

namespace carc::adjudicator::conform {

struct GameSpec {
  int players = 2;                      // 2..6
  std::vector<std::string> expansions;  // ids, registry order
  // Draw order: tile i is bag[picks[i] % bag.size()], taken out of the bag of the 71 non-start
  // tiles (a uniform shuffle when picks[i] is uniform over the remaining bag).
  std::vector<int> picks;
  // Decisions with two or more allowed actions take allowed[choices[k] % size] (k counts those
  // decisions); past the end of the list the first allowed action is taken.
  std::vector<int> choices;
  // Expansions enabled but whose components the players never use (their actions are filtered
  // out): "enabling an expansion whose components never come into play changes nothing".
  std::vector<std::string> unused;
};

std::string Describe(const GameSpec& spec);
nlohmann::json SpecJson(const GameSpec& spec);

// The draw order the picks encode, as tile types of the base catalog.
std::vector<model::TileType> DrawOrder(const std::vector<int>& picks);

// The start position of a spec as a position file: start tile D at (0, 0), known draw order.
nlohmann::json StartJson(const GameSpec& spec);

// A played game: every position at which a decision was taken (forced ones included), the
// action taken there, and what applying it gave.
struct Game {
  GameSpec spec;
  nlohmann::json start_json;
  model::Position start;  // after the automatic first draw
  std::vector<model::Position> before;
  std::vector<model::Action> actions;
  std::vector<model::ApplyResult> results;
  model::Position final_pos;
  std::string error;  // non-empty: the playout itself failed (a property failure)
  int decisions() const { return static_cast<int>(actions.size()); }
};

// Plays the spec out. Keeps the positions (for properties at every step) unless keep is false.
Game Playout(const GameSpec& spec, bool keep_positions = true);
// The index into the `allowed` actions (n_allowed of them) that the spec takes at `pos`, as
// Playout takes it: its next choice (k counts the choices used) when there are two or more and
// the step is not one of an unused expansion's, else the first.
size_t ChoiceIndex(const GameSpec& spec, const model::Position& pos, size_t n_allowed, size_t& k);

// The actions the spec's players may choose from: LegalActions minus those of unused expansions
// (if that leaves none, the component always comes into play: the first listed action).
std::vector<model::Action> AllowedActions(const model::Position& pos,
                                          const std::vector<std::string>& unused);
// AllowedActions(pos, unused) from LegalActions(pos) already made, into `out` (cleared first).
void AllowedFrom(const model::Position& pos, const std::vector<model::Action>& legal,
                 const std::vector<std::string>& unused, std::vector<model::Action>& out);
// Whether the current step is one an expansion of `ids` contributes.
bool AtStepOf(const model::Position& pos, const std::vector<std::string>& ids);
// Whether an action uses a component of the given expansion: one of its own actions, or an
// action (a figure placement or another expansion's action, e.g. Gifts' Synod) naming one of its
// figure kinds.
bool UsesExpansion(const model::Position& pos, const model::Action& a, std::string_view id);
// The same, with the expansion already looked up (pos.cfg().FindExpansion(id); null: not
// enabled, so false) and whether it declared a figure kind (OwnsFigureKind).
bool UsesExpansion(const model::Position& pos, const model::Action& a, const model::Expansion* e,
                   bool owns_figure_kind);
bool OwnsFigureKind(const model::Position& pos, const model::Expansion* e);

// A random spec: full-length games, uniform choices.
GameSpec RandomSpec(std::mt19937_64& rng, const std::vector<std::string>& expansions);

// Parses a position file with every registered expansion known.
model::StatusOr<model::Position> ParseJson(const nlohmann::json& j, const std::string& source);

}  // namespace carc::adjudicator::conform

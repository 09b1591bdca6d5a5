#pragma once
// Random legal games as lists of choice indices (design notes §6): a game is a draw order taken
// from the 71 non-start tiles plus one index into the legal actions at each decision. RapidCheck
// shrinks the lists (a shorter draw order is a shorter game; a lower index is an earlier action),
// so a failure shrinks to a game of a few tiles. Nothing here depends on RapidCheck: the soak
// command (`carc fuzz`) fills the same spec from a seeded PRNG.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "model/core/position.h"
#include "model/core/rules.h"

namespace carc::prop {

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

// The expansions the property tests cover (those that have landed). An expansion plugs
// in by adding its id to kCovered in gen_game.cc; the environment variable CARC_PROP_EXPANSIONS
// overrides it ("all", or ids separated by commas). Registry order.
std::vector<std::string> CoveredExpansions();
// Every combination of the covered expansions, base game included (for the generators).
std::vector<std::vector<std::string>> ExpansionCombinations();

// A random spec: full-length games, uniform choices (the RapidCheck-free generators' games).
GameSpec RandomSpec(std::mt19937_64& rng, const std::vector<std::string>& expansions);

// The soak's games (`carc fuzz`): a spec whose choices lean toward the expansions, so that their
// rarer steps (a message, a gift, every Christmas card window, the hand limit, the game-end
// window, the forced placement) come up in most games. Deterministic in `seed`; the spec is an
// ordinary one (players, picks, choices: Playout plays it as any other, the rules are not
// changed). How the choices are made: players and draw order as RandomSpec; in games of 2-4
// players, with probability 3/4, one player (uniformly) hoards Christmas cards; then the game is
// played out (lean path) and at each decision with two or more actions: the hoarder's card
// plays are left out 7/8 of the time (when something else remains); a card draw of the hoarder
// takes, 3/4 of the time, a card that is not a lightning card (uniformly among those); else, when
// some but not all of the remaining actions are an expansion's own (ActionType::kExpansion: draw a
// card or gift, open a gift, play a card, seal or message..., the hoarder's plays left out), one of
// those is taken with probability 3/4, uniformly; otherwise one of the remaining actions,
// uniformly. A card drawn from an unordered deck is a choice (gen_game.h above), so leaning on it
// changes no rule. The index taken is recorded in `choices`.
GameSpec SeededSpec(uint64_t seed, const std::vector<std::string>& expansions);

// The decisions a played game took at each step (its name), plus kForcedPlacementKey: decisions
// at Christmas Present's placement window while a force-placement card waits for the active
// player's tile (XMAS-Q-FORCE), the forced placement, which shares the window's step name.
inline constexpr std::string_view kForcedPlacementKey = "xmas_place_window (forced)";
// And kGameEndCardsKey: decisions at xmas_turn_start once no tile is left (and no two tiles are
// held), the game-end window where advantage-field cards are revealed (XMAS-END). The step
// xmas_end_cards itself never takes a decision (it only discards unused lightning cards and
// modifiers at the end of a turn).
inline constexpr std::string_view kGameEndCardsKey = "xmas_turn_start (game end)";
std::map<std::string, int> StepVisits(const Game& g);
// The keys one decision counts under (its step name, and the two keys above where they apply).
std::vector<std::string> StepKeys(const model::Position& at);

// Parses a position file with every registered expansion known; aborts the property on error.
model::StatusOr<model::Position> ParseJson(const nlohmann::json& j, const std::string& source);

}  // namespace carc::prop

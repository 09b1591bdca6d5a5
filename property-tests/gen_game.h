#pragma once
// The property tests' random games: the games of `carc conform` (adjudicator/conform/
// random_game.h: a spec of choice indices, which RapidCheck shrinks, and its playout), the
// expansions covered and their combinations, and the soak's seeded specs and step counts.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "adjudicator/conform/random_game.h"
#include "model/core/position.h"

namespace carc::prop {

using adjudicator::conform::AllowedActions;
using adjudicator::conform::AllowedFrom;
using adjudicator::conform::AtStepOf;
using adjudicator::conform::ChoiceIndex;
using adjudicator::conform::Describe;
using adjudicator::conform::DrawOrder;
using adjudicator::conform::Game;
using adjudicator::conform::GameSpec;
using adjudicator::conform::OwnsFigureKind;
using adjudicator::conform::ParseJson;
using adjudicator::conform::Playout;
using adjudicator::conform::RandomSpec;
using adjudicator::conform::SpecJson;
using adjudicator::conform::StartJson;
using adjudicator::conform::UsesExpansion;

// The expansions the property tests cover (those that have landed). An expansion plugs
// in by adding its id to kCovered in gen_game.cc; the environment variable CARC_PROP_EXPANSIONS
// overrides it ("all", or ids separated by commas). Registry order.
std::vector<std::string> CoveredExpansions();
// Every combination of the covered expansions, base game included (for the generators).
std::vector<std::vector<std::string>> ExpansionCombinations();

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
// uniformly. A card drawn from an unordered deck is a choice (random_game.h), so leaning on it
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

}  // namespace carc::prop

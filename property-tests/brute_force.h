#pragma once
// The brute-force enumeration behind Legality.ListEqualsBruteForce: every candidate
// action the current step could be given, each applied on a copy. Core actions are built
// directly; an expansion's actions (ActionType::kExpansion) are built in position-file form from
// the expansion's own action kinds and read back with ParseAction, so they go through the same
// reader as a question. README.md ("Brute force") states exactly what each candidate set covers.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/core/action.h"
#include "model/core/module_loader.h"
#include "model/core/position.h"
#include "model/core/status.h"

namespace carc::prop {

// Every candidate action of the enabled expansions' own kinds, as enumerated (the structs
// model::EnumerateDeclared gives, before they are written out and read back).
std::vector<model::Action> ExpansionCandidateActions(const model::Position& pos);
void ExpansionCandidateActions(const model::Position& pos, std::vector<model::Action>& out);
// The same, each visited in that order instead of listed (the declarations in
// pos.cfg().actions order, each by model::EnumerateDeclared).
template <class Visit>
void ForEachExpansionCandidate(const model::Position& pos, Visit&& visit) {
  for (const auto& [module, decl] : pos.cfg().actions)
    model::EnumerateDeclared(pos, module, decl, [&](const model::Action& a) { visit(a); });
}
// The same candidates in position-file form (each written by its module's dump).
std::vector<nlohmann::json> ExpansionCandidates(const model::Position& pos);
// A candidate as a question names it: written by its module's dump and read back with
// ParseAction (the reader may fill defaults, e.g. Synod's figure kind, or refuse it).
model::StatusOr<model::Action> ReadBack(const model::Position& pos, const model::Action& a);

// Tile types a place_tile may name at this step: the drawn tile plus the tiles an expansion holds
// in hand (Gifts' Take 2 `held_tiles`, Christmas Present's `two_tiles`).
std::vector<model::TileType> CandidateTiles(const model::Position& pos);

// The least box holding every placed tile (all zero on an empty board).
struct Box {
  int x0, y0, x1, y1;
};
Box BoundingBox(const model::Position& pos);

// An action as what it does. Core actions: ActionKey (one per picture). An expansion's action:
// the position right after it (Apply with finish_turn false), so that two names of one effect
// (e.g. any segment of the road a card acts on) count once.
// Feature references in the expansions' sections are made canonical first (the feature's
// least segment), since a card on a feature may name any of its segments (e.g. laid_down).
std::string EffectKey(const model::Position& pos, const model::Action& a);
// The same for the position `after` the action was applied. The key is a hash of what the
// position file of `after` states (DumpPosition's content: players, board, figures, supply,
// turn as stated, each module's section with canonical feature references), hashed from the
// fields directly except the modules' sections, which are written out (a whole
// position dump per candidate was most of the brute force's cost).
std::string EffectKeyOf(const model::Position& after, const model::Action& a);
// That hash: with canonical_refs false, of the position file exactly as DumpPosition writes it
// (rules and player names aside), so equal hashes are equal files (up to 64-bit collisions).
uint64_t StatedHash(const model::Position& pos, bool canonical_refs);

}  // namespace carc::prop

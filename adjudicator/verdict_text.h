#pragma once
// What a verdict shows its reader: the evidence of each score event, the rulings it
// cites quoted inline, and player names where a module wrote a number. RulingText (the text
// form) is declared in adjudicate.h and defined in verdict_text.cc.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/core/position.h"

namespace carc::adjudicator {

// A score event as JSON with its evidence: the feature's tiles along it (a road from end to end),
// the figures on it by owner name and role, how the figures of different players are joined
// (while they stand on the board), the majority and how a tie was treated (BASE-MAJORITY), where
// a road or city ends, and for a field each completed city it supplies and each incomplete one
// left out (BASE-END-FARM).
// "evidence" holds the same as sentences, in the order the text verdict prints them.
nlohmann::json EventJson(const model::Position& pos, const model::ScoreEvent& ev);

// Adds "rulings": {ID: {title, summary, source, status}} for each ID in ruling["cited"], from
// the rulings compiled into the binary.
void QuoteRulings(nlohmann::json& ruling);

// Replaces "player N" by the name of player N in every text of the ruling (descriptions,
// reasons, notes, formulas); the echoed input and the position are left as they are.
void NamePlayers(nlohmann::json& ruling, const std::vector<std::string>& names);

}  // namespace carc::adjudicator

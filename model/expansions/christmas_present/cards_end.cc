// The cards no xmas_play can play (family.h): cancel-attack, played only as xmas_cancel in
// answer to a road-deck card (play.cc AnswerAttack, XMAS-FN8), and the end cards scored by the
// final-scoring hooks when the game ends (scoring_hooks.cc, XMAS-END):
// 2-per-figure-in-supply (XMAS-Q-SUPPLY), field-lead-bonus, tied-field-bonus (XMAS-Q-TIEDFIELD).
// Fixtures: x22-x24 (cancel), x20, x71-x75, x82 (end cards).
#include "model/expansions/christmas_present/family.h"

namespace carc::exp::christmas_present {

using model::ApplyResult;
using model::Position;

namespace {

// XMAS-CARD-CANCEL-ATTACK is refused before (CheckCard); XMAS-END: an end card acts by itself
// at final scoring, so no play of it exists.
bool Check(const Position&, const Play& p, Window, Judge& j) {
  return j.No(Info(p.card).ruling, [] { return "not playable now"; });
}

bool Targets(const Position&, const Play&, Visit) { return false; }

bool Resolve(Position&, const Play&, ApplyResult&) { return true; }

}  // namespace

const Family& OtherCards() {
  static const Family kFamily{
      .name = "cancel and end",
      .cards = {Card::kCancelAttack, Card::k2PerFigureInSupply, Card::kFieldLeadBonus,
                Card::kTiedFieldBonus},
      .untargeted = {Card::kCancelAttack, Card::k2PerFigureInSupply, Card::kFieldLeadBonus,
                     Card::kTiedFieldBonus},
      .check = Check,
      .targets = Targets,
      .resolve = Resolve,
  };
  return kFamily;
}

}  // namespace carc::exp::christmas_present

#include "model/expansions/christmas_present/christmas_present.h"

#include <nlohmann/json.hpp>

#include "model/expansions/christmas_present/actions.h"
#include "model/expansions/christmas_present/state.h"
#include "model/expansions/christmas_present/steps.h"

namespace carc::exp::christmas_present {

void ChristmasPresent::ContributeSteps(std::vector<model::StepInsert>& steps) const {
  Steps(steps);
}

// XMAS-SETUP: without a section, both decks hold all 32 cards each, in an unknown order.
std::unique_ptr<model::ExpansionState> ChristmasPresent::NewState() const {
  auto s = std::make_unique<State>();
  for (int k = 0; k < kCardKinds; ++k)
    for (int i = 0; i < kCopies; ++i) {
      Card c = static_cast<Card>(k);
      s->decks[static_cast<int>(DeckOf(c))].cards.push_back(c);
    }
  for (auto& d : s->decks) d.ordered = false;
  s->hands.assign(6, {});
  return s;
}

model::Status ChristmasPresent::ParseState(const nlohmann::json& j, const std::string& where,
                                           model::Position& pos) const {
  *Slice(pos) = State();
  model::Status st = ParseSection(j, where, pos);
  if (!st.ok()) return st;
  // A file at step "draw" (or "final_scoring") whose turn start needs a decision (take-two-tiles,
  // end cards: XMAS-CARD-TAKE-TWO-TILES, XMAS-END) starts at xmas_turn_start, right before the
  // draw. Only then, so that a position stopped at "draw" reads back unchanged.
  const auto& cfg = pos.cfg();
  const int start = cfg.StepIndex(kStepTurnStart);
  if (!pos.turn.game_over && pos.turn.step == cfg.StepIndex(model::kDrawTile) &&
      pos.turn.placed < 0 && !pos.turn.drawn && cfg.pipeline[start]->NeedsDecision(pos))
    pos.turn.step = start;
  return st;
}

void ChristmasPresent::DumpState(const model::Position& pos, nlohmann::json& j) const {
  DumpSection(pos, j);
}

// XMAS-CARD-TAKE-TWO-TILES: the pair drawn by the card left the supply (BASE-SETUP).
void ChristmasPresent::HeldTiles(const model::Position& pos,
                                 std::vector<model::TileType>& out) const {
  const State* s = Slice(pos);
  out.insert(out.end(), s->two_tiles.begin(), s->two_tiles.end());
}

std::optional<model::StatusOr<model::Action>> ChristmasPresent::ParseAction(
    const nlohmann::json& j, const model::Position& pos, const std::string& where) const {
  return ParseXmasAction(j, pos, where);
}

void ChristmasPresent::DumpAction(const model::Position& pos, const model::Action& a,
                                  nlohmann::json& j) const {
  DumpXmasAction(pos, a, j);
}

std::string ChristmasPresent::DescribeAction(const model::Position& pos,
                                             const model::Action& a) const {
  return DescribeXmasAction(pos, a);
}

// Rulings: see OutOfStepRuling (steps.cc).
std::optional<model::Verdict> ChristmasPresent::JudgeOutOfStep(const model::Position& pos,
                                                               const model::Action& a) const {
  return OutOfStepRuling(pos, a);
}

const ChristmasPresent& Get() {
  static const ChristmasPresent expansion;
  return expansion;
}

}  // namespace carc::exp::christmas_present

#pragma once
// The Messengers (seed 003, rulings MSG-*): every player has two scoring figures, the scoring
// meeple and the dame; each scoring event's points go whole to one of them, chosen by the
// player (step assign_points). When a figure of the active player that moved this turn part
// ends on a dark space, they take the top message and carry it out or take its 2-point seal
// (step message). Before final scoring both figures are summed. See README.md in this folder;
// fixtures: fixtures/messengers/, fixtures/combos/msg_*.

#include "model/core/check.h"
#include "model/core/expansion.h"
#include "model/core/position.h"
#include "model/expansions/messengers/state.h"

namespace carc::exp::messengers {

inline constexpr std::string_view kId = "messengers";
inline constexpr std::string_view kAssignStep = "assign_points";
inline constexpr std::string_view kMessageStep = "message";

// Action codes (ActionType::kExpansion); their arguments are declared in io.cc and read through
// these slots:
//   kAssign:      kFigureArg
//   kDrawMessage: kMessageArg
//   kSeal:        kMessageArg (-1: the one in hand)
//   kCarryOut:    kMessageArg (-1: in hand), kNodeArg (-1; the feature of 1-3, the figure of 8),
//                 kKindArg (-1; 8: named when two own kinds share the segment)
enum Code { kAssign = 1, kDrawMessage = 2, kSeal = 3, kCarryOut = 4 };

// The module's score causes (ScoreEvent::cause), spelled "message", "message-seal" and
// "messengers-final-sum" in position files and verdicts.
enum class Cause : uint8_t { kMessage, kSeal, kFinalSum };
constexpr model::ScoreCause MakeCause(Cause c) {
  constexpr std::string_view kNames[] = {"message", "message-seal", "messengers-final-sum"};
  return model::ScoreCause::Module(kId, static_cast<uint8_t>(c), kNames[static_cast<int>(c)]);
}
inline constexpr model::ActionArg<Figure> kFigureArg{0};
inline constexpr model::ActionArg<Message> kMessageArg{0};
inline constexpr model::ActionArg<int> kNodeArg{1};
inline constexpr model::ActionArg<int> kKindArg{2};

class Messengers final : public model::Expansion {
 public:
  Messengers() : Expansion(kId, /*slot=*/1) {}
  // Declares the two steps, the slice codec, the four actions, the disputed readings and four
  // hooks (Validate, JudgeOutOfStep, InterceptAward, BeforeFinalScoring).
  void Load(model::ModuleLoader& loader) const override;
};

const Messengers& Get();

// The slice of a position with messengers enabled (never null there). Position::slice gives
// this module's own slice (its type is State): no dynamic_cast. Inline, as the steps ask for it
// at every decision.
inline const State& Slice(const model::Position& pos) {
  static const model::Expansion* const self = &Get();
  const auto* s = static_cast<const State*>(pos.slice(self));
  CARC_CHECK(s != nullptr);
  return *s;
}
inline State& Slice(model::Position& pos) {
  return const_cast<State&>(Slice(static_cast<const model::Position&>(pos)));
}

}  // namespace carc::exp::messengers

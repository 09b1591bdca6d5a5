#pragma once
// The Phantom state slice: the reading of the disputed reuse ruling and what the turn knows of
// the phantom's return. PH-REUSE says a returned phantom may be used again "in a later turn"
// (v dalším tahu); GIFT-Q-PHANTOM rules whether a phantom returned earlier in the same turn
// (by a gift, another expansion's card, or anything else) may be placed again that turn. The
// reading belongs here, with the phantom, so that it applies whoever returned it.

#include "model/core/expansion.h"
#include "model/core/position.h"

namespace carc::exp::phantom {

// GIFT-Q-PHANTOM (disputed, PH-REUSE): a phantom returned this turn, placed again this turn?
enum class Reuse { kSameTurnReuse, kNextTurnOnly };

struct Data {
  Reuse reuse = Reuse::kSameTurnReuse;
  // The active player's phantom stood on the board when this turn part's tile was drawn: a
  // phantom in their supply later in the turn was returned this turn, by whatever returned it.
  bool on_board_at_draw = false;
  friend bool operator==(const Data&, const Data&) = default;
};

class State final : public model::SliceOf<State> {
 public:
  Data d;
  friend bool operator==(const State& a, const State& b) { return a.d == b.d; }
};

// Declares the slice with its section ("expansions": {"phantom": {"variants": ..., "turn":
// {"on_board_at_draw": true}}}), the variant GIFT-Q-PHANTOM, and the steps that apply it.
void DeclareReuse(model::ModuleLoader& loader);
// The phantom's figure kind id in pos's configuration (declared in Load, resolved when the
// configuration was built).
int Kind(const model::Position& pos);

}  // namespace carc::exp::phantom

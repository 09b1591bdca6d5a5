// The Phantom slice and the steps of the reuse ruling (PH-REUSE, GIFT-Q-PHANTOM).
#include "model/expansions/phantom/reuse.h"

#include <nlohmann/json.hpp>

#include "model/core/core_steps.h"
#include "model/core/json_reader.h"
#include "model/core/module_loader.h"
#include "model/expansions/phantom/phantom.h"

namespace carc::exp::phantom {

namespace {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::Position;
using model::Status;
using model::Verdict;
using nlohmann::json;

constexpr std::string_view kDrawStep = "phantom_at_draw";
constexpr std::string_view kReuseStep = "phantom_reuse";
constexpr std::string_view kEndStep = "phantom_end_turn";

const Data& Slice(const Position& pos) { return static_cast<const State*>(pos.slice(&Get()))->d; }
Data& Slice(Position& pos) { return static_cast<State*>(pos.slice(&Get()))->d; }
bool InSupply(const Position& pos) { return pos.players[pos.turn.player].supply[Kind(pos)] > 0; }

// GIFT-Q-PHANTOM: the active player's phantom went back to their supply this turn: it stood on
// the board when the tile was drawn and is in the supply now. Whatever returned it (a gift, a
// Christmas card, any other rule) is the same return for PH-REUSE.
bool ReturnedThisTurn(const Position& pos) { return Slice(pos).on_board_at_draw && InSupply(pos); }

// A step that decides nothing and only runs (bookkeeping at a point of the turn).
class RunOnlyStep : public model::Step {
 public:
  bool NeedsDecision(const Position&) const override { return false; }
  bool Handles(const Position&, const Action&) const override { return false; }
  void Legal(const Position&, std::vector<Action>&) const override {}
  ApplyResult Apply(Position&, const Action&) const override { return {}; }
};

// Right after the draw (before any step that may return a figure): notes whether the active
// player's phantom is on the board. GIFT-Q-PHANTOM, PH-REUSE.
class AtDrawStep final : public RunOnlyStep {
 public:
  std::string_view Name() const override { return kDrawStep; }
  void Run(Position& pos, ApplyResult&) const override {
    if (pos.turn.placed >= 0) return;
    const int kind = Kind(pos);
    bool on_board = false;
    for (const model::Figure& f : pos.figures) {
      if (f.owner == pos.turn.player && f.kind == kind) {
        on_board = true;
        break;
      }
    }
    Slice(pos).on_board_at_draw = on_board;
  }
  // Never reached (no decision here).
  model::Reason OutOfStep(const Position&, const Action&) const override {
    return {"PH-REUSE", "the phantom's place at the draw is noted for the reuse ruling"};
  }
};

// GIFT-Q-PHANTOM, reading next-turn-only (PH-REUSE read literally): a phantom returned this turn
// waits for a later turn (the phantom step is passed). Under same-turn-reuse (adopted) it is
// simply back in the supply (a note).
class ReuseStep final : public model::Step {
 public:
  std::string_view Name() const override { return kReuseStep; }
  // A gate before the phantom's step, not a figure step of its own: a pass here is named only
  // when it decides something (so a turn that ended by itself does not list it).
  std::string Declines(const Position& pos) const override {
    return NeedsDecision(pos) ? "places no phantom: returned this turn, it waits for a later turn"
                              : "";
  }
  bool NeedsDecision(const Position& pos) const override {
    return pos.turn.placed >= 0 && Slice(pos).reuse == Reuse::kNextTurnOnly &&
           ReturnedThisTurn(pos) && !model::Decided(pos, model::IndexOf(pos, *this)) &&
           !model::Decided(pos, pos.cfg().own_step[Kind(pos)]);
  }
  bool Handles(const Position& pos, const Action& a) const override {
    return a.type == ActionType::kPass ||
           (a.type == ActionType::kPlaceFigure && a.figure_kind == Kind(pos));
  }
  bool CanPass(const Position&) const override { return true; }
  void Legal(const Position&, std::vector<Action>& out) const override {
    out.push_back({.type = ActionType::kPass});
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    ApplyResult r;
    if (a.type == ActionType::kPlaceFigure) {
      r.verdict = Verdict::Illegal(
          "GIFT-Q-PHANTOM",
          "the phantom returned to the supply this turn (whatever returned it) may be placed "
          "again only in a later turn (variant next-turn-only, PH-REUSE)");
      return r;
    }
    model::MarkDecided(pos, model::IndexOf(pos, *this));
    model::MarkDecided(pos, pos.cfg().own_step[Kind(pos)]);
    r.verdict.reasons.push_back(
        {"GIFT-Q-PHANTOM", "the phantom returned this turn waits for a later turn"});
    return r;
  }
  // Never reached (the step may be passed).
  model::Reason OutOfStep(const Position&, const Action&) const override {
    return {"GIFT-Q-PHANTOM", "the phantom returned this turn waits for a later turn"};
  }
  void Run(Position& pos, ApplyResult& r) const override {
    if (pos.turn.placed < 0) return;
    const Data& d = Slice(pos);
    if (d.reuse != Reuse::kSameTurnReuse || !d.on_board_at_draw || !InSupply(pos) ||
        model::Decided(pos, model::IndexOf(pos, *this)))
      return;
    model::MarkDecided(pos, model::IndexOf(pos, *this));
    r.notes.push_back({"GIFT-Q-PHANTOM",
                       "the phantom returned this turn (whatever returned it) is back in the "
                       "supply and may be placed again this turn (same-turn-reuse)"});
  }
};

// Clears the turn's note at its end.
class EndStep final : public RunOnlyStep {
 public:
  std::string_view Name() const override { return kEndStep; }
  void Run(Position& pos, ApplyResult&) const override { Slice(pos).on_board_at_draw = false; }
  // Never reached (no decision here).
  model::Reason OutOfStep(const Position&, const Action&) const override {
    return {"PH-REUSE", "the turn's note of the phantom is cleared at its end"};
  }
};

// "expansions": {"phantom": {"turn": {"on_board_at_draw": true}}} ("variants" is the core's).
Status Parse(const json& j, const std::string& where, Position& pos) {
  if (!j.is_object())
    return model::JsonError(
        where, std::string("expected an object holding variants and turn, got ") + j.type_name());
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "turn")
      return model::JsonError(where + "/" + it.key().substr(0, 100),
                              "unknown field (the phantom's section holds variants and turn)");
  if (!j.contains("turn")) return Status::Ok();
  const json& jt = j["turn"];
  const std::string w = where + "/turn";
  if (!jt.is_object()) return model::JsonError(w, "expected an object");
  if (Status s = model::CheckKeys(jt, w, {"on_board_at_draw"}); !s.ok()) return s;
  if (jt.contains("on_board_at_draw")) {
    if (!jt["on_board_at_draw"].is_boolean())
      return model::JsonError(w + "/on_board_at_draw", "expected true or false");
    // Noted right after the draw (AtDrawStep): before it, at step draw, the drawing would
    // overwrite a stated value, so one stated there says nothing that is kept.
    if (pos.turn.step == pos.cfg().StepIndex(model::kDrawTile) && !pos.turn.drawn &&
        pos.turn.placed < 0 && !pos.turn.game_over)
      return model::JsonError(w + "/on_board_at_draw",
                              "no tile is drawn yet at step draw: the phantom's place is noted "
                              "when the tile is drawn (leave it out here)");
    Slice(pos).on_board_at_draw = jt["on_board_at_draw"].get<bool>();
  }
  return Status::Ok();
}

void Dump(const Position& pos, json& j) {
  if (Slice(pos).on_board_at_draw) j["turn"]["on_board_at_draw"] = true;
}

}  // namespace

void DeclareReuse(model::ModuleLoader& loader) {
  loader.SetState({[] { return std::make_unique<State>(); }, Parse, Dump});
  // GIFT-Q-PHANTOM (PH-REUSE): readings in enum order, same-turn-reuse adopted.
  model::VariantDecl v{.ruling = "GIFT-Q-PHANTOM",
                       .readings = {"same-turn-reuse", "next-turn-only"},
                       .retired_key = "phantom_reuse"};
  v.set = [](Position& pos, int r) { Slice(pos).reuse = static_cast<Reuse>(r); };
  v.get = [](const Position& pos) { return static_cast<int>(Slice(pos).reuse); };
  loader.AddVariant(std::move(v));
  static const AtDrawStep at_draw;
  static const ReuseStep reuse;
  static const EndStep end;
  loader.AddStep(model::kDrawTile, model::Place::kAfter, &at_draw);
  loader.AddStep(kStep, model::Place::kBefore, &reuse);
  loader.AddStep(model::kEndTurn, model::Place::kBefore, &end);
}

}  // namespace carc::exp::phantom

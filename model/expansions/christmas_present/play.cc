// Playing a Christmas Present card: the card table, the checks every card shares (whose turn,
// which window), the list of plays, the cancel window (XMAS-FN8). Each card's own check, plays
// and effect live in its family file (family.h).
#include <algorithm>
#include <array>

#include "model/core/json_reader.h"
#include "model/expansions/christmas_present/family.h"
#include "model/expansions/christmas_present/logic.h"

namespace carc::exp::christmas_present {

using model::Action;
using model::ApplyResult;
using model::PlayerId;
using model::Position;
using model::Verdict;

const Family& FamilyOf(Card c) {
  static const std::array<const Family*, kCardKinds> kTable = [] {
    std::array<const Family*, kCardKinds> t{};
    for (const Family* f :
         {&PointsCards(), &FigureCards(), &ModifierCards(), &LayDownCards(), &AdvantageCards(),
          &MoveCards(), &ReturnCards(), &TakeTwoCards(), &ForceCards(), &OtherCards()})
      for (Card c : f->cards) t[static_cast<int>(c)] = f;
    return t;
  }();
  return *kTable[static_cast<int>(c)];
}

bool NamesFeature(Card c) {
  const Family& f = FamilyOf(c);
  return f.shape == Shape::kFeature &&
         std::find(f.untargeted.begin(), f.untargeted.end(), c) == f.untargeted.end();
}

namespace {

// XMAS-FN8: whether a road-deck card acts against opponent `q`: the forced player, the owner of
// the figure a swap takes, another player in the feature the card acts on.
bool Attacks(const Position& pos, const Play& p, PlayerId q) {
  if (q == p.player) return false;
  switch (FamilyOf(p.card).shape) {
    case Shape::kSquare:
      return p.opponent == q;
    case Shape::kTwoFigures:
      for (const auto& f : pos.figures)
        if (f.node == p.other_node && f.owner != p.player &&
            (p.other_owner < 0 || f.owner == p.other_owner))
          return f.owner == q;
      return false;
    default: {
      const int root = internal::Root(pos, p.node);
      for (const auto& f : pos.figures)
        if (f.owner == q && pos.board.Find(f.node) == root) return true;
      return false;
    }
  }
}

// Rules: XMAS-USE (own turn only, one exception), XMAS-END (timing classes), XMAS-Q-ANYTIME,
// XMAS-Q-LIGHTNING, XMAS-FN8 (nothing while an attack waits), XMAS-Q-FORCE (its window),
// XMAS-CARD-TAKE-TWO-TILES and the scoring modifiers (their windows): the checks that depend on
// the card, the player and the window, not on the target.
bool CheckCard(const Position& pos, const Play& p, Window w, Judge& j) {
  const State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  const PlayerId active = pos.turn.player;
  if (p.player < 0 || p.player >= static_cast<int>(pos.players.size()))
    return j.No("XMAS-USE", [] { return "no such player"; });
  if (Copies(s.hands[p.player], p.card) == 0)
    return j.No("XMAS-USE", [&] {
      return pos.players[p.player].name + " holds no " + ci.name +
             " card (hand: " + std::to_string(s.hands[p.player].size()) + " cards)";
    });
  if (s.pending)
    return j.No("XMAS-FN8", [] {
      return "a road-deck card waits for the opponents' answer (cancel or allow)";
    });
  if (ci.timing == Timing::kEndOfGame && w != Window::kGameEnd)
    return j.No("XMAS-END", [&] {
      return std::string(ci.name) +
             " is an end-of-game card (Carcassonne symbol): it is revealed and used only when "
             "the game ends";
    });
  if (ci.timing != Timing::kEndOfGame && w == Window::kGameEnd)
    return j.No("XMAS-END", [] {
      return "the game is over: cards for use during the game (lightning or no symbol) can no "
             "longer be played";
    });
  if (p.card == Card::kCancelAttack)
    return j.No("XMAS-CARD-CANCEL-ATTACK", [] {
      return "the cancel card is played only in answer to a road-deck card aimed at its holder "
             "(xmas_cancel)";
    });
  const bool force_variant = s.variants.force() == ForceTiming::kOpponentTurnOnDraw;
  if (w == Window::kForce) {
    if (p.card != Card::kForcePlacement || !force_variant || p.player == active)
      return j.No("XMAS-USE",
                  [] { return "only an opponent's force-placement can be played now"; });
  } else if (w != Window::kGameEnd && p.player != active) {
    const bool any = s.variants.any_time() == AnyTime::kAnyPlayersTurn &&
                     ci.timing == Timing::kAnyTime && p.card != Card::kTakeTwoTiles;
    if (!any)
      return j.No(ci.timing == Timing::kAnyTime ? "XMAS-Q-ANYTIME" : "XMAS-USE", [&] {
        return "cards in hand are played only in the holder's own turn (the only exception is "
               "the cancel card); it is " +
               pos.players[active].name + "'s turn";
      });
  }
  if (p.card == Card::kTakeTwoTiles && w != Window::kTurnStart)
    return j.No(ci.ruling, [] {
      return "take-two-tiles replaces the turn's draw: it is played before the tile is drawn";
    });
  if (IsScoringModifier(p.card) && w != Window::kLate)
    return j.No(ci.ruling, [&] {
      return std::string(ci.name) +
             " is played when the completed feature is scored: after the figure placement of "
             "the turn";
    });
  if (p.card == Card::kForcePlacement && force_variant && w != Window::kForce)
    return j.No("XMAS-Q-FORCE", [] {
      return "opponent-turn-on-draw: force-placement is played in the opponent's turn, after "
             "they draw their tile";
    });
  if (p.card == Card::kForcePlacement && !force_variant && w == Window::kForce)
    return j.No("XMAS-Q-FORCE",
                [] { return "force-placement is played in the holder's own turn"; });
  // XMAS-Q-LIGHTNING drawn-turn-only: a lightning card is used in the turn it is drawn, and
  // cards are drawn after the tile is placed, so none can be played before that; under
  // keep-for-later-own-turn a kept card is played at any step of a later own turn.
  if (ci.timing == Timing::kImmediate && (w == Window::kTurnStart || w == Window::kPlacement) &&
      s.variants.lightning() == Lightning::kDrawnTurnOnly)
    return j.No("XMAS-Q-LIGHTNING", [] {
      return "drawn-turn-only: a lightning card is used in the turn it is drawn, and cards are "
             "drawn only after the tile is placed";
    });
  return true;
}

bool Check(const Position& pos, const Play& p, Window w, Judge& j) {
  return CheckCard(pos, p, w, j) && FamilyOf(p.card).check(pos, p, w, j);
}

// XMAS-USE: every play of `player` at `w` the checks accept, in a fixed order (card kinds in table
// order, then the family's targets); stops when `visit` returns true.
bool ForEachPlay(const Position& pos, Window w, PlayerId player, Visit visit) {
  const State& s = *Slice(pos);
  if (player < 0 || s.pending || s.hands[player].empty()) return false;
  std::array<bool, kCardKinds> held{};
  for (Card c : s.hands[player]) held[static_cast<int>(c)] = true;
  for (int k = 0; k < kCardKinds; ++k) {
    if (!held[k]) continue;
    Play card;
    card.card = static_cast<Card>(k);
    card.player = player;
    if (card.card == Card::kCancelAttack) continue;
    if ((TimingOf(card.card) == Timing::kEndOfGame) != (w == Window::kGameEnd)) continue;
    Judge lean(/*explain=*/false);
    if (!CheckCard(pos, card, w, lean)) continue;  // no target can change that
    const Family& f = FamilyOf(card.card);
    const bool stopped = f.targets(pos, card, [&](const Play& p) {
      Judge target(/*explain=*/false);
      return f.check(pos, p, w, target) && visit(p);
    });
    if (stopped) return true;
  }
  return false;
}

}  // namespace

Verdict CheckPlay(const Position& pos, const Play& p, Window w) {
  Judge j(/*explain=*/true);
  Check(pos, p, w, j);
  return j.TakeVerdict();
}

void ListPlays(const Position& pos, Window w, PlayerId player, std::vector<Action>& out) {
  ForEachPlay(pos, w, player, [&](const Play& p) {
    out.push_back(EncodePlay(p));
    return false;
  });
}

bool AnyPlay(const Position& pos, Window w, PlayerId player) {
  return ForEachPlay(pos, w, player, [](const Play&) { return true; });
}

// XMAS-FN8: a road-deck card aimed at opponents waits for their answer; the others act at once.
// XMAS-END: an end card is revealed and stays with its holder until final scoring.
// Lean (pos.explain false): the check builds no text; a refusal keeps its ruling ID
// with no sentence and a legal play no reasons. Explaining: CheckPlay's verdict.
ApplyResult PlayCard(Position& pos, const Action& a, Window w) {
  ApplyResult r;
  Play p = DecodePlay(a);
  Judge j(pos.explain);
  Check(pos, p, w, j);
  if (!j.legal()) {
    if (pos.explain)
      r.verdict = j.TakeVerdict();
    else
      r.verdict = {false, {{j.ruling() ? j.ruling() : "", std::string()}}};
    return r;
  }
  r.verdict = j.TakeVerdict();
  const Family& family = FamilyOf(p.card);
  if (family.settle) {
    r.input_error = family.settle(pos, p);
    if (!r.input_error.empty()) {
      r.verdict = {};
      return r;
    }
  }
  State& s = *Slice(pos);
  if (TimingOf(p.card) == Timing::kEndOfGame) {
    family.resolve(pos, p, r);
    return r;
  }
  auto& hand = s.hands[p.player];
  hand.erase(std::find(hand.begin(), hand.end(), p.card));
  if (TimingOf(p.card) == Timing::kImmediate && pos.explain)  // a reason only: lean skips it
    r.verdict.reasons.push_back(
        {"XMAS-Q-LIGHTNING", s.variants.lightning() == Lightning::kDrawnTurnOnly
                                 ? "a lightning card, used in the turn it was drawn"
                                 : "keep-for-later-own-turn: a lightning card kept in hand"});
  // The opponents the card acts against who hold a cancel card, in turn order after the player
  // (no list is built for a card that waits for no one).
  std::vector<PlayerId> waiting;
  if (IsRoadDeckAttack(p.card)) {
    const int n = static_cast<int>(pos.players.size());
    for (int i = 1; i < n; ++i) {
      const PlayerId q = (p.player + i) % n;
      if (Attacks(pos, p, q) && Copies(s.hands[q], Card::kCancelAttack) > 0) waiting.push_back(q);
    }
  }
  if (!waiting.empty()) {
    s.pending = PendingAttack{EncodePlay(p), waiting};
    if (pos.explain)  // a reason only: lean skips it
      r.verdict.reasons.push_back(
          {"XMAS-FN8",
           pos.players[waiting.front()].name +
               " holds a cancel card and may cancel this road-deck card now, out of turn"});
    return r;
  }
  if (family.resolve(pos, p, r)) Slice(pos)->discard.push_back(p.card);
  return r;
}

void ListAnswers(const Position& pos, std::vector<Action>& out) {
  const State& s = *Slice(pos);
  if (!s.pending) return;
  PlayerId q = s.pending->waiting.front();
  out.push_back(MakeAction(kCancel, {q}));
  out.push_back(MakeAction(kAllow, {q}));
}

// XMAS-CARD-CANCEL-ATTACK, XMAS-FN8.
ApplyResult AnswerAttack(Position& pos, const Action& a) {
  ApplyResult r;
  State& s = *Slice(pos);
  if (!s.pending) {
    r.verdict =
        Verdict::Illegal("XMAS-CARD-CANCEL-ATTACK", "no road-deck card waits for an answer");
    return r;
  }
  PlayerId q = kAnswerArg(a);
  if (q != s.pending->waiting.front()) {
    r.verdict = Verdict::Illegal(
        "XMAS-FN8", "it is " + pos.players[s.pending->waiting.front()].name +
                        "'s answer: only an opponent the card is aimed at, holding a cancel card, "
                        "may answer");
    return r;
  }
  Play p = DecodePlay(s.pending->action);
  if (a.code == kCancel) {
    Discard(s, q, Card::kCancelAttack);
    s.discard.push_back(p.card);
    s.pending.reset();
    r.verdict.reasons.push_back(
        {"XMAS-CARD-CANCEL-ATTACK", pos.players[q].name + " discards the cancel card: " +
                                        Info(p.card).name + " is cancelled and discarded"});
    r.verdict.reasons.push_back({"XMAS-FN8", "the cancel card is played out of turn"});
    return r;
  }
  s.pending->waiting.erase(s.pending->waiting.begin());
  r.verdict.reasons.push_back({"XMAS-FN8", pos.players[q].name + " does not cancel"});
  if (!s.pending->waiting.empty()) return r;
  s.pending.reset();
  if (FamilyOf(p.card).resolve(pos, p, r)) Slice(pos)->discard.push_back(p.card);
  return r;
}

// XMAS-END: the end cards needing a choice are revealed in player order from the active player.
PlayerId GameEndDecider(const Position& pos) {
  const State* s = Slice(pos);
  if (!s) return -1;
  const int n = static_cast<int>(pos.players.size());
  for (int i = 0; i < n; ++i) {
    PlayerId q = (pos.turn.player + i) % n;
    int held = Copies(s->hands[q], Card::kAdvantageField);
    int used = 0;
    for (auto [pl, node] : s->field_choices) used += pl == q;
    if (held <= used) continue;
    if (AnyPlay(pos, Window::kGameEnd, q)) return q;
  }
  return -1;
}

}  // namespace carc::exp::christmas_present

// The advantage cards (family.h): advantage-road, -city, -monastery (one more figure for the
// holder until the feature is scored) and advantage-field (revealed at game end on one field).
// How they count in majorities: ChristmasPresent::AdjustMajority (scoring_hooks.cc).
// Fixtures: x42, x46-x52, x76-x79, x81.
#include <algorithm>

#include "model/expansions/christmas_present/family.h"

namespace carc::exp::christmas_present {

using internal::KindName;
using internal::Root;
using model::ApplyResult;
using model::PlayerId;
using model::Position;

namespace {

// RawStrength's test, on the stack for a usual table (it is asked once per candidate feature
// when the plays are listed, mostly to answer no).
bool HasMajority(const Position& pos, int root, PlayerId p) {
  constexpr size_t kFew = 16;
  const size_t n = pos.players.size();
  if (n > kFew) {
    std::vector<int> st = RawStrength(pos, root);
    return st[p] > 0 && st[p] == *std::max_element(st.begin(), st.end());
  }
  int st[kFew] = {};
  const auto& kinds = pos.cfg().figure_kinds;
  for (const auto& f : pos.figures)
    if (pos.board.Find(f.node) == root) st[f.owner] += kinds[f.kind].strength;
  return st[p] > 0 && st[p] == *std::max_element(st, st + n);
}

// XMAS-CARD-ADVANTAGE-ROAD/-CITY/-MONASTERY, XMAS-Q-ADVANTAGE (test-when-played-ties-only: at
// least a tied majority when played): a feature not scored earlier, one card per player on it.
bool CheckFeature(const Position& pos, const Play& p, Judge& j) {
  const State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  const int root = Root(pos, p.node);
  if (internal::CompletedEarlier(pos, root))
    return j.No(ci.ruling, [&] { return "the " + KindName(*ci.kind) + " was scored earlier"; });
  if (!HasMajority(pos, root, p.player))
    return j.No("XMAS-Q-ADVANTAGE", [&] {
      return pos.players[p.player].name + " does not hold the majority (at least tied) in the " +
             KindName(*ci.kind) + " when playing the card";
    });
  for (const Attached& a : s.attached)
    if (a.player == p.player && a.card == p.card && Root(pos, a.node) == root)
      return j.No(ci.ruling, [] { return "the player's advantage card is already on it"; });
  j.Yes(ci.ruling, [&] {
    return "counts as one more figure of " + pos.players[p.player].name + " in the " +
           KindName(*ci.kind) + " until it is scored";
  });
  return j.Yes("XMAS-Q-ADVANTAGE",
               [] { return "the player holds the majority (at least tied) now"; });
}

// XMAS-CARD-ADVANTAGE-FIELD, XMAS-END, XMAS-Q-ADVANTAGE (ties-only: the holder shares the lead
// with an opponent; field-any-shared-presence: the holder and an opponent are both in it).
bool CheckField(const Position& pos, const Play& p, Judge& j) {
  const State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  int used = 0;
  for (auto [pl, node] : s.field_choices) used += pl == p.player;
  if (used >= Copies(s.hands[p.player], p.card))
    return j.No(ci.ruling, [] { return "the player's advantage-field cards are already used"; });
  const int root = Root(pos, p.node);
  constexpr size_t kFew = 16;  // on the stack for a usual table (asked per candidate field)
  const size_t n = pos.players.size();
  int few[kFew];
  std::vector<int> many(n > kFew ? n : 0);
  const std::span<int> st(n > kFew ? many.data() : few, n);
  RawStrengthInto(pos, root, st);
  const int best = *std::max_element(st.begin(), st.end());
  bool ok;
  if (s.variants.advantage() == AdvantageTest::kFieldAnySharedPresence) {
    ok = st[p.player] > 0 && internal::HasOpponentFigure(pos, root, p.player);
  } else {
    int at_top = 0;
    for (int x : st) at_top += x == best;
    ok = st[p.player] == best && best > 0 && at_top >= 2;
  }
  if (!ok)
    return j.No("XMAS-Q-ADVANTAGE", [&] {
      return pos.players[p.player].name + " does not share the field's lead with an opponent";
    });
  j.Yes(ci.ruling, [] { return "one more farmer in the field at final scoring"; });
  return j.Yes("XMAS-Q-ADVANTAGE", [] { return "the holder shares the lead of the field"; });
}

bool Check(const Position& pos, const Play& p, Window, Judge& j) {
  if (!internal::CheckKind(pos, p, j)) return false;
  return p.card == Card::kAdvantageField ? CheckField(pos, p, j) : CheckFeature(pos, p, j);
}

bool Targets(const Position& pos, const Play& card, Visit visit) {
  // Every check needs a figure of the player in the feature (HasMajority; CheckField: the
  // player's strength is at least the lead, above 0, or above 0 with an opponent present):
  // without one on any feature of the card's kind no target passes (most listings end here).
  // The others are visited from the features holding the player's figures, in board order,
  // without walking the board (advantage-field at game end asks this once per Apply).
  const CardInfo& ci = Info(card.card);
  if (!ci.kind) return internal::FeatureTargets(pos, card, /*per_segment=*/false, visit);
  const internal::FigureRoots mine(pos, *ci.kind, card.player, /*own=*/true);
  if (mine.empty()) return false;
  return internal::FeatureTargetsIn(pos, card, mine, visit);
}

// XMAS-CARD-ADVANTAGE-*: the card stays on its feature until it is scored; advantage-field is
// revealed at game end and stays with its holder until final scoring (XMAS-END).
bool Resolve(Position& pos, const Play& p, ApplyResult&) {
  State& s = *Slice(pos);
  if (p.card == Card::kAdvantageField)
    s.field_choices.push_back({p.player, p.node});
  else
    s.attached.push_back({p.player, p.card, p.node});
  return false;
}

}  // namespace

const Family& AdvantageCards() {
  static const Family kFamily{
      .name = "advantage",
      .cards = {Card::kAdvantageRoad, Card::kAdvantageCity, Card::kAdvantageMonastery,
                Card::kAdvantageField},
      .check = Check,
      .targets = Targets,
      .resolve = Resolve,
  };
  return kFamily;
}

}  // namespace carc::exp::christmas_present

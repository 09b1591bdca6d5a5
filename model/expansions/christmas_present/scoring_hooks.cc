// Christmas Present scoring hooks: advantage cards in majorities (XMAS-CARD-ADVANTAGE-*,
// XMAS-FN13, XMAS-Q-SHARE), scoring modifiers (XMAS-FN7, FN9, FN10), laid-down features
// (XMAS-FN11, FN12) and the end cards (XMAS-END).
#include <algorithm>
#include <optional>
#include <string>

#include "model/core/json_reader.h"
#include "model/core/scoring.h"
#include "model/expansions/christmas_present/christmas_present.h"
#include "model/expansions/christmas_present/family.h"
#include "model/expansions/christmas_present/hooks.h"
#include "model/expansions/christmas_present/logic.h"

namespace carc::exp::christmas_present {

using model::FeatureKind;
using model::PlayerId;
using model::Position;
using model::ScoreEvent;

namespace {

bool IsAdvantage(Card c) {
  return c == Card::kAdvantageRoad || c == Card::kAdvantageCity || c == Card::kAdvantageMonastery;
}

bool Has(const std::vector<PlayerId>& v, PlayerId p) {
  return std::find(v.begin(), v.end(), p) != v.end();
}

std::vector<PlayerId> Order(const Position& pos) {
  std::vector<PlayerId> out;
  const int n = static_cast<int>(pos.players.size());
  for (int i = 0; i < n; ++i) out.push_back((pos.turn.player + i) % n);
  return out;
}

// Followers in a player's supply: figure kinds that occupy features (strength > 0).
int Followers(const Position& pos, PlayerId p, bool with_board) {
  int n = 0;
  const auto& kinds = pos.cfg().figure_kinds;
  for (size_t k = 0; k < kinds.size(); ++k)
    if (kinds[k].strength > 0) {
      n += pos.players[p].supply[k];
      if (with_board) n += pos.FiguresOnBoard(p, static_cast<int>(k));
    }
  return n;
}

ScoreEvent EndEvent(const Position& pos, PlayerId p, int points, std::string formula,
                    std::vector<std::string> rulings) {
  ScoreEvent ev;
  ev.cause = MakeCause(Cause::kEnd);
  ev.winners = {p};
  ev.strength.assign(pos.players.size(), 0);
  ev.points = points;
  ev.formula = std::move(formula);
  ev.rulings = std::move(rulings);
  return ev;
}

// XMAS-CARD-2-PER-FIGURE-IN-SUPPLY, XMAS-Q-SUPPLY.
void SupplyCards(Position& pos, bool with_board, std::vector<ScoreEvent>& out) {
  const State& s = *Slice(pos);
  for (PlayerId p : Order(pos))
    for (int i = 0; i < Copies(s.hands[p], Card::k2PerFigureInSupply); ++i) {
      int n = Followers(pos, p, with_board);
      ScoreEvent ev =
          EndEvent(pos, p, 2 * n,
                   "2 x " + std::to_string(n) + " figures in supply" +
                       (with_board ? " (after final scoring: every figure is back)" : ""),
                   {"XMAS-CARD-2-PER-FIGURE-IN-SUPPLY", "XMAS-Q-SUPPLY", "XMAS-END"});
      model::Award(pos, ev);
      out.push_back(ev);
    }
}

// XMAS-CARD-ADVANTAGE-FIELD: is the chosen field one of the fields of this farm event? Per
// farm, the event's root is the field. Under C1 farm_scoring c1-four-per-city the event is one
// completed city, its majority taken over every occupied field touching it (BASE-END-FARM-C1-4PT):
// the chosen field counts when it is one of those.
bool ChosenFieldCounts(const Position& pos, int field_root, const ScoreEvent& ev) {
  if (field_root == ev.root) return true;
  const model::Board& b = pos.board;
  if (pos.cfg().options.farm_scoring != model::FarmScoring::kC1FourPerCity ||
      b.Info(ev.root).kind != FeatureKind::kCity || pos.FiguresIn(field_root).empty())
    return false;
  const std::vector<int> cities = b.TouchedCityRoots(field_root);
  return std::find(cities.begin(), cities.end(), ev.root) != cities.end();
}

// XMAS-Q-SHARE split-value: what each of the two card players receives (half the value,
// rounded down), stated in the event, which the core pays as stated (model::Award, also when
// another module takes the award over); otherwise each winner receives the whole value.
void SetSplitReceives(const State& s, ScoreEvent& ev) {
  const bool split =
      s.variants.share() == Share::kSplitValue &&
      std::find(ev.rulings.begin(), ev.rulings.end(), "XMAS-Q-SHARE") != ev.rulings.end();
  if (split)
    ev.receives.assign(ev.winners.size(), ev.points / 2);
  else
    ev.receives.clear();
}
}  // namespace

// XMAS-CARD-ADVANTAGE-ROAD/-CITY/-MONASTERY/-FIELD: the advantage cards lying on the feature,
// each named as position files name it (GIFT-Q-ADVANTAGE cites them).
void MajorityAdjustmentsOn(const Position& pos, int root,
                           std::vector<model::MajorityAdjustment>& out) {
  const State* s = Slice(pos);
  if (!s) return;
  for (const Attached& a : s->attached)
    if (IsAdvantage(a.card) && pos.board.Find(a.node) == root)
      out.push_back({a.player, Info(a.card).name});
}

// XMAS-CARD-ADVANTAGE-ROAD/-CITY/-MONASTERY/-FIELD: one more figure for the card's holder;
// two cards cancel out (each adds one), and with three or more tied the two card players share
// while the others are excluded (XMAS-FN13). XMAS-Q-ADVANTAGE: when the condition is tested.
void AdjustMajority(const Position& pos, ScoreEvent& ev) {
  const State* s = Slice(pos);
  if (!s || ev.root < 0 || ev.strength.empty()) return;
  // No card in play and no advantage-field choice this event reads: nothing below would count
  // (asked for every majority, mostly with no card in play).
  if (s->attached.empty() &&
      !(ev.kind == FeatureKind::kField && ev.cause.IsFinal() && !s->field_choices.empty()))
    return;
  // The strengths by figures (the cards add to ev.strength below), on the stack for a usual
  // table: no allocation per majority.
  constexpr size_t kFew = 16;
  const size_t n = ev.strength.size();
  int few[kFew];
  std::vector<int> many(n > kFew ? n : 0);
  const std::span<int> raw(n > kFew ? many.data() : few, n);
  std::copy(ev.strength.begin(), ev.strength.end(), raw.begin());
  const int best_raw = *std::max_element(raw.begin(), raw.end());
  int tied_raw = 0;
  for (int x : raw) tied_raw += x == best_raw && best_raw > 0;
  std::vector<PlayerId> card_players;
  std::vector<std::string> rulings;
  std::vector<std::string> counted;  // explained only: "Green's advantage-road card"
  const auto say = [&](PlayerId p, Card c) {
    if (pos.explain) counted.push_back(pos.players[p].name + "'s " + Info(c).name + " card");
  };
  for (const Attached& a : s->attached) {
    if (!IsAdvantage(a.card) || Info(a.card).kind != ev.kind || pos.board.Find(a.node) != ev.root)
      continue;
    rulings.push_back(Info(a.card).ruling);
    if (s->variants.advantage() == AdvantageTest::kTestWhenScored &&
        !(raw[a.player] > 0 && raw[a.player] == best_raw)) {
      rulings.push_back("XMAS-Q-ADVANTAGE");
      continue;
    }
    ev.strength[a.player] += 1;
    card_players.push_back(a.player);
    say(a.player, a.card);
  }
  if (ev.kind == FeatureKind::kField && ev.cause.IsFinal())
    for (auto [p, node] : s->field_choices) {
      if (node < 0 || !ChosenFieldCounts(pos, pos.board.Find(node), ev)) continue;
      bool ok;
      if (s->variants.advantage() == AdvantageTest::kFieldAnySharedPresence) {
        bool other = false;
        for (size_t q = 0; q < raw.size(); ++q) other |= static_cast<int>(q) != p && raw[q] > 0;
        ok = raw[p] > 0 && other;
      } else {
        ok = raw[p] == best_raw && best_raw > 0 && tied_raw >= 2;
      }
      rulings.push_back("XMAS-CARD-ADVANTAGE-FIELD");
      rulings.push_back("XMAS-Q-ADVANTAGE");
      if (!ok) continue;
      ev.strength[p] += 1;
      card_players.push_back(p);
      say(p, Card::kAdvantageField);
    }
  if (rulings.empty()) return;
  for (auto& r : rulings)
    if (std::find(ev.rulings.begin(), ev.rulings.end(), r) == ev.rulings.end())
      ev.rulings.push_back(r);
  if (card_players.empty()) return;
  // The verdict's majority counts the cards: say which (the figures listed are only figures).
  if (!counted.empty()) {
    ev.formula += "; the majority counts " + model::ListAnd(counted) +
                  (counted.size() > 1 ? ", each" : "") + " as one more figure of its holder";
  }
  const int best = *std::max_element(ev.strength.begin(), ev.strength.end());
  ev.winners.clear();
  for (size_t p = 0; p < ev.strength.size(); ++p)
    if (best > 0 && ev.strength[p] == best) ev.winners.push_back(static_cast<PlayerId>(p));
  std::sort(card_players.begin(), card_players.end());
  card_players.erase(std::unique(card_players.begin(), card_players.end()), card_players.end());
  if (card_players.size() >= 2) {
    ev.rulings.push_back("XMAS-FN13");
    int card_winners = 0;
    for (PlayerId p : card_players) card_winners += Has(ev.winners, p);
    if (card_winners >= 2 && tied_raw >= 3) {
      ev.rulings.push_back("XMAS-Q-SHARE");
      ev.formula += s->variants.share() == Share::kSplitValue
                        ? " (split-value: the two card players share it, half each)"
                        : " (the two card players each score it; the other tied players not)";
    }
  }
  SetSplitReceives(*s, ev);
}

// XMAS-CARD-DOUBLE-LOOP-ROAD / -3-PER-ARMS / -3-PER-TILE-NO-ARMS (XMAS-FN7, FN9, FN10): the
// completed feature is scored as usual, the card player (a leader) at the card's rate. A tied
// co-leader (XMAS-Q-TIEDSCORING): the usual value (card-player-only, tied-leaders-normal-rate;
// reported in a second event) or the card's rate too (all-tied-leaders). A laid-down feature
// keeps its figures and its values are paid at game end (XMAS-FN12).
void OnCompleted(Position& pos, ScoreEvent& ev, bool& return_figures,
                 std::vector<ScoreEvent>& extra) {
  State* s = Slice(pos);
  if (!s || ev.root < 0) return;
  const ScoreEvent usual = ev;
  std::vector<PlayerId> card_players;
  std::optional<Card> card;
  // The cards on the feature leave it once it is scored (OnFeatureScored, after the awards).
  for (size_t i = s->attached.size(); i-- > 0;) {
    const Attached& a = s->attached[i];
    if (pos.board.Find(a.node) != ev.root || !IsScoringModifier(a.card)) continue;
    ev.rulings.push_back(Info(a.card).ruling);
    if (Has(usual.winners, a.player) && !Has(card_players, a.player)) {
      card_players.push_back(a.player);
      card = a.card;
    }
  }
  std::optional<ScoreEvent> co;
  if (card) {
    ev.points = ModifierValue(*s, *card, usual, ev.formula);
    ev.rulings.push_back(*card == Card::kDoubleLoopRoad ? "XMAS-FN7"
                         : *card == Card::k3PerArms     ? "XMAS-FN9"
                                                        : "XMAS-FN10");
    if (*card == Card::kDoubleLoopRoad) ev.rulings.push_back("XMAS-Q-LOOP");
    std::vector<PlayerId> others;
    for (PlayerId w : usual.winners)
      if (!Has(card_players, w)) others.push_back(w);
    if (!others.empty()) {
      ev.rulings.push_back("XMAS-Q-TIEDSCORING");
      if (s->variants.tied_scoring() == TiedScoring::kAllTiedLeaders) {
        ev.formula += " (all-tied-leaders: every leader at the card's rate)";
      } else {
        std::sort(card_players.begin(), card_players.end());
        ev.winners = card_players;
        co = usual;
        co->winners = others;
        co->formula += " (tied co-leaders: the usual value, the card's rate is the card player's)";
        co->rulings.push_back("XMAS-Q-TIEDSCORING");
      }
    }
  }
  if (IsLaidDown(pos, *s, ev.root) && !ev.winners.empty()) {
    return_figures = false;
    Defer(pos, *s, ev.root, ev);
    if (co) Defer(pos, *s, ev.root, *co);
  }
  SetSplitReceives(*s, ev);
  if (co) {
    SetSplitReceives(*s, *co);
    extra.push_back(*co);  // the core pays and reports it after `ev`
  }
}

// XMAS-CARD-ADVANTAGE-ROAD/-CITY/-MONASTERY (XMAS-Q-ADVANTAGE: one more figure until the
// feature is scored), XMAS-FN4 (the scoring cards: the figures leave with the cards), XMAS-FN7,
// FN9, FN10 (a modifier acts on this scoring only): every card on a feature scored during the
// game (completed, also with no figure on it, a scoring card, a gift such as Road Sweeper:
// model::FeatureScored) goes to the discard pile (XMAS-USE: used cards are discarded).
void OnFeatureScored(Position& pos, int root, model::ApplyResult& out) {
  State* s = Slice(pos);
  if (!s) return;
  for (size_t i = s->attached.size(); i-- > 0;) {
    const Attached a = s->attached[i];
    if (pos.board.Find(a.node) != root) continue;
    s->discard.push_back(a.card);
    s->attached.erase(s->attached.begin() + i);
    if (pos.explain && IsAdvantage(a.card)) {
      // Completed with no figure on it (only the card): nobody scores it, yet it is finished.
      const bool alone = pos.board.IsComplete(root) && pos.FiguresIn(root).empty();
      const std::string kind(model::FeatureKindName(pos.board.Info(root).kind));
      out.notes.push_back(
          {"XMAS-Q-ADVANTAGE",
           pos.players[a.player].name + "'s " + Info(a.card).name + " card leaves the " +
               (alone ? "completed " + kind + ", which holds no figure and so pays nobody,"
                      : "scored " + kind) +
               " for the discard pile: it counts until the feature is scored (" +
               Info(a.card).ruling + ")"});
    }
  }
}

// XMAS-END: end cards revealed in player order; XMAS-Q-SUPPLY (before-final-scoring);
// XMAS-FN12: deferred values paid, the laid-down figures leave the board.
void BeforeFinalScoring(Position& pos, std::vector<ScoreEvent>& out) {
  State* s = Slice(pos);
  if (!s) return;
  if (s->variants.supply() == SupplyCount::kBeforeFinalScoring) SupplyCards(pos, false, out);
  for (const Deferred& d : s->deferred) {
    ScoreEvent ev;
    ev.cause = MakeCause(Cause::kDeferred);
    int root = pos.board.Find(d.node);
    ev.kind = pos.board.Info(root).kind;
    ev.root = root;
    ev.winners = d.winners;
    ev.strength.assign(pos.players.size(), 0);
    ev.points = d.points;
    ev.formula = "value fixed when the laid-down feature was scored (completed, or by a card)";
    ev.rulings = {"XMAS-FN12"};
    model::Award(pos, ev);
    out.push_back(ev);
  }
  s->deferred.clear();
  // Only figures kept on a completed laid-down feature (XMAS-FN11): a feature completed by this
  // turn's tile and not scored yet (a position before step score) is scored below (BASE-END).
  auto laid_down = [&](int root) {
    for (int n : s->laid_down)
      if (pos.board.Find(n) == root) return true;
    return false;
  };
  std::vector<int> back;
  for (size_t f = 0; f < pos.figures.size(); ++f) {
    int root = pos.board.Find(pos.figures[f].node);
    if (pos.board.Info(root).kind != FeatureKind::kField && pos.board.IsComplete(root) &&
        laid_down(root))
      back.push_back(static_cast<int>(f));
  }
  model::ReturnFigures(pos, back);
}

// XMAS-CARD-FIELD-LEAD-BONUS, XMAS-CARD-TIED-FIELD-BONUS (XMAS-Q-TIEDFIELD), XMAS-Q-SUPPLY
// (after-final-scoring).
void AfterFinalScoring(Position& pos, std::vector<ScoreEvent>& out) {
  State* s = Slice(pos);
  if (!s) return;
  // One entry per scored field (per completed city under c1-four-per-city), its winners merged:
  // c1-three-per-city-once splits a field into one event per winner, so a tie shows only in the
  // union of those events' winners.
  struct Scored {
    int root;
    int cities;
    std::vector<PlayerId> winners;
  };
  std::vector<Scored> fields;
  for (const ScoreEvent& fe : out) {
    if (!fe.cause.IsFinal() || fe.kind != FeatureKind::kField || fe.cities == 0) continue;
    auto it = std::find_if(fields.begin(), fields.end(),
                           [&](const Scored& f) { return f.root == fe.root; });
    if (it == fields.end()) it = fields.insert(fields.end(), {fe.root, fe.cities, {}});
    for (PlayerId w : fe.winners)
      if (!Has(it->winners, w)) it->winners.push_back(w);
  }
  const bool must = s->variants.tied_field() == TiedField::kHolderMustBeTied;
  for (PlayerId p : Order(pos)) {
    const int lead = Copies(s->hands[p], Card::kFieldLeadBonus);
    const int tied = Copies(s->hands[p], Card::kTiedFieldBonus);
    for (const Scored& f : fields) {
      for (int c = 0; c < lead; ++c)
        if (Has(f.winners, p)) {
          ScoreEvent ev = EndEvent(
              pos, p, f.cities,
              "+1 x " + std::to_string(f.cities) + " completed cities of a field the holder leads",
              {"XMAS-CARD-FIELD-LEAD-BONUS", "XMAS-END"});
          ev.kind = FeatureKind::kField;
          ev.root = f.root;
          model::Award(pos, ev);
          out.push_back(ev);
        }
      for (int c = 0; c < tied; ++c)
        if (f.winners.size() >= 2 && (!must || Has(f.winners, p))) {
          ScoreEvent ev = EndEvent(pos, p, f.cities,
                                   "+1 x " + std::to_string(f.cities) +
                                       " completed cities of a field with a shared majority",
                                   {"XMAS-CARD-TIED-FIELD-BONUS", "XMAS-Q-TIEDFIELD", "XMAS-END"});
          ev.kind = FeatureKind::kField;
          ev.root = f.root;
          model::Award(pos, ev);
          out.push_back(ev);
        }
    }
  }
  if (s->variants.supply() == SupplyCount::kAfterFinalScoring) SupplyCards(pos, true, out);
}

}  // namespace carc::exp::christmas_present

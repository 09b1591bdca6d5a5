// The lay-down cards (family.h): lay-down-road, lay-down-city, lay-down-monastery. The figures on
// the feature lie, and so does every figure that joins it later (XMAS-FN11); its value is fixed
// when it is scored and paid at game end (XMAS-FN12). Fixtures: x41, x43-x45, x88-x91, x104-x107.
#include <algorithm>

#include "model/expansions/christmas_present/family.h"

namespace carc::exp::christmas_present {

using internal::KindName;
using internal::Root;
using model::ApplyResult;
using model::Board;
using model::FeatureKind;
using model::Position;
using model::ScoreEvent;

namespace {

// XMAS-CARD-LAY-DOWN-ROAD/-CITY/-MONASTERY: a road, city or monastery not scored earlier and
// not laid down already.
bool Check(const Position& pos, const Play& p, Window, Judge& j) {
  const State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  if (!internal::CheckKind(pos, p, j)) return false;
  const int root = Root(pos, p.node);
  if (internal::CompletedEarlier(pos, root))
    return j.No(ci.ruling, [&] { return "the " + KindName(*ci.kind) + " was scored earlier"; });
  if (IsLaidDown(pos, s, root))
    return j.No(ci.ruling, [&] {
      return "the figures on this " + KindName(*ci.kind) + " are already laid down";
    });
  return j.Yes(ci.ruling, [&] { return "lays down every figure on the " + KindName(*ci.kind); });
}

bool Targets(const Position& pos, const Play& card, Visit visit) {
  return internal::FeatureTargets(pos, card, /*per_segment=*/false, visit);
}

// XMAS-CARD-LAY-DOWN-*, XMAS-FN11: the feature is laid down with its figures.
bool Resolve(Position& pos, const Play& p, ApplyResult& r) {
  Slice(pos)->laid_down.push_back(p.node);
  for (int f : pos.FiguresIn(pos.board.Find(p.node))) pos.figures[f].lying = true;
  r.verdict.reasons.push_back(
      {Info(p.card).ruling, "every figure on the " + KindName(pos.board.segment(p.node).kind) +
                                " is laid down, and so is every figure that joins it later"});
  return true;
}

}  // namespace

bool IsLaidDown(const Position& pos, const State& s, int root) {
  for (int n : s.laid_down)
    if (pos.board.Find(n) == root) return true;
  return false;
}

// XMAS-FN11: a feature joined to a laid-down one lays its figures down.
int LayDownFigures(Position& pos, const State& s, int through_tile) {
  int n = 0;
  if (s.laid_down.empty()) return n;
  const Board& b = pos.board;
  // The board does not change here: the laid-down features' roots and (through_tile) the roots
  // of that tile's features are found once, not once per figure.
  constexpr size_t kFew = 64;
  int laid[kFew];
  const size_t n_laid = std::min(s.laid_down.size(), kFew);
  for (size_t i = 0; i < n_laid; ++i) laid[i] = b.Find(s.laid_down[i]);
  auto laid_down = [&](int root) {
    return s.laid_down.size() > kFew ? IsLaidDown(pos, s, root)
                                     : std::find(laid, laid + n_laid, root) != laid + n_laid;
  };
  int through[model::kMaxSegments];
  int n_through = 0;
  if (through_tile >= 0)
    for (size_t i = 0; i < b.rotated(through_tile).segments.size(); ++i)
      through[n_through++] = b.Find(Board::Node(through_tile, static_cast<int>(i)));
  if (through_tile >= 0) {  // no feature of the tile laid down: no figure joins one
    bool any = false;
    for (int i = 0; i < n_through && !any; ++i) any = laid_down(through[i]);
    if (!any) return n;
  }
  for (model::Figure& f : pos.figures) {
    if (b.segment(f.node).kind == FeatureKind::kField) continue;
    const int root = b.Find(f.node);
    // The feature runs through the tile: one of the tile's segments belongs to it.
    if (through_tile >= 0 && std::find(through, through + n_through, root) == through + n_through)
      continue;
    if (!laid_down(root)) continue;
    n += !f.lying;
    f.lying = true;
  }
  return n;
}

// XMAS-FN12, XMAS-CARD-LAY-DOWN-ROAD/-CITY/-MONASTERY.
void Defer(const Position& pos, State& s, int root, ScoreEvent& ev) {
  if (ev.winners.empty()) return;
  s.deferred.push_back({ev.winners, ev.points, root});
  ev.formula = "laid down: " + ev.formula + " = " + std::to_string(ev.points) +
               ", fixed now and paid at game end";
  ev.points = 0;
  ev.receives.clear();  // nothing is paid now (the core pays what the event states)
  switch (pos.board.Info(root).kind) {
    case FeatureKind::kRoad:
      ev.rulings.push_back("XMAS-CARD-LAY-DOWN-ROAD");
      break;
    case FeatureKind::kCity:
      ev.rulings.push_back("XMAS-CARD-LAY-DOWN-CITY");
      break;
    default:
      ev.rulings.push_back("XMAS-CARD-LAY-DOWN-MONASTERY");
  }
  ev.rulings.push_back("XMAS-FN12");
}

const Family& LayDownCards() {
  static const Family kFamily{
      .name = "lay-down",
      .cards = {Card::kLayDownRoad, Card::kLayDownCity, Card::kLayDownMonastery},
      .check = Check,
      .targets = Targets,
      .resolve = Resolve,
  };
  return kFamily;
}

}  // namespace carc::exp::christmas_present

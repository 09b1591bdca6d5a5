#include "model/core/scoring.h"

#include <algorithm>
#include <map>
#include <set>

namespace carc::model {

namespace {

void FillTiles(const Position& pos, int root, ScoreEvent& ev) {
  std::vector<int> t = pos.board.Info(root).tiles;
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  for (int i : t) ev.tiles.push_back(pos.board.tile(i).pos);
}

std::string Plural(int n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// The value of a road, city or monastery; `final` selects end-of-game values.
// Rules: BASE-SCORE-ROAD, BASE-SCORE-CITY, BASE-SCORE-MONASTERY, BASE-END-CITY/-ROAD/-MONASTERY.
void Value(const Position& pos, int root, bool final, ScoreEvent& ev) {
  const Board& b = pos.board;
  const FeatureInfo& fi = b.Info(root);
  ev.kind = fi.kind;
  ev.root = root;
  switch (fi.kind) {
    case FeatureKind::kRoad: {
      FillTiles(pos, root, ev);
      int n = static_cast<int>(ev.tiles.size());
      ev.points = n;
      ev.formula = "1 x " + Plural(n, "tile");
      ev.rulings.push_back(final ? "BASE-END-ROAD" : "BASE-SCORE-ROAD");
      break;
    }
    case FeatureKind::kCity: {
      FillTiles(pos, root, ev);
      int n = static_cast<int>(ev.tiles.size());
      ev.shields = fi.shields;
      int per = final ? 1 : 2;
      if (!final && n == 2 && pos.cfg().options.city_scoring == CityScoring::kC1TwoTileCity) {
        per = 1;
        ev.rulings.push_back("BASE-SCORE-CITY-C1-SMALL");
      }
      ev.points = per * n + per * fi.shields;
      ev.formula = std::to_string(per) + " x " + Plural(n, "tile") + " + " + std::to_string(per) +
                   " x " + Plural(fi.shields, "coat") + " of arms";
      ev.rulings.push_back(final ? "BASE-END-CITY" : "BASE-SCORE-CITY");
      break;
    }
    case FeatureKind::kMonastery: {
      int tile = Board::TileOf(root);
      ev.tiles.push_back(b.tile(tile).pos);
      int n = b.MonasteryNeighbours(tile);
      ev.points = 1 + n;
      ev.formula = "1 + " + Plural(n, "neighbouring tile");
      ev.rulings.push_back(final ? "BASE-END-MONASTERY" : "BASE-SCORE-MONASTERY");
      break;
    }
    case FeatureKind::kField:
      break;
  }
}

}  // namespace

void AwardPoints(Position& pos, const ScoreEvent& ev, PlayerId player, int points) {
  for (const Expansion* e : pos.cfg().expansions)
    if (e->InterceptAward(pos, ev, player, points)) return;
  pos.players[player].score += points;
}

void Award(Position& pos, const ScoreEvent& ev) {
  for (PlayerId p : ev.winners) AwardPoints(pos, ev, p, ev.points);
}

ScoreEvent FinalValue(const Position& pos, int root) {
  ScoreEvent ev;
  ev.cause = "final";
  Value(pos, root, /*final=*/true, ev);
  Majority(pos, pos.FiguresIn(root), ev);
  return ev;
}

void Majority(const Position& pos, const std::vector<int>& figure_ids, ScoreEvent& ev) {
  ev.strength.assign(pos.players.size(), 0);
  for (int f : figure_ids) {
    const Figure& fig = pos.figures[f];
    ev.strength[fig.owner] += pos.cfg().figure_kinds[fig.kind].strength;
  }
  int best = *std::max_element(ev.strength.begin(), ev.strength.end());
  ev.winners.clear();
  if (best > 0) {
    for (size_t p = 0; p < ev.strength.size(); ++p)
      if (ev.strength[p] == best) ev.winners.push_back(static_cast<PlayerId>(p));
    ev.rulings.push_back("BASE-MAJORITY");
  }
  for (const Expansion* e : pos.cfg().expansions) e->AdjustMajority(pos, ev);
}

void ReturnFigures(Position& pos, std::vector<int> figure_ids) {
  std::sort(figure_ids.begin(), figure_ids.end(), std::greater<>());
  for (int f : figure_ids) {
    const Figure fig = pos.figures[f];
    pos.players[fig.owner].supply[fig.kind] += 1;
    pos.figures.erase(pos.figures.begin() + f);
    // Keep this turn's figure indices valid.
    auto& ft = pos.turn.figures_this_turn;
    ft.erase(std::remove(ft.begin(), ft.end(), f), ft.end());
    for (int& i : ft)
      if (i > f) --i;
  }
}

void ScoreCompleted(Position& pos, int root, ApplyResult& out) {
  std::vector<int> figs = pos.FiguresIn(root);
  if (figs.empty()) return;
  ScoreEvent ev;
  ev.cause = "completed";
  Value(pos, root, /*final=*/false, ev);
  Majority(pos, figs, ev);
  ev.rulings.push_back("BASE-SCORE-TIMING");
  bool return_figures = true;
  std::vector<ScoreEvent> extra;
  for (const Expansion* e : pos.cfg().expansions) e->OnCompleted(pos, ev, return_figures, extra);
  Award(pos, ev);
  out.scores.push_back(ev);
  for (ScoreEvent& x : extra) {
    Award(pos, x);
    out.scores.push_back(std::move(x));
  }
  if (!return_figures) return;
  ReturnFigures(pos, figs);
  out.notes.push_back({"BASE-RETURN", "the figures on the completed " +
                                          std::string(FeatureKindName(ev.kind)) +
                                          " return to their owners"});
}

void CoreFinalScoring(Position& pos, std::vector<ScoreEvent>& out);

void FinalScoring(Position& pos, std::vector<ScoreEvent>& out) {
  for (const Expansion* e : pos.cfg().expansions) e->BeforeFinalScoring(pos, out);
  CoreFinalScoring(pos, out);
  for (const Expansion* e : pos.cfg().expansions) e->AfterFinalScoring(pos, out);
}

void CoreFinalScoring(Position& pos, std::vector<ScoreEvent>& out) {
  const Board& b = pos.board;
  // Group figures by feature root, in figure order (deterministic).
  std::map<int, std::vector<int>> by_root;
  for (size_t f = 0; f < pos.figures.size(); ++f)
    by_root[b.Find(pos.figures[f].node)].push_back(static_cast<int>(f));
  const FarmScoring farm = pos.cfg().options.farm_scoring;
  std::vector<std::pair<int, std::vector<int>>> farms;
  for (auto& [root, figs] : by_root) {
    if (b.Info(root).kind == FeatureKind::kField) {
      farms.emplace_back(root, figs);
      continue;
    }
    ScoreEvent ev;
    ev.cause = "final";
    Value(pos, root, /*final=*/true, ev);
    Majority(pos, figs, ev);
    Award(pos, ev);
    out.push_back(ev);
  }
  auto completed_cities = [&](int field_root) {
    std::vector<int> c;
    for (int city : b.TouchedCityRoots(field_root))
      if (b.IsComplete(city)) c.push_back(city);
    return c;
  };
  if (farm == FarmScoring::kC1FourPerCity) {
    // Each completed city pays 4 to the majority of farmers over all farms touching it.
    std::map<int, std::vector<int>> city_figs;
    for (auto& [root, figs] : farms)
      for (int city : completed_cities(root))
        city_figs[city].insert(city_figs[city].end(), figs.begin(), figs.end());
    for (auto& [city, figs] : city_figs) {
      ScoreEvent ev;
      ev.cause = "final";
      ev.kind = FeatureKind::kField;
      ev.root = city;
      ev.cities = 1;
      FillTiles(pos, city, ev);
      ev.points = 4;
      ev.formula = "4 for the completed city, to the majority of the farms touching it";
      ev.rulings = {"BASE-END-FARM-C1-4PT"};
      Majority(pos, figs, ev);
      Award(pos, ev);
      out.push_back(ev);
    }
    return;
  }
  std::map<PlayerId, std::set<int>> paid;  // kC1ThreePerCityOnce
  for (auto& [root, figs] : farms) {
    ScoreEvent ev;
    ev.cause = "final";
    ev.kind = FeatureKind::kField;
    ev.root = root;
    FillTiles(pos, root, ev);
    Majority(pos, figs, ev);
    std::vector<int> cities = completed_cities(root);
    ev.cities = static_cast<int>(cities.size());
    if (farm == FarmScoring::kPerFarm) {
      ev.points = 3 * ev.cities;
      ev.formula = "3 x " + Plural(ev.cities, "completed city");
      ev.rulings.push_back("BASE-END-FARM");
      Award(pos, ev);
      out.push_back(ev);
      continue;
    }
    // C1 three-per-city-once: each winner is paid only for cities not yet paid to them.
    ev.rulings.push_back("BASE-END-FARM-C1-ONCE");
    for (PlayerId p : std::vector<PlayerId>(ev.winners)) {
      ScoreEvent one = ev;
      one.winners = {p};
      int fresh = 0;
      for (int c : cities)
        if (paid[p].insert(c).second) ++fresh;
      one.points = 3 * fresh;
      one.formula = "3 x " + Plural(fresh, "completed city") + " not yet paid to this player";
      Award(pos, one);
      out.push_back(one);
    }
    if (ev.winners.empty()) out.push_back(ev);
  }
}

}  // namespace carc::model

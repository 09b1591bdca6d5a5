#include "model/core/scoring.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include "model/core/feature_path.h"
#include "model/core/json_reader.h"  // Plural, ListAnd
#include "model/core/partial_board.h"

namespace carc::model {

namespace {

// A score event read by nobody but the scoring that makes it: the lean path (Position::explain
// false) with no module hook that sees events (InterceptAward, AdjustMajority, OnCompleted,
// Before/AfterFinalScoring). Such an event carries no rulings and is not kept. The values,
// majorities and awards are the same code either way.
bool Unobserved(const Position& pos) {
  if (pos.explain) return false;
  const Hooks& h = pos.cfg().hooks;
  return h.intercept_award.empty() && h.adjust_majority.empty() && h.on_completed.empty() &&
         h.before_final_scoring.empty() && h.after_final_scoring.empty();
}

// Resets an event for the next feature of one final scoring, keeping its lists' buffers.
void Recycle(ScoreEvent& ev) {
  std::vector<Coord> tiles = std::move(ev.tiles);
  std::vector<int> strength = std::move(ev.strength);
  std::vector<PlayerId> winners = std::move(ev.winners);
  std::vector<FigureSeen> figures = std::move(ev.figures);
  ev = ScoreEvent{};
  tiles.clear();
  strength.clear();
  winners.clear();
  figures.clear();
  ev.tiles = std::move(tiles);
  ev.strength = std::move(strength);
  ev.winners = std::move(winners);
  ev.figures = std::move(figures);
}

void FillTiles(const Position& pos, int root, ScoreEvent& ev) {
  const FeatureTiles tiles = pos.board.Info(root).tiles;
  std::vector<int> t(tiles.begin(), tiles.end());
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  for (int i : t) ev.tiles.push_back(pos.board.tile(i).pos);
}

// The value of a road, city or monastery; `final` selects end-of-game values.
// Rules: BASE-SCORE-ROAD, BASE-SCORE-CITY, BASE-SCORE-MONASTERY, BASE-END-CITY/-ROAD/-MONASTERY.
// With `rulings` false (an unobserved event) the rulings list is left empty.
void Value(const Position& pos, int root, bool final, ScoreEvent& ev, bool rulings = true) {
  const Board& b = pos.board;
  const FeatureInfo& fi = b.Info(root);
  ev.kind = fi.kind;
  ev.root = root;
  switch (fi.kind) {
    case FeatureKind::kRoad: {
      FillTiles(pos, root, ev);
      int n = static_cast<int>(ev.tiles.size());
      ev.points = n;
      if (pos.explain) {  // the breakdown text and evidence: not on the lean path
        ev.formula = "1 x " + Plural(n, "tile");
        ev.ends = FeatureEnds(pos, root);
      }
      if (rulings) ev.rulings.push_back(final ? "BASE-END-ROAD" : "BASE-SCORE-ROAD");
      break;
    }
    case FeatureKind::kCity: {
      FillTiles(pos, root, ev);
      int n = static_cast<int>(ev.tiles.size());
      ev.shields = fi.shields;
      int per = final ? 1 : 2;
      if (!final && n == 2 && pos.cfg().options.city_scoring == CityScoring::kC1TwoTileCity) {
        per = 1;
        if (rulings) ev.rulings.push_back("BASE-SCORE-CITY-C1-SMALL");
      }
      ev.points = per * n + per * fi.shields;
      if (pos.explain) {
        ev.formula = std::to_string(per) + " x " + Plural(n, "tile") + " + " + std::to_string(per) +
                     " x " + Plural(fi.shields, "coat") + " of arms";
        ev.ends = FeatureEnds(pos, root);
      }
      if (rulings) ev.rulings.push_back(final ? "BASE-END-CITY" : "BASE-SCORE-CITY");
      break;
    }
    case FeatureKind::kMonastery: {
      int tile = Board::TileOf(root);
      ev.tiles.push_back(b.tile(tile).pos);
      int n = b.MonasteryNeighbours(tile);
      ev.points = 1 + n;
      if (pos.explain) ev.formula = "1 + " + Plural(n, "neighbouring tile");
      if (rulings) ev.rulings.push_back(final ? "BASE-END-MONASTERY" : "BASE-SCORE-MONASTERY");
      break;
    }
    case FeatureKind::kField:
      break;
  }
}

// The completed cities a field touches (BASE-END-FARM: only those are paid).
std::vector<int> CompletedCities(const Board& b, int field_root) {
  std::vector<int> c;
  for (int city : b.TouchedCityRoots(field_root))
    if (b.IsComplete(city)) c.push_back(city);
  return c;
}
int CountCompletedCities(const Board& b, int field_root) {
  std::vector<int> cities;
  b.TouchedCityRoots(field_root, cities);
  int n = 0;
  for (int city : cities) n += b.IsComplete(city);
  return n;
}

void MajorityOf(const Position& pos, const std::vector<int>& figure_ids, ScoreEvent& ev,
                bool rulings);

// BASE-END-FARM, BASE-END-FARM-C1-ONCE: a farm scored on its own, 3 per completed city it
// touches, to the majority of `figs` (its farmers). `quiet`: an unobserved event (no rulings,
// evidence or formula).
void FarmValueInto(const Position& pos, int root, const std::vector<int>& figs, bool quiet,
                   ScoreEvent& ev) {
  ev.cause = ScoreCause::Final();
  ev.kind = FeatureKind::kField;
  ev.root = root;
  FillTiles(pos, root, ev);
  // The value before the majority, as for every other feature: a module's majority hook reads
  // it (XMAS-Q-SHARE split-value states each winner's share of `points`) and adds to the
  // formula.
  ev.cities = CountCompletedCities(pos.board, root);
  ev.points = 3 * ev.cities;
  if (!quiet) ev.formula = "3 x " + Plural(ev.cities, "completed city");
  MajorityOf(pos, figs, ev, !quiet);
  // BASE-END-FARM: incomplete ones left out. Evidence only the explained verdict reads (no
  // module's hook does): the lean path leaves it out.
  if (!quiet && pos.explain) ev.touched_cities = TouchedCities(pos, root);
  if (quiet) return;
  ev.rulings.push_back(pos.cfg().options.farm_scoring == FarmScoring::kC1ThreePerCityOnce
                           ? "BASE-END-FARM-C1-ONCE"
                           : "BASE-END-FARM");
}
ScoreEvent FarmValue(const Position& pos, int root, const std::vector<int>& figs) {
  ScoreEvent ev;
  FarmValueInto(pos, root, figs, /*quiet=*/false, ev);
  return ev;
}

// BASE-END-FARM-C1-4PT: the farmers a completed city pays, those of every farm touching it,
// farm by farm (in root order), each farm's in figure order.
std::vector<int> CityFarmers(const Position& pos, int city) {
  const Board& b = pos.board;
  std::map<int, std::vector<int>> farms;
  for (size_t f = 0; f < pos.figures.size(); ++f) {
    const int root = b.Find(pos.figures[f].node);
    if (b.Info(root).kind == FeatureKind::kField) farms[root].push_back(static_cast<int>(f));
  }
  std::vector<int> out;
  for (const auto& [root, figs] : farms) {
    const std::vector<int> cities = CompletedCities(b, root);
    if (std::find(cities.begin(), cities.end(), city) != cities.end())
      out.insert(out.end(), figs.begin(), figs.end());
  }
  return out;
}

// BASE-END-FARM-C1-4PT: a completed city pays 4 to the majority of the farmers of every farm
// touching it (the event is rooted at the city).
ScoreEvent CityFarmValue(const Position& pos, int city) {
  ScoreEvent ev;
  ev.cause = ScoreCause::Final();
  ev.kind = FeatureKind::kField;
  ev.root = city;
  ev.cities = 1;
  FillTiles(pos, city, ev);
  ev.touched_cities = {{ev.tiles, true}};
  ev.points = 4;
  ev.formula = "4 for the completed city, to the majority of the farms touching it";
  ev.rulings = {"BASE-END-FARM-C1-4PT"};
  Majority(pos, CityFarmers(pos, city), ev);
  return ev;
}

}  // namespace

std::string CoordText(Coord c) {
  return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")";
}

std::string CoordsText(const std::vector<Coord>& cs) {
  std::string out;
  for (size_t i = 0; i < cs.size(); ++i) out += (i ? ", " : "") + CoordText(cs[i]);
  return out;
}

std::string RoleName(FeatureKind on) {
  switch (on) {
    case FeatureKind::kRoad:
      return "thief";
    case FeatureKind::kCity:
      return "knight";
    case FeatureKind::kField:
      return "farmer";
    case FeatureKind::kMonastery:
      return "monk";
  }
  return "";
}

// A meeple is named by its role on its feature ("Anna's thief at (0, 0)"), another figure by
// its kind and role (an expansion's figure in a city: "<kind> knight").
std::string FigureRole(const Position& pos, int kind, FeatureKind on) {
  const std::string& name = pos.cfg().figure_kinds[kind].name;
  const std::string role = RoleName(on);
  return role.empty() ? name : kind == kMeeple ? role : name + " " + role;
}

std::string FigureTextAs(const Position& pos, const FigureSeen& f, std::optional<FeatureKind> on) {
  const std::string name = on ? FigureRole(pos, f.kind, *on) : pos.cfg().figure_kinds[f.kind].name;
  return pos.players[f.owner].name + "'s " + name + " at " + CoordText(f.at);
}

// The role of a figure on the board: the feature kind of the owner's figures of that kind on
// that tile, when they all stand on one kind (else the kind alone).
std::string FigureText(const Position& pos, const FigureSeen& f) {
  std::optional<FeatureKind> on;
  bool one = true;
  for (const Figure& fig : pos.figures) {
    if (fig.owner != f.owner || fig.kind != f.kind ||
        !(pos.board.tile(Board::TileOf(fig.node)).pos == f.at))
      continue;
    const FeatureKind k = pos.board.segment(fig.node).kind;
    if (on && *on != k) one = false;
    on = k;
  }
  return FigureTextAs(pos, f, one ? on : std::nullopt);
}

std::string EndText(const FeatureEnd& e) {
  static constexpr const char* kSide[4] = {"N", "E", "S", "W"};
  if (e.what == "stated edge")  // board_partial: what lies beyond is not stated
    return "the edge of the stated board at " + CoordText(e.at) + " on the " +
           std::string(kSide[e.side & 3]) + " side";
  if (e.what == "open edge")
    return "an open edge on the " + std::string(kSide[e.side & 3]) + " side of " + CoordText(e.at);
  return "the " + e.what + " at " + CoordText(e.at);
}

// BASE-FEATURE-JOIN: a road segment with one side stops on its tile (at the junction, the
// monastery or the city gate drawn there); a side with no neighbour is an open edge, or on a
// partial board the edge of the stated board (a tile the file leaves out may lie beyond it).
std::vector<FeatureEnd> FeatureEnds(const Position& pos, int root) {
  const Board& b = pos.board;
  std::vector<FeatureEnd> out;
  const FeatureInfo& fi = b.Info(root);
  if (fi.kind != FeatureKind::kRoad && fi.kind != FeatureKind::kCity) return out;
  std::vector<int> tiles = fi.tiles;
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  for (int t : tiles) {
    const RotatedTile& rt = b.rotated(t);
    const Coord at = b.tile(t).pos;
    for (size_t s = 0; s < rt.segments.size(); ++s) {
      if (b.Find(Board::Node(t, static_cast<int>(s))) != root) continue;
      const Segment& sg = rt.segments[s];
      if (sg.kind == FeatureKind::kRoad && std::popcount(sg.sides) == 1)
        out.push_back({RoadStopName(rt), at, -1});
      for (int d = 0; d < 4; ++d)
        if ((sg.sides & kSideBit[d]) && !b.At(Neighbour(at, d)))
          out.push_back(
              {pos.board_partial && !pos.KnownEmpty(Neighbour(at, d)) ? "stated edge" : "open edge",
               at, d});
    }
  }
  return out;
}

std::vector<CitySeen> TouchedCities(const Position& pos, int field_root) {
  std::vector<CitySeen> out;
  for (int city : pos.board.TouchedCityRoots(field_root)) {
    CitySeen c;
    std::vector<int> t = pos.board.Info(city).tiles;
    std::sort(t.begin(), t.end());
    t.erase(std::unique(t.begin(), t.end()), t.end());
    for (int i : t) c.tiles.push_back(pos.board.tile(i).pos);
    c.completed = pos.board.IsComplete(city);
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<FigureSeen> FiguresSeen(const Position& pos, const std::vector<int>& figure_ids) {
  std::vector<FigureSeen> out;
  for (int f : figure_ids) {
    const Figure& fig = pos.figures[f];
    out.push_back({fig.owner, fig.kind, pos.board.tile(Board::TileOf(fig.node)).pos, fig.node});
  }
  return out;
}

std::string FeatureText(const Position& pos, int root) {
  const Board& b = pos.board;
  const FeatureKind kind = b.Info(root).kind;
  std::string out = "the " + std::string(FeatureKindName(kind));
  if (kind == FeatureKind::kMonastery)
    return out + " at " + CoordText(b.tile(Board::TileOf(root)).pos);
  // Along the feature (a road from end to end), not in the order the tiles were laid.
  out += " through " + CoordsText(FeatureTilesAlong(pos, root));
  if (kind == FeatureKind::kField) {
    if (auto e = pos.board_partial ? StatedEdge(pos, root) : std::nullopt)
      out += " (it reaches " + EndText(*e) + ")";
    return out;
  }
  std::vector<FeatureEnd> ends = FeatureEnds(pos, root);
  if (ends.empty()) return out + " (closed on every side)";
  std::vector<std::string> texts;
  for (const FeatureEnd& e : ends) texts.push_back(EndText(e));
  return out + " (it ends at " + ListAnd(texts) + ")";
}

// BASE-MEEPLE-FREE, BASE-FEATURE-JOIN: the figures on other features of the same kind that
// share a tile with `root` (a road ending at a junction the free road also touches, a second
// city on one tile, a field on the other side of a road), each with where the two part.
std::string NearbyFiguresText(const Position& pos, int root) {
  const Board& b = pos.board;
  const FeatureKind kind = b.Info(root).kind;
  if (kind == FeatureKind::kMonastery) return "";
  std::vector<int> tiles = b.Info(root).tiles;
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  std::vector<int> seen;
  std::vector<std::string> out;
  for (int t : tiles) {
    const RotatedTile& rt = b.rotated(t);
    const Coord at = b.tile(t).pos;
    for (size_t i = 0; i < rt.segments.size(); ++i) {
      if (rt.segments[i].kind != kind) continue;
      const int other = b.Find(Board::Node(t, static_cast<int>(i)));
      if (other == root || std::find(seen.begin(), seen.end(), other) != seen.end()) continue;
      seen.push_back(other);
      const std::vector<int> figs = pos.FiguresIn(other);
      if (figs.empty()) continue;
      // Fields part at a road or a city drawn across the tile; roads and cities at a junction,
      // a monastery or a city gate (FeatureEnds), else on a tile that holds both.
      std::string where = "which is separate from it on " + CoordText(at);
      if (kind == FeatureKind::kField)
        for (FeatureKind by : {FeatureKind::kRoad, FeatureKind::kCity})
          if (std::any_of(rt.segments.begin(), rt.segments.end(),
                          [&](const Segment& sg) { return sg.kind == by; })) {
            where = "which the " + std::string(FeatureKindName(by)) + " on " + CoordText(at) +
                    " separates from it";
            break;
          }
      for (const FeatureEnd& e : FeatureEnds(pos, other))
        if (e.side < 0 && e.at == at) {
          where = "which ends at " + EndText(e);
          break;
        }
      std::vector<std::string> names;
      for (const FigureSeen& f : FiguresSeen(pos, figs)) names.push_back(FigureText(pos, f));
      out.push_back(ListAnd(names) + (names.size() > 1 ? " are" : " is") + " on another " +
                    std::string(FeatureKindName(kind)) + ", " + where);
    }
  }
  std::string text;
  for (size_t i = 0; i < out.size(); ++i) text += (i ? "; " : "") + out[i];
  return text;
}

// BASE-SCORE-TIMING: the features ScoreStep (core_steps.cc) will score at the end of the turn.
std::vector<int> CompletedNotYetScored(const Position& pos) {
  std::vector<int> out;
  if (pos.turn.game_over || pos.turn.placed < 0) return out;
  const int score_step = pos.cfg().StepIndex(kScoreCompleted);
  if (score_step < 0 || pos.turn.step > score_step) return out;
  const Board& b = pos.board;
  const int placed = pos.turn.placed;
  std::vector<int> roots;
  const RotatedTile& rt = b.rotated(placed);
  for (size_t i = 0; i < rt.segments.size(); ++i) {
    const FeatureKind k = rt.segments[i].kind;
    if (k == FeatureKind::kRoad || k == FeatureKind::kCity)
      roots.push_back(b.Find(Board::Node(placed, static_cast<int>(i))));
  }
  const Coord c = b.tile(placed).pos;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if (auto t = b.At({c.x + dx, c.y + dy}))
        if (const int m = b.MonasterySegment(*t); m >= 0)
          roots.push_back(b.Find(Board::Node(*t, m)));
  for (int r : roots)
    if (b.IsComplete(r) && !pos.FiguresIn(r).empty() &&
        std::find(out.begin(), out.end(), r) == out.end())
      out.push_back(r);
  return out;
}

void AwardPoints(Position& pos, const ScoreEvent& ev, PlayerId player, int points) {
  for (const auto& h : pos.cfg().hooks.intercept_award)
    if (h.fn(pos, ev, player, points)) return;
  pos.players[player].score += points;
}

// BASE-MAJORITY: every winner is paid; what each receives is what the event states (a module
// that splits the value states it per winner in `receives`), so no module's InterceptAward has
// to rewrite the amount and the order of the modules' hooks does not matter.
void Award(Position& pos, const ScoreEvent& ev) {
  for (size_t i = 0; i < ev.winners.size(); ++i)
    AwardPoints(pos, ev, ev.winners[i], ev.Receives(i));
}

void FeatureScored(Position& pos, int root, ApplyResult& out) {
  for (const auto& h : pos.cfg().hooks.on_feature_scored) h.fn(pos, root, out);
}

ScoreEvent FinalValue(const Position& pos, int root) {
  ScoreEvent ev;
  ev.cause = ScoreCause::Final();
  Value(pos, root, /*final=*/true, ev);
  Majority(pos, pos.FiguresIn(root), ev);
  return ev;
}

std::vector<ScoreEvent> FarmFinalValues(const Position& pos, int farm_root) {
  if (pos.cfg().options.farm_scoring != FarmScoring::kC1FourPerCity)
    return {FarmValue(pos, farm_root, pos.FiguresIn(farm_root))};
  std::vector<ScoreEvent> out;
  for (int city : CompletedCities(pos.board, farm_root)) out.push_back(CityFarmValue(pos, city));
  if (!out.empty()) return out;
  ScoreEvent none = FarmValue(pos, farm_root, pos.FiguresIn(farm_root));
  none.rulings = {"BASE-END-FARM-C1-4PT"};
  none.formula = "4 x 0 completed cities";
  return {none};
}

void Majority(const Position& pos, const std::vector<int>& figure_ids, ScoreEvent& ev) {
  MajorityOf(pos, figure_ids, ev, /*rulings=*/true);
}

namespace {

// Majority (BASE-MAJORITY); with `rulings` false (an unobserved event) no ruling is listed.
void MajorityOf(const Position& pos, const std::vector<int>& figure_ids, ScoreEvent& ev,
                bool rulings) {
  ev.strength.assign(pos.players.size(), 0);
  ev.figures.clear();  // FiguresSeen, in the event's own buffer
  for (int f : figure_ids) {
    const Figure& fig = pos.figures[f];
    ev.figures.push_back(
        {fig.owner, fig.kind, pos.board.tile(Board::TileOf(fig.node)).pos, fig.node});
    ev.strength[fig.owner] += pos.cfg().figure_kinds[fig.kind].strength;
  }
  int best = *std::max_element(ev.strength.begin(), ev.strength.end());
  ev.winners.clear();
  if (best > 0) {
    for (size_t p = 0; p < ev.strength.size(); ++p)
      if (ev.strength[p] == best) ev.winners.push_back(static_cast<PlayerId>(p));
    if (rulings) ev.rulings.push_back("BASE-MAJORITY");
  }
  for (const auto& h : pos.cfg().hooks.adjust_majority) h.fn(pos, ev);
}

// BASE-RETURN for figures listed in ascending order (the last first, so indices stay valid).
void ReturnAscending(Position& pos, const std::vector<int>& ascending) {
  for (auto it = ascending.rbegin(); it != ascending.rend(); ++it) {
    const int f = *it;
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

}  // namespace

void ReturnFigures(Position& pos, std::vector<int> figure_ids) {
  std::sort(figure_ids.begin(), figure_ids.end());
  ReturnAscending(pos, figure_ids);
}

void ScoreCompleted(Position& pos, int root, ApplyResult& out) {
  const bool quiet = Unobserved(pos);
  std::vector<int> figs;
  pos.FiguresIn(root, figs);
  if (figs.empty()) {
    // Nobody scores a feature without a figure (BASE-MAJORITY), but it is complete and never
    // scored later: what lasts until the feature is scored ends now (XMAS-Q-ADVANTAGE: an
    // advantage card left alone on it goes to the discard pile).
    FeatureScored(pos, root, out);
    return;
  }
  ScoreEvent ev;
  ev.cause = ScoreCause::Completed();
  Value(pos, root, /*final=*/false, ev, !quiet);
  MajorityOf(pos, figs, ev, !quiet);
  if (!quiet) ev.rulings.push_back("BASE-SCORE-TIMING");
  bool return_figures = true;
  std::vector<ScoreEvent> extra;
  for (const auto& h : pos.cfg().hooks.on_completed) h.fn(pos, ev, return_figures, extra);
  Award(pos, ev);
  // The lean path (Position::explain false) awards the same points but keeps no events or notes.
  if (pos.explain) out.scores.push_back(ev);
  for (ScoreEvent& x : extra) {
    Award(pos, x);
    if (pos.explain) out.scores.push_back(std::move(x));
  }
  FeatureScored(pos, root, out);  // valued and paid (or, laid down, fixed for the game end)
  if (!return_figures) return;
  ReturnAscending(pos, figs);  // FiguresIn lists them in figure order
  if (pos.explain)
    out.notes.push_back({"BASE-RETURN", "the figures on the completed " +
                                            std::string(FeatureKindName(ev.kind)) +
                                            " return to their owners"});
}

std::vector<MajorityAdjustment> MajorityAdjustmentsOn(const Position& pos, int root) {
  std::vector<MajorityAdjustment> out;
  for (const auto& h : pos.cfg().hooks.majority_adjustments) h.fn(pos, root, out);
  return out;
}

void CoreFinalScoring(Position& pos, std::vector<ScoreEvent>& out);

void FinalScoring(Position& pos, std::vector<ScoreEvent>& out) {
  for (const auto& h : pos.cfg().hooks.before_final_scoring) h.fn(pos, out);
  CoreFinalScoring(pos, out);
  for (const auto& h : pos.cfg().hooks.after_final_scoring) h.fn(pos, out);
}

namespace {

// What winner p of the split farm event `ev` receives of `points` (XMAS-Q-SHARE split-value,
// BASE-END-FARM-C1-ONCE): the modules' majority hooks state the split of that value, asked
// again with it, so the core rounds nothing of its own.
int SplitShare(const Position& pos, const std::vector<int>& figs, const ScoreEvent& ev, PlayerId p,
               int points) {
  ScoreEvent again;
  again.cause = ev.cause;
  again.kind = ev.kind;
  again.root = ev.root;
  again.points = points;
  MajorityOf(pos, figs, again, /*rulings=*/false);
  return again.ReceivesOf(p);  // the same figures give the same winners: p is one
}

}  // namespace

void CoreFinalScoring(Position& pos, std::vector<ScoreEvent>& out) {
  const Board& b = pos.board;
  const bool quiet = Unobserved(pos);  // then no event is kept: nobody reads them
  struct Buffers {
    std::vector<std::pair<int, int>> by_root;  // (feature root, figure), sorted
    std::vector<std::pair<int, int>> farms;    // [begin, end) of a field's entries in by_root
    std::vector<int> figs;
    ScoreEvent ev;
  } buf;
  // Group figures by feature root (root order), each group in figure order (deterministic).
  auto& by_root = buf.by_root;
  by_root.clear();
  for (size_t f = 0; f < pos.figures.size(); ++f)
    by_root.push_back({b.Find(pos.figures[f].node), static_cast<int>(f)});
  std::sort(by_root.begin(), by_root.end());
  auto group = [&](size_t lo, size_t hi) -> const std::vector<int>& {
    buf.figs.clear();
    for (size_t i = lo; i < hi; ++i) buf.figs.push_back(by_root[i].second);
    return buf.figs;
  };
  const FarmScoring farm = pos.cfg().options.farm_scoring;
  buf.farms.clear();
  for (size_t lo = 0, hi = 0; lo < by_root.size(); lo = hi) {
    const int root = by_root[lo].first;
    hi = lo + 1;
    while (hi < by_root.size() && by_root[hi].first == root) ++hi;
    if (b.Info(root).kind == FeatureKind::kField) {
      buf.farms.push_back({static_cast<int>(lo), static_cast<int>(hi)});
      continue;
    }
    ScoreEvent& ev = buf.ev;
    Recycle(ev);
    ev.cause = ScoreCause::Final();
    Value(pos, root, /*final=*/true, ev, !quiet);
    MajorityOf(pos, group(lo, hi), ev, !quiet);
    Award(pos, ev);
    if (!quiet) out.push_back(std::move(ev));  // not read again: Recycle resets it
  }
  if (farm == FarmScoring::kC1FourPerCity) {
    // Each completed city pays 4 to the majority of farmers over all farms touching it.
    std::set<int> cities;
    for (auto [lo, hi] : buf.farms)
      for (int city : CompletedCities(b, by_root[lo].first)) cities.insert(city);
    for (int city : cities) {
      ScoreEvent ev = CityFarmValue(pos, city);
      Award(pos, ev);
      if (!quiet) out.push_back(ev);
    }
    return;
  }
  // kC1ThreePerCityOnce: the farms' events, paid below once every farm is valued.
  std::vector<std::pair<std::pair<int, int>, ScoreEvent>> once;
  for (auto [lo, hi] : buf.farms) {
    const int root = by_root[lo].first;
    ScoreEvent& ev = buf.ev;
    Recycle(ev);
    FarmValueInto(pos, root, group(lo, hi), quiet, ev);
    if (farm == FarmScoring::kPerFarm) {
      Award(pos, ev);
      if (!quiet) out.push_back(std::move(ev));  // not read again: Recycle resets it
      continue;
    }
    once.push_back({{lo, hi}, ev});
  }
  // BASE-END-FARM-C1-ONCE: a player is paid for a completed city once, whichever of the farms
  // they win touch it. XMAS-Q-SHARE split-value: a winner who receives a share of a farm (the
  // event states `receives`) is paid after every whole payment, so a city paid to them in full
  // through one farm is not paid again as a share, whatever the order of the farms; and the
  // share is the split of the winner's own value (3 per city not yet paid to them), stated by
  // the modules for that value: one rounding, as for any split value (XMAS-Q-SHARE).
  std::map<PlayerId, std::set<int>> paid;
  for (const bool shares : {false, true})
    for (auto& [range, ev] : once) {
      const bool split = ev.StatesShares();
      if (split != shares) continue;
      const std::vector<int> cities = CompletedCities(b, ev.root);
      // The card note or split the modules added to the farm's formula, kept per winner.
      const std::string whole = "3 x " + Plural(ev.cities, "completed city");
      const std::string note =
          ev.formula.rfind(whole, 0) == 0 ? ev.formula.substr(whole.size()) : std::string();
      for (const PlayerId p : ev.winners) {
        ScoreEvent one = ev;
        one.winners = {p};
        int fresh_cities = 0;
        for (int c : cities)
          if (paid[p].insert(c).second) ++fresh_cities;
        one.points = 3 * fresh_cities;
        one.receives.clear();
        if (split)
          one.receives = {SplitShare(pos, group(range.first, range.second), ev, p, one.points)};
        if (!quiet)
          one.formula = "3 x " + Plural(fresh_cities, "completed city") +
                        " not yet paid to this player" + note;
        Award(pos, one);
        if (!quiet) out.push_back(one);
      }
      if (ev.winners.empty()) {  // listed, nothing paid
        ev.points = 0;
        ev.formula.clear();
        if (!quiet) out.push_back(ev);
      }
    }
}

}  // namespace carc::model

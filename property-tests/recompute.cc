#include "property-tests/recompute.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "model/core/json_reader.h"
#include "model/core/module_loader.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/core/step.h"
#include "property-tests/features_flat.h"
#include "property-tests/gen_game.h"
#include "property-tests/module_props.h"

namespace carc::prop {

using model::Board;
using model::Coord;
using model::FeatureKind;
using model::Position;
using nlohmann::json;

namespace {

// The features (board roots) whose final scoring an enabled module changes (its row's
// oracle_leaves_out, module_props.h): the oracle leaves them out; every other feature is
// compared exactly.
std::set<int> ModuleFeatures(const Position& pos) {
  std::set<int> out;
  for (const model::Expansion* e : pos.cfg().expansions)
    if (const ModuleProps* m = PropsOf(e); m && m->oracle_leaves_out)
      m->oracle_leaves_out(pos, out);
  return out;
}

// The model's final scoring of a copy of the position, made once for the two comparisons that
// read it (each made its own).
class FinalOfPos {
 public:
  explicit FinalOfPos(const Position& pos) : pos_(pos) {}
  const std::vector<model::ScoreEvent>& events() { return Get().second; }
  const Position& scored() { return Get().first; }

 private:
  std::pair<Position, std::vector<model::ScoreEvent>>& Get() {
    if (!done_) {
      done_ = true;
      result_.first = pos_;
      result_.second = model::ScoreFinal(result_.first);
    }
    return result_;
  }
  const Position& pos_;
  bool done_ = false;
  std::pair<Position, std::vector<model::ScoreEvent>> result_;
};

// The final-scoring oracle (BASE-END-ROAD/-CITY/-MONASTERY/-FARM, BASE-MAJORITY) on the flood
// fill `flood` of pos.board.
std::optional<std::string> CompareFinalScoringOn(const Position& pos, const Segs& sg,
                                                 const Flat& flood, FinalOfPos& final) {
  const auto& o = pos.cfg().options;
  if (o.city_scoring != model::CityScoring::kStandard ||
      o.farm_scoring != model::FarmScoring::kPerFarm)
    return std::nullopt;
  const Board& b = pos.board;
  std::map<int, std::vector<int>> strength;  // feature -> per player
  for (const model::Figure& f : pos.figures) {
    auto& s = strength[flood.label[sg.OfNode(f.node)]];
    s.resize(pos.players.size(), 0);
    s[f.owner] += pos.cfg().figure_kinds[f.kind].strength;
  }
  const std::set<int> excluded = ModuleFeatures(pos);
  std::vector<int> want(pos.players.size(), 0);
  for (const auto& [key, s] : strength) {
    if (excluded.count(b.Find(Board::Node(sg.tile(key), sg.seg(key))))) continue;
    int best = *std::max_element(s.begin(), s.end());
    if (best <= 0) continue;
    int points = 0;
    switch (flood.kind[key]) {
      case FeatureKind::kRoad:
        points = flood.tiles[key];
        break;
      case FeatureKind::kCity:
        points = flood.tiles[key] + flood.shields[key];
        break;
      case FeatureKind::kMonastery: {
        const Coord c = b.tile(sg.tile(key)).pos;
        int n = 0;
        for (int dx = -1; dx <= 1; ++dx)
          for (int dy = -1; dy <= 1; ++dy)
            n += (dx || dy) && b.At({c.x + dx, c.y + dy}).has_value();
        points = 1 + n;
        break;
      }
      case FeatureKind::kField:
        for (int c : flood.cities[key]) points += flood.complete[c] ? 3 : 0;
        break;
    }
    for (size_t p = 0; p < s.size(); ++p)
      if (s[p] == best) want[p] += points;
  }
  std::vector<int> got(pos.players.size(), 0);
  for (const model::ScoreEvent& ev : final.events()) {
    if (!ev.cause.IsFinal() || excluded.count(ev.root) ||
        std::count(ev.rulings.begin(), ev.rulings.end(), "GIFT-END"))
      continue;  // an expansion's own points, or a feature a card acts on (above)
    for (int w : ev.winners) got[w] += ev.points;
  }
  for (size_t p = 0; p < pos.players.size(); ++p) {
    if (got[p] != want[p])
      return "final scoring gives player " + std::to_string(p) + " " + std::to_string(got[p]) +
             " points, the rules (recomputed) " + std::to_string(want[p]);
  }
  return std::nullopt;
}

// BASE-MEEPLE-FREE on the flood fill: the figures listed at a figure step.
std::optional<std::string> CompareFigurePlacementsOn(const Position& pos, const Segs& sg,
                                                     const Flat& flood) {
  if (pos.turn.game_over || pos.turn.placed < 0) return std::nullopt;
  const Board& b = pos.board;
  std::vector<char> occupied(flood.label.size(), 0);  // by feature
  for (const model::Figure& f : pos.figures) occupied[flood.label[sg.OfNode(f.node)]] = 1;
  const Coord at = b.tile(pos.turn.placed).pos;
  const int nseg = static_cast<int>(b.rotated(pos.turn.placed).segments.size());
  auto free = [&](int s) { return !occupied[flood.label[sg.Of(pos.turn.placed, s)]]; };
  std::vector<char> listed_meeple(nseg, 0);
  for (const model::Action& a : model::LegalActions(pos)) {
    if (a.type != model::ActionType::kPlaceFigure) continue;
    if (a.pos != at) return std::string("a figure is listed on a tile other than the one placed");
    if (a.segment < 0 || a.segment >= nseg)
      return "a figure is listed on segment " + std::to_string(a.segment) +
             ", which the placed tile does not have";
    if (!free(a.segment))
      return "a figure is listed on segment " + std::to_string(a.segment) +
             " of the placed tile, whose feature already holds a figure";
    if (a.figure_kind == model::kMeeple) listed_meeple[a.segment] = 1;
  }
  if (pos.current_step().Name() != model::kPlaceFigure ||
      pos.players[pos.turn.player].supply[model::kMeeple] <= 0)
    return std::nullopt;
  for (int s = 0; s < nseg; ++s)
    if (free(s) && !listed_meeple[s])
      return "segment " + std::to_string(s) +
             " of the placed tile is free but no meeple is listed on it";
  return std::nullopt;
}

// Tile indices breadth first from `root`, neighbours in W S E N order (unlike the play order
// and unlike Frontier()); a detached tile (never in a legal position) goes last. `beside`:
// Beside(b, sg), the flood fill's table of neighbours (each looked up again here).
std::vector<int> BreadthFirst(const Board& b, const std::vector<int>& beside, int root) {
  std::vector<int> order = {root};
  order.reserve(b.size());
  std::vector<char> seen(b.size(), 0);
  seen[root] = 1;
  for (size_t h = 0; h < order.size(); ++h) {
    for (int side = 3; side >= 0; --side) {
      const int n = beside[order[h] * 4 + side];
      if (n >= 0 && !seen[n]) {
        seen[n] = 1;
        order.push_back(n);
      }
    }
  }
  for (int t = 0; t < b.size(); ++t)
    if (!seen[t]) order.push_back(t);
  return order;
}

// The figures by feature: (feature, owner, kind, segment) sorted, segments by SegId.
std::vector<std::tuple<SegId, int, int, SegId>> FigurePartition(const Position& pos, const Segs& sg,
                                                                const Flat& f) {
  std::vector<std::tuple<SegId, int, int, SegId>> out;
  for (const model::Figure& fig : pos.figures) {
    const int i = sg.OfNode(fig.node);
    out.emplace_back(sg.Id(f.label[i]), fig.owner, fig.kind, sg.Id(i));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The model's features of the position file with its board listed breadth first from `root`
// (the expansions' sections name squares, so their references follow the tiles) equal
// `played`, and so do the figure-holding features and the final scores. `file`: DumpPosition
// (pos), whose board is reordered for the parse and then restored.
std::optional<std::string> CompareRebuiltOn(const Position& pos, int root, const Segs& sg,
                                            const std::vector<int>& beside, const Flat& played,
                                            FinalOfPos& final, json& file) {
  const std::vector<int> order = BreadthFirst(pos.board, beside, root);
  // DumpPosition writes the board in tile order: entry u is tile u.
  json board = std::move(file["board"]), listed = json::array();
  for (int u : order) listed.push_back(std::move(board[u]));
  file["board"] = std::move(listed);
  auto parsed = ParseJson(file, "rebuilt.json");
  json& back = file["board"];
  for (size_t k = 0; k < order.size(); ++k) board[order[k]] = std::move(back[k]);
  file["board"] = std::move(board);
  if (!parsed.ok())
    return "the position file with its board in the rebuilt order does not parse: " +
           parsed.status().message();
  Position c = std::move(*parsed);
  // The reader places the tiles in file order, so c's board is the rebuilt one; were it not,
  // the board rebuilt directly is compared instead.
  bool in_order = c.board.size() == pos.board.size();
  for (int k = 0; in_order && k < c.board.size(); ++k) {
    const model::PlacedTile &x = c.board.tile(k), &y = pos.board.tile(order[k]);
    in_order = x.pos == y.pos && x.type == y.type && x.rotation == y.rotation;
  }
  std::optional<Position> re;
  if (!in_order) re = RebuildBoard(pos, root);
  const Position& rp = in_order ? c : *re;
  const Segs sr(rp.board);
  if (auto bad = sr.FigureOffTile(rp)) return "rebuilt: " + *bad;
  const Flat rebuilt = ModelFlat(rp.board, sr);
  if (!sg.SameNumbering(sr) || !(played == rebuilt))
    if (auto d = Diff(ToMap(played, sg), ToMap(rebuilt, sr), "played order", "rebuilt order"))
      return d;
  if (FigurePartition(pos, sg, played) != FigurePartition(rp, sr, rebuilt))
    return std::string("figure-holding features differ between play order and rebuilt order");
  const Position& a = final.scored();
  model::ScoreFinal(c);
  if (c.players.size() != a.players.size()) return std::string("the players differ rebuilt");
  for (size_t p = 0; p < a.players.size(); ++p)
    if (a.players[p].score != c.players[p].score)
      return "final score of player " + std::to_string(p) + ": " +
             std::to_string(a.players[p].score) + " in play order, " +
             std::to_string(c.players[p].score) + " rebuilt";
  return std::nullopt;
}

}  // namespace

Position RebuildBoard(const Position& pos, int root) {
  const Board& b = pos.board;
  Position out = pos;
  out.board = Board(&b.catalog());
  if (b.size() == 0) return out;
  std::vector<int> new_index(b.size(), -1);
  const Segs sg(b);
  for (int t : BreadthFirst(b, Beside(b, sg), root))
    new_index[t] = out.board.Place(b.tile(t).type, b.tile(t).pos, b.tile(t).rotation);
  for (model::Figure& f : out.figures)
    f.node = Board::Node(new_index[Board::TileOf(f.node)], Board::SegmentOf(f.node));
  if (out.turn.placed >= 0) out.turn.placed = new_index[out.turn.placed];
  return out;
}

std::optional<FeatureDifference> CompareAllFeatures(const Position& pos, int root, json* file) {
  const Segs sg(pos.board);
  if (auto bad = sg.FigureOffTile(pos))
    return FeatureDifference{FeatureDifference::kFeatures, *bad};
  const Flat played = ModelFlat(pos.board, sg);
  std::string flood_error;
  const std::vector<int> beside = Beside(pos.board, sg);  // for the flood fill and the rebuild
  const Flat flood = FloodFlat(pos.board, sg, beside, flood_error);
  if (!flood_error.empty()) return FeatureDifference{FeatureDifference::kFeatures, flood_error};
  if (!(played == flood))
    if (auto d = Diff(ToMap(played, sg), ToMap(flood, sg), "incremental", "flood fill"))
      return FeatureDifference{FeatureDifference::kFeatures, *d};
  FinalOfPos final(pos);
  if (auto d = CompareFinalScoringOn(pos, sg, flood, final))
    return FeatureDifference{FeatureDifference::kFinalScoring, *d};
  if (auto d = CompareFigurePlacementsOn(pos, sg, flood))
    return FeatureDifference{FeatureDifference::kFigurePlacements, *d};
  if (pos.board.size() == 0) return std::nullopt;
  json own;
  if (!file) {
    own = model::DumpPosition(pos);
    file = &own;
  }
  if (auto d =
          CompareRebuiltOn(pos, ((root % pos.board.size()) + pos.board.size()) % pos.board.size(),
                           sg, beside, played, final, *file))
    return FeatureDifference{FeatureDifference::kRebuilt, *d};
  return std::nullopt;
}

}  // namespace carc::prop

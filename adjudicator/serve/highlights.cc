#include "adjudicator/serve/highlights.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::serve {

using model::Position;
using nlohmann::json;

namespace {

enum class Mark { kScored, kDisputed };

struct Found {
  std::optional<model::Coord> square;
  bool square_illegal = false;
  std::map<int, Mark> features;            // feature root -> mark
  std::map<int, std::vector<int>> labels;  // feature root -> score event numbers
  std::vector<int> crossed;                // feature roots
};

json NodeJson(const Position& pos, int node) {
  const model::Board& b = pos.board;
  const int tile = model::Board::TileOf(node), seg = model::Board::SegmentOf(node);
  const model::Coord c = b.tile(tile).pos;
  return {{"x", c.x},
          {"y", c.y},
          {"segment", seg},
          {"feature", model::FeatureName(b.rotated(tile), seg)}};
}

// Every segment of the feature `root`, tile by tile.
json Segments(const Position& pos, int root) {
  const model::Board& b = pos.board;
  json out = json::array();
  for (int i = 0; i < b.size(); ++i)
    for (size_t seg = 0; seg < b.rotated(i).segments.size(); ++seg) {
      const int node = model::Board::Node(i, static_cast<int>(seg));
      if (b.Find(node) == root) out.push_back(NodeJson(pos, node));
    }
  return out;
}

// The score events' features, numbered as RenderRuling's caption numbers them; a farm's
// completed cities are marked, its incomplete ones crossed out (BASE-END-FARM).
void MarkScored(const Position& pos, const std::vector<model::ScoreEvent>& events, Found& f) {
  const model::Board& b = pos.board;
  for (size_t i = 0; i < events.size(); ++i) {
    const model::ScoreEvent& e = events[i];
    if (e.root < 0) continue;
    const int root = b.Find(e.root);
    f.features.emplace(root, Mark::kScored);
    f.labels[root].push_back(static_cast<int>(i) + 1);
    if (b.Info(root).kind == model::FeatureKind::kField)
      for (int city : b.TouchedCityRoots(root)) {
        if (b.IsComplete(city))
          f.features.emplace(city, Mark::kScored);
        else if (std::find(f.crossed.begin(), f.crossed.end(), city) == f.crossed.end())
          f.crossed.push_back(city);
      }
  }
}

// The question replayed as RenderRuling replays it: up to the first illegal action, and for a
// legal one the automatic end of the turn, collecting the score events.
void Replay(Position& pos, const json& doc, const std::string& ask, const std::string& source,
            Found& f) {
  std::vector<model::ScoreEvent> events;
  auto keep = [&](const model::ApplyResult& r) {
    events.insert(events.end(), r.scores.begin(), r.scores.end());
  };
  const auto ctx = exp::Context(source);
  if (ask == "final_score" && !pos.turn.game_over) {
    Position copy = pos;
    events = model::ScoreFinal(copy);
  } else if (ask == "apply" && doc.contains("question") && doc["question"].is_object() &&
             doc["question"].value("actions", json()).is_array()) {
    const json& actions = doc["question"]["actions"];
    model::ApplyResult pre;
    model::Advance(pos, pre);
    keep(pre);
    bool legal = true;
    for (size_t i = 0; i < actions.size() && legal; ++i) {
      const std::string where = "/question/actions/" + std::to_string(i);
      auto a = model::ParseAction(actions[i], pos, where, ctx);
      if (a.ok() && i > 0 && !model::JudgeAfterDecision(pos, *a)) {
        model::ApplyResult between;
        model::Advance(pos, between);
        keep(between);
        a = model::ParseAction(actions[i], pos, where, ctx);
      }
      if (!a.ok()) break;
      if (a->type == model::ActionType::kPlaceTile) f.square = a->pos;
      model::ApplyResult ar = model::Apply(pos, *a, /*finish_turn=*/false);
      if (!ar.input_error.empty()) break;
      keep(ar);
      legal = ar.verdict.legal;
      if (legal) continue;
      f.square_illegal = a->type == model::ActionType::kPlaceTile;
      if (a->type == model::ActionType::kPlaceFigure) {
        std::optional<int> tile =
            a->has_pos ? pos.board.At(a->pos) : std::optional<int>(pos.turn.placed);
        if (tile && *tile >= 0 && a->segment >= 0 &&
            a->segment < static_cast<int>(pos.board.rotated(*tile).segments.size()))
          f.features[pos.board.Find(model::Board::Node(*tile, a->segment))] = Mark::kDisputed;
      } else if (a->type == model::ActionType::kExpansion) {
        const json j = model::DumpAction(pos, *a);
        if (j.contains("x") && j.contains("y") && j.contains("feature")) {
          const json ref = {{"x", j["x"]}, {"y", j["y"]}, {"feature", j["feature"]}};
          auto node = model::ParseFeatureRef(ref, pos, where, ctx);
          if (node.ok()) f.features[pos.board.Find(*node)] = Mark::kDisputed;
        }
      }
    }
    if (legal) {
      Position copy = pos;
      model::ApplyResult end;
      model::Advance(copy, end);
      keep(end);
    }
  }
  MarkScored(pos, events, f);
}

model::StatusOr<Position> Parse(const json& doc, const std::string& source) {
  try {
    return model::ParsePosition(doc, exp::Context(source));
  } catch (const json::exception& e) {
    return model::Status(model::ErrorCode::kMalformed, source + ":/: " + e.what());
  }
}

}  // namespace

model::StatusOr<json> RulingHighlights(const json& doc, const json& ruling,
                                       const std::string& source) {
  auto parsed = Parse(doc, source);
  if (!parsed.ok()) return parsed.status();
  Position& pos = *parsed;
  Found f;
  if (pos.turn.placed >= 0) f.square = pos.board.tile(pos.turn.placed).pos;
  if (model::Validate(pos).empty()) Replay(pos, doc, ruling.value("question", ""), source, f);

  json out = {{"square", nullptr}, {"features", json::array()}, {"crossed", json::array()}};
  if (f.square)
    out["square"] = {{"x", f.square->x}, {"y", f.square->y}, {"illegal", f.square_illegal}};
  for (const auto& [root, mark] : f.features) {
    json figures = json::array();
    for (const model::Figure& fig : pos.figures) {
      if (pos.board.Find(fig.node) != root) continue;
      json j = NodeJson(pos, fig.node);
      j.erase("segment");
      j["owner"] = fig.owner;
      j["owner_name"] =
          fig.owner < static_cast<int>(pos.players.size()) ? pos.players[fig.owner].name : "?";
      j["kind"] = pos.cfg().figure_kinds[fig.kind].name;
      figures.push_back(j);
    }
    auto labels = f.labels.find(root);
    out["features"].push_back(
        {{"mark", mark == Mark::kScored ? "scored" : "disputed"},
         {"kind", model::FeatureKindName(pos.board.Info(root).kind)},
         {"labels", labels == f.labels.end() ? std::vector<int>{} : labels->second},
         {"segments", Segments(pos, root)},
         {"figures", figures}});
  }
  for (int root : f.crossed) out["crossed"].push_back({{"segments", Segments(pos, root)}});
  return out;
}

}  // namespace carc::serve

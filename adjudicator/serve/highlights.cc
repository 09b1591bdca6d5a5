#include "adjudicator/serve/highlights.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "model/render/svg.h"

namespace carc::serve {

using model::Position;
using nlohmann::json;

namespace {

using render::Mark;

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
  // The same marks as the picture (render::MarkQuestion), with the labels per feature.
  render::Picture f;
  if (pos.turn.placed >= 0) f.square = pos.board.tile(pos.turn.placed).pos;
  if (model::Validate(pos).empty())
    render::MarkQuestion(pos, doc, ruling.value("question", ""), source, f);
  std::map<int, std::vector<int>> labels;  // feature root -> score event numbers
  for (const auto& [number, node] : f.labels) labels[pos.board.Find(node)].push_back(number);

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
    auto numbers = labels.find(root);
    out["features"].push_back(
        {{"mark", mark == Mark::kScored ? "scored" : "disputed"},
         {"kind", model::FeatureKindName(pos.board.Info(root).kind)},
         {"labels", numbers == labels.end() ? std::vector<int>{} : numbers->second},
         {"segments", Segments(pos, root)},
         {"figures", figures}});
  }
  for (int root : f.crossed) out["crossed"].push_back({{"segments", Segments(pos, root)}});
  return out;
}

}  // namespace carc::serve

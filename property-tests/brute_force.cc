#include "property-tests/brute_force.h"

#include <algorithm>
#include <functional>

#include "model/core/board.h"
#include "model/core/expansion.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"

namespace carc::prop {

using model::Action;
using model::Board;
using model::Position;
using nlohmann::json;

std::vector<model::TileType> CandidateTiles(const Position& pos) {
  std::vector<model::TileType> out, held;
  if (pos.turn.drawn) out.push_back(*pos.turn.drawn);
  for (const model::Expansion* e : pos.cfg().Using(model::Hook::kHeldTiles))
    e->HeldTiles(pos, held);
  for (model::TileType t : held)
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  return out;
}

// Every action each enabled module declared (GameConfig::actions), over its arguments' typed
// domains (model::EnumerateDeclared), written out by the module's own dump.
std::vector<json> ExpansionCandidates(const Position& pos) {
  std::vector<json> out;
  for (const auto& [module, decl] : pos.cfg().actions)
    model::EnumerateDeclared(pos, module, decl,
                             [&](const Action& a) { out.push_back(model::DumpAction(pos, a)); });
  return out;
}

namespace {

// Every {"x", "y", "feature"} below j names its feature's least segment.
void CanonicalRefs(const Position& pos, json& j) {
  if (j.is_array())
    for (json& e : j) CanonicalRefs(pos, e);
  if (!j.is_object()) return;
  if (j.contains("x") && j.contains("y") && j.contains("feature")) {
    json ref = {{"x", j["x"]}, {"y", j["y"]}, {"feature", j["feature"]}};
    auto node = model::ParseFeatureRef(ref, pos, "", model::IoContext{.source = ""});
    if (node.ok()) {
      const int root = pos.board.Find(*node);
      int least = *node;
      for (int t = 0; t < pos.board.size(); ++t)
        for (int s = 0; s < static_cast<int>(pos.board.rotated(t).segments.size()); ++s)
          if (Board::Node(t, s) < least && pos.board.Find(Board::Node(t, s)) == root)
            least = Board::Node(t, s);
      j.update(model::FeatureRefJson(pos, least));
    }
  }
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it->is_structured()) CanonicalRefs(pos, *it);
}

}  // namespace

std::string EffectKeyOf(const Position& after, const Action& a) {
  json d = model::DumpPosition(after);
  if (d.contains("expansions")) CanonicalRefs(after, d["expansions"]);
  return std::string(a.expansion ? a.expansion->Id() : "?") + " effect " +
         std::to_string(std::hash<std::string>{}(d.dump()));
}

std::string EffectKey(const Position& pos, const Action& a) {
  if (a.type != model::ActionType::kExpansion) return "";
  Position p = pos;
  model::Apply(p, a, /*finish_turn=*/false);
  return EffectKeyOf(p, a);
}

}  // namespace carc::prop

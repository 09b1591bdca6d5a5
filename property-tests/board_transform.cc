#include "property-tests/board_transform.h"

#include <algorithm>
#include <cstdint>
#include <tuple>

#include "model/core/expansion.h"
#include "model/core/module_loader.h"
#include "model/core/position_io.h"
#include "model/expansions/registry.h"

namespace carc::prop {

using model::Action;
using model::ActionType;
using model::Coord;
using nlohmann::json;

Coord BoardTransform::Apply(Coord c) const {
  // y grows south, so a clockwise quarter turn maps north (0, -1) to east (1, 0).
  for (int i = 0; i < ((quarter_turns % 4) + 4) % 4; ++i) c = {-c.y, c.x};
  return {c.x + dx, c.y + dy};
}

std::string RotateFeatureName(const std::string& name, int quarter_turns) {
  const std::string sides = "NESW";
  auto colon = name.find(':');
  if (colon == std::string::npos) return name;
  std::string out = name.substr(0, colon + 1);
  const int q = ((quarter_turns % 4) + 4) % 4;
  for (size_t i = colon + 1; i < name.size(); ++i) {
    char c = name[i];
    auto s = sides.find(c);
    // In "NL.NR" only the side letter turns; L/R stay (halves are named clockwise per edge).
    bool side_letter = s != std::string::npos &&
                       (i == colon + 1 || name[i - 1] == '.' || name.substr(0, colon) != "field");
    out += side_letter ? sides[(s + q) % 4] : c;
  }
  return out;
}

namespace {

// Every object with integer "x" and "y" below `j` moved, every "feature" name turned: the
// expansions' sections and actions name squares and features as the core does.
void TransformRefs(json& j, const BoardTransform& t) {
  if (j.is_array())
    for (json& e : j) TransformRefs(e, t);
  if (!j.is_object()) return;
  if (j.contains("x") && j.contains("y") && j["x"].is_number_integer() &&
      j["y"].is_number_integer()) {
    Coord c = t.Apply({j["x"].get<int>(), j["y"].get<int>()});
    j["x"] = c.x;
    j["y"] = c.y;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key() == "feature" && it->is_string())
      *it = RotateFeatureName(it->get<std::string>(), t.quarter_turns);
    else if (it->is_structured())
      TransformRefs(*it, t);
  }
}

}  // namespace

json TransformPosition(const json& pos, const BoardTransform& t) {
  json out = pos;
  if (out.contains("expansions")) TransformRefs(out["expansions"], t);
  auto move = [&](json& obj) {
    Coord c = t.Apply({obj["x"].get<int>(), obj["y"].get<int>()});
    obj["x"] = c.x;
    obj["y"] = c.y;
  };
  for (json& b : out["board"]) {
    move(b);
    b["rotation"] = (b.value("rotation", 0) + 90 * t.quarter_turns) % 360;
  }
  if (out.contains("figures"))
    for (json& f : out["figures"]) {
      move(f);
      f["feature"] = RotateFeatureName(f["feature"].get<std::string>(), t.quarter_turns);
    }
  if (out.contains("turn") && out["turn"].contains("placed")) move(out["turn"]["placed"]);
  return out;
}

Action TransformAction(const Action& a, const BoardTransform& t) {
  Action b = a;
  if (a.type == ActionType::kPlaceTile) {
    b.pos = t.Apply(a.pos);
    b.rotation = (a.rotation + t.quarter_turns) % 4;
  } else if (a.type == ActionType::kPlaceFigure && a.has_pos) {
    b.pos = t.Apply(a.pos);  // segment indices follow the tile, not the board
  }
  return b;
}

Action TransformAction(const model::Position& from, const Action& a, const model::Position& to,
                       const BoardTransform& t) {
  if (a.type != ActionType::kExpansion) return TransformAction(a, t);
  // A declared action by its arguments' types (ArgType): a square moves with the board; a
  // feature or a figure's node is a tile's index and that tile's own segment index, which the
  // transform leaves as they are (TransformPosition keeps the tiles in their order and turns
  // each with its segments, as for a figure placement); the other types (a count, a name, a
  // player, a figure kind, a tile type) name nothing on the board. An optional square could
  // not tell x = -1 from absent: such an action, or one the module reads and writes itself,
  // goes through its position-file form. (writing every listed action out and reading
  // it back was two thirds of the transform check.)
  const model::ActionDecl* d = model::DeclarationOf(from, a);
  bool typed = d != nullptr;
  for (size_t i = 0; typed && i < d->args.size(); ++i)
    typed = !(d->args[i].type == model::ArgType::kSquare && d->args[i].optional);
  if (typed) {
    Action b = a;
    for (int i = 0; i < static_cast<int>(d->args.size()); ++i) {
      if (d->args[i].type != model::ArgType::kSquare || !model::ArgGiven(*d, a, i)) continue;
      const int slot = model::SlotOf(*d, i);
      const Coord c = t.Apply({a.args[slot], a.args[slot + 1]});
      b.args.Set(slot, c.x);
      b.args.Set(slot + 1, c.y);
    }
    return b;
  }
  json j = model::DumpAction(from, a);
  TransformRefs(j, t);
  auto b = model::ParseAction(j, to, "/action", exp::Context("transformed.json"));
  return b.ok() ? *b : a;
}

std::string Picture(const model::RotatedTile& rt) {
  std::vector<std::string> parts;
  for (const model::Segment& s : rt.segments)
    parts.push_back(std::to_string(static_cast<int>(s.kind)) + "/" + std::to_string(s.sides) + "/" +
                    std::to_string(s.halves) + (s.shield ? "*" : ""));
  std::sort(parts.begin(), parts.end());
  std::string out;
  for (const auto& p : parts) out += p + ";";
  return out;
}

std::string ActionKey(const model::Position& pos, const Action& a) {
  const auto& cat = *pos.cfg().catalog;
  auto at = [](Coord c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; };
  switch (a.type) {
    case ActionType::kPass:
      return "pass";
    case ActionType::kDraw:
      return "draw " + cat.Name(a.tile);
    case ActionType::kPlaceTile: {
      model::TileType t = a.tile >= 0 ? a.tile : (pos.turn.drawn ? *pos.turn.drawn : 0);
      return "tile " + cat.Name(t) + at(a.pos) + " " + Picture(cat.rotated(t, a.rotation & 3));
    }
    case ActionType::kPlaceFigure:
      return "figure " + std::to_string(a.figure_kind) + " " +
             (a.has_pos ? at(a.pos) : std::string("here")) + " seg " + std::to_string(a.segment);
    case ActionType::kExpansion: {
      std::string s = "expansion " + std::string(a.expansion ? a.expansion->Id() : "?") + " " +
                      std::to_string(a.code) + " " + at(a.pos);
      for (int x : a.args) s += " " + std::to_string(x);
      return s;
    }
  }
  return "?";
}

std::vector<std::string> ActionKeys(const model::Position& pos, const std::vector<Action>& as) {
  std::vector<std::string> out;
  for (const Action& a : as) out.push_back(ActionKey(pos, a));
  std::sort(out.begin(), out.end());
  return out;
}

bool ActionLess(const Action& x, const Action& y) {
  auto tie = [](const Action& a) {
    return std::tuple(a.type, a.tile, a.pos.x, a.pos.y, a.has_pos, a.rotation, a.figure_kind,
                      a.segment, reinterpret_cast<uintptr_t>(a.expansion), a.code);
  };
  if (tie(x) != tie(y)) return tie(x) < tie(y);
  for (int i = 0; i < model::kMaxActionArgs; ++i)
    if (x.args[i] != y.args[i]) return x.args[i] < y.args[i];
  return false;
}

void CancelCommon(std::vector<Action>& x, std::vector<Action>& y) {
  if (x == y) {  // the same list in the same order (e.g. two games listing alike)
    x.clear();
    y.clear();
    return;
  }
  std::sort(x.begin(), x.end(), ActionLess);
  std::sort(y.begin(), y.end(), ActionLess);
  size_t i = 0, j = 0, ox = 0, oy = 0;  // read heads and write heads
  while (i < x.size() || j < y.size()) {
    if (j == y.size() || (i < x.size() && ActionLess(x[i], y[j])))
      x[ox++] = x[i++];
    else if (i == x.size() || ActionLess(y[j], x[i]))
      y[oy++] = y[j++];
    else
      ++i, ++j;
  }
  x.resize(ox);
  y.resize(oy);
}

}  // namespace carc::prop

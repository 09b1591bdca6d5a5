#include "model/core/json_reader.h"

#include "model/core/input_file.h"
#include "model/core/position_io.h"

namespace carc::model {

using nlohmann::json;

Status JsonError(const std::string& where, const std::string& what) {
  return Status(ErrorCode::kMalformed, (where.empty() ? "/" : where) + ": " + what);
}

Status JsonError(const std::string& source, const std::string& where, const std::string& what) {
  return Status(ErrorCode::kMalformed, source + ":" + (where.empty() ? "/" : where) + ": " + what);
}

Status CheckKeys(const json& j, const std::string& where,
                 std::initializer_list<std::string_view> keys, bool of_type) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = of_type && it.key() == "type";
    for (std::string_view k : keys) known |= it.key() == k;
    if (known) continue;
    if (of_type && j.contains("type") && j["type"].is_string())
      return JsonError(where + "/" + it.key().substr(0, 100),
                       "not a field of " + j["type"].get<std::string>());
    return JsonError(where + "/" + it.key().substr(0, 100), "unknown field");
  }
  return Status::Ok();
}

StatusOr<int> ReadInt(const json& j, const std::string& where, int lo, int hi) {
  auto v = JsonInt(j, lo, hi);
  if (!v) return JsonError(where, JsonIntError(j, lo, hi));
  return *v;
}

StatusOr<int> ReadFeatureRef(const json& j, const Position& pos, const std::string& where,
                             const char* default_feature) {
  if (!j.is_object())
    return JsonError(where, std::string("expected an object, got ") + j.type_name());
  // Read in place (no copy into a new object: the brute force reads back thousands of actions
  // per position); other keys of `j` are not looked at.
  const auto jx = j.find("x"), jy = j.find("y"), jf = j.find("feature");
  if (jx == j.end()) return JsonError(where + "/x", "missing");
  if (jy == j.end()) return JsonError(where + "/y", "missing");
  if (jf == j.end() && !default_feature) return JsonError(where + "/feature", "missing");
  const auto x = JsonInt(*jx);
  if (!x) return JsonError(where + "/x", JsonIntError(*jx));
  const auto y = JsonInt(*jy);
  if (!y) return JsonError(where + "/y", JsonIntError(*jy));
  if (jf != j.end() && !jf->is_string())
    return JsonError(where + "/feature", std::string("expected a string, got ") + jf->type_name());
  const auto t = pos.board.At({*x, *y});
  if (!t)
    return JsonError(where, "no tile at (" + std::to_string(*x) + ", " + std::to_string(*y) + ")");
  const std::string fallback = jf == j.end() ? default_feature : "";
  const std::string& name = jf != j.end() ? jf->get_ref<const std::string&>() : fallback;
  const auto seg = ParseFeature(pos.board.rotated(*t), name);
  if (!seg.ok()) return JsonError(where + "/feature", seg.status().message());
  return Board::Node(*t, *seg);
}

StatusOr<int> ReadFigureKind(const json& j, const Position& pos, const std::string& where) {
  std::string kind = "meeple";
  if (j.contains("kind")) {
    if (!j["kind"].is_string()) return JsonError(where + "/kind", "expected a figure kind");
    kind = j["kind"].get<std::string>();
  }
  const int k = pos.cfg().FigureKind(kind);
  if (k < 0)
    return JsonError(where + "/kind", "unknown figure kind \"" + kind + "\" for these rules");
  return k;
}

std::string ListAnd(const std::vector<std::string>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i)
    s += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return s;
}

std::string Plural(int n, std::string_view word) {
  const std::string w(word);
  if (n == 1) return "1 " + w;
  // "city" -> "cities", "completed city" -> "completed cities"; "day" -> "days".
  if (w.size() > 1 && w.back() == 'y' &&
      std::string("aeiou").find(w[w.size() - 2]) == std::string::npos)
    return std::to_string(n) + " " + w.substr(0, w.size() - 1) + "ies";
  return std::to_string(n) + " " + w + "s";
}

std::string TileAt(const Position& pos, int node) {
  const Coord c = pos.board.tile(Board::TileOf(node)).pos;
  return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")";
}

std::string FeatureAt(const Position& pos, int node) {
  const int t = Board::TileOf(node);
  return FeatureName(pos.board.rotated(t), Board::SegmentOf(node)) + " of the tile at " +
         TileAt(pos, node);
}

}  // namespace carc::model

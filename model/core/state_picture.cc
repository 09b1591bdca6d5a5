#include "model/core/state_picture.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "model/core/position.h"

namespace carc::model {

using nlohmann::json;

std::string PictureTitle(const std::string& name) {
  std::string t = name;
  for (char& c : t)
    if (c == '_' || c == '-') c = ' ';
  if (!t.empty() && t[0] >= 'a' && t[0] <= 'z') t[0] = static_cast<char>(t[0] - 'a' + 'A');
  return t;
}

std::string PlayerNameOf(const Position& pos, const json& index) {
  if (!index.is_number_integer()) return index.dump();
  const int p = index.get<int>();
  return p >= 0 && p < static_cast<int>(pos.players.size()) ? pos.players[p].name : "?";
}

std::string FeatureAt(const json& ref) {
  return ref.value("feature", "?") + " at (" + ref.value("x", json()).dump() + ", " +
         ref.value("y", json()).dump() + ")";
}

std::vector<std::string> CardNames(const json& j) {
  std::vector<std::string> out;
  if (j.is_array()) {
    for (const json& e : j)
      if (e.is_string()) out.push_back(e.get<std::string>());
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      for (int k = 0; it.value().is_number_integer() && k < it.value().get<int>(); ++k)
        out.push_back(it.key());
  }
  return out;
}

std::string CountedCards(const std::vector<std::string>& names) {
  std::vector<std::pair<std::string, int>> kinds;
  for (const std::string& n : names) {
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == n; });
    if (it == kinds.end())
      kinds.push_back({n, 1});
    else
      ++it->second;
  }
  std::string v;
  for (const auto& [n, c] : kinds)
    v += (v.empty() ? "" : ", ") + PictureTitle(n) + (c > 1 ? " x" + std::to_string(c) : "");
  return v;
}

void FlattenInto(const json& j, const std::string& prefix, StatePicture& out) {
  if (j.is_object()) {  // an empty object: nothing left to say
    for (auto it = j.begin(); it != j.end(); ++it)
      FlattenInto(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    return;
  }
  std::string v = j.is_string() ? j.get<std::string>() : j.dump();
  if (!j.is_string())  // room to wrap long lists
    for (size_t p = v.find(','); p != std::string::npos; p = v.find(',', p + 2))
      v.insert(p + 1, " ");
  out.Line(prefix + ": " + v);
}

}  // namespace carc::model

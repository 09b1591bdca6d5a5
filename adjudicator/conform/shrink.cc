#include "adjudicator/conform/shrink.h"

#include <algorithm>

#include "adjudicator/conform/attribute.h"
#include "adjudicator/conform/engine.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator::conform {

using nlohmann::json;

std::vector<std::string> ExpansionsOf(const json& position) {
  std::vector<std::string> out;
  for (const json& e : position["rules"].value("expansions", json::array()))
    if (e.is_string()) out.push_back(e);
  return out;
}

std::vector<size_t> SizeOf(const Query& q) {
  const json& p = q.position;
  size_t draws = 0;
  const json& sup = p.value("supply", json::object());
  if (sup.contains("draw_order")) draws = sup["draw_order"].size();
  if (sup.contains("remaining") && sup["remaining"].is_object())
    for (const json& n : sup["remaining"]) draws += n.get<size_t>();
  return {p["board"].size(), p["players"].size(), p.value("figures", json::array()).size(), draws,
          ExpansionsOf(p).size()};
}

namespace {

// A position with one figure (index i) taken back to its owner's supply.
void TakeBack(json& p, size_t i) {
  json fig = p["figures"][i];
  p["figures"].erase(i);
  json& sup = p["players"][fig["owner"].get<int>()]["supply"];
  const std::string kind = fig.value("kind", "meeple");
  sup[kind] = sup.value(kind, 0) + 1;
}

// The figure kinds the rules of `p` know.
std::set<std::string> KnownKinds(const json& p) {
  json stub = {{"rules", p["rules"]},
               {"players", json::array({json::object()})},
               {"board", json::array({{{"tile", "D"}, {"x", 0}, {"y", 0}}})}};
  std::set<std::string> out;
  auto pos = model::ParsePosition(stub, exp::Context("shrink"));
  if (pos.ok())
    for (const auto& k : pos->cfg().figure_kinds) out.insert(k.name);
  return out;
}

using Candidates = std::vector<json>;

Candidates WithoutExpansions(const json& p) {
  Candidates out;
  auto exps = ExpansionsOf(p);
  for (const std::string& id : exps) {
    json c = p;
    json& list = c["rules"]["expansions"];
    list.erase(std::find(list.begin(), list.end(), json(id)) - list.begin());
    if (c.contains("expansions")) {
      c["expansions"].erase(id);
      if (c["expansions"].empty()) c.erase("expansions");
    }
    auto kinds = KnownKinds(c);
    json figs = json::array();
    for (const json& f : c["figures"])
      if (kinds.count(f.value("kind", "meeple"))) figs.push_back(f);
    c["figures"] = figs;
    for (json& pl : c["players"]) {
      json s = json::object();
      for (auto it = pl["supply"].begin(); it != pl["supply"].end(); ++it)
        if (kinds.count(it.key())) s[it.key()] = it.value();
      pl["supply"] = s;
    }
    out.push_back(c);
  }
  return out;
}

Candidates WithoutPlayers(const json& p) {
  Candidates out;
  const int n = static_cast<int>(p["players"].size()), turn = p["turn"].value("player", 0);
  for (int i = n - 1; i >= 0 && n > 1; --i) {
    if (i == turn) continue;
    json c = p;
    c["players"].erase(i);
    json figs = json::array();
    for (json f : c["figures"]) {
      int o = f["owner"].get<int>();
      if (o == i) continue;
      if (o > i) f["owner"] = o - 1;
      figs.push_back(f);
    }
    c["figures"] = figs;
    if (turn > i) c["turn"]["player"] = turn - 1;
    out.push_back(c);
  }
  return out;
}

// Chunks of `items` removed, largest chunks first (halves, quarters, ..., single items);
// `keep(i)` items are never removed.
template <typename Remove, typename Keep>
Candidates Chunks(const json& p, size_t n, Remove remove, Keep keep) {
  Candidates out;
  for (size_t size = std::max<size_t>(n / 2, 1); size >= 1; size /= 2) {
    for (size_t start = 0; start < n; start += size) {
      std::vector<size_t> idx;
      for (size_t i = start; i < std::min(n, start + size); ++i)
        if (!keep(i)) idx.push_back(i);
      if (idx.empty()) continue;
      json c = p;
      remove(c, idx);  // indices in increasing order
      out.push_back(c);
    }
    if (size == 1) break;
  }
  return out;
}

Candidates WithoutDraws(const json& p) {
  const json& sup = p.value("supply", json::object());
  if (sup.contains("draw_order")) {
    return Chunks(
        p, sup["draw_order"].size(),
        [](json& c, const std::vector<size_t>& idx) {
          for (auto it = idx.rbegin(); it != idx.rend(); ++it) c["supply"]["draw_order"].erase(*it);
        },
        [](size_t) { return false; });
  }
  Candidates out;
  if (sup.contains("remaining") && sup["remaining"].is_object() && !sup["remaining"].empty()) {
    json c = p;
    c["supply"]["remaining"] = json::object();
    out.push_back(c);
    for (auto it = sup["remaining"].begin(); it != sup["remaining"].end(); ++it) {
      json d = p;
      d["supply"]["remaining"].erase(it.key());
      out.push_back(d);
      if (it.value().get<int>() > 1) {
        json e = p;
        e["supply"]["remaining"][it.key()] = it.value().get<int>() - 1;
        out.push_back(e);
      }
    }
  }
  return out;
}

Candidates WithoutTiles(const json& p) {
  const json placed = p["turn"].value("placed", json());
  const json& board = p["board"];
  return Chunks(
      p, board.size(),
      [](json& c, const std::vector<size_t>& idx) {
        for (auto it = idx.rbegin(); it != idx.rend(); ++it) {
          json t = c["board"][*it];
          c["board"].erase(*it);
          for (size_t f = c["figures"].size(); f-- > 0;)
            if (c["figures"][f]["x"] == t["x"] && c["figures"][f]["y"] == t["y"]) TakeBack(c, f);
        }
      },
      [&](size_t i) {
        return placed.is_object() && board[i]["x"] == placed["x"] && board[i]["y"] == placed["y"];
      });
}

Candidates WithoutFigures(const json& p) {
  Candidates out;
  for (size_t i = p["figures"].size(); i-- > 0;) {
    json c = p;
    TakeBack(c, i);
    out.push_back(c);
  }
  return out;
}

Candidates ZeroScores(const json& p) {
  json c = p;
  bool any = false;
  for (json& pl : c["players"])
    if (pl.value("score", 0) != 0) {
      pl["score"] = 0;
      any = true;
    }
  return any ? Candidates{c} : Candidates{};
}

bool Matches(const Finding& f, const Finding& target) {
  if (f.category != target.category) return false;
  if (f.rulings.empty() && target.rulings.empty()) return true;
  for (const auto& r : f.rulings)
    if (target.rulings.count(r)) return true;
  return false;
}

}  // namespace

model::StatusOr<Shrunk> Shrink(const Query& q, const Finding& target, const Oracle& ask,
                               int budget) {
  Shrunk s{q, target, 0, false};
  // Every field written out (a hand-written --rerun case may leave supplies to their defaults),
  // so that taking a figure back adds it to a stated supply.
  if (auto pos = model::ParsePosition(q.position, exp::Context("shrink")); pos.ok())
    s.query.position = model::DumpPosition(*pos);
  using Gen = Candidates (*)(const json&);
  const Gen gens[] = {WithoutExpansions, WithoutPlayers, WithoutDraws,
                      WithoutTiles,      WithoutFigures, ZeroScores};
  for (;;) {
    bool progress = false;
    for (Gen gen : gens) {
      for (json& cand : gen(s.query.position)) {
        if (s.tries >= budget) return s;
        Query c = s.query;
        c.position = std::move(cand);
        c.expansions = ExpansionsOf(c.position);
        if (!ValidQuery(c)) continue;
        ++s.tries;
        auto fs = ask(c);
        if (!fs.ok()) return fs.status();
        auto hit = std::find_if(fs->begin(), fs->end(),
                                [&](const Finding& f) { return Matches(f, target); });
        if (hit == fs->end()) continue;
        s.query = c;
        s.finding = *hit;
        progress = true;
        break;
      }
      if (progress) break;  // start again from the first kind of removal
    }
    if (!progress) {
      s.local_minimum = true;
      return s;
    }
  }
}

}  // namespace carc::adjudicator::conform

// JSON -> line, and the short form (notation.h). The reader is notation.cc.
#include <optional>
#include <string>
#include <vector>

#include "model/core/input_file.h"
#include "model/core/notation.h"
#include "model/core/notation_internal.h"

namespace carc::model {

using nlohmann::json;
using namespace notation_internal;  // NOLINT: the notation's own helpers

namespace {

// ---------------------------------------------------------------- JSON -> line

Status Unstatable(const std::string& where, const std::string& what) {
  return Status(ErrorCode::kMalformed,
                (where.empty() ? "/" : where) + ": cannot be written as a line: " + what);
}

// An integer the line can hold (the range every position integer has, input_file.h).
bool IsInt(const json& j) { return j.is_number_integer() && JsonInt(j).has_value(); }
std::string XY(const json& x, const json& y) { return x.dump() + "," + y.dump(); }
bool OnlyKeys(const json& j, std::initializer_list<const char*> keys) {
  if (!j.is_object()) return false;
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const char* k : keys) ok |= it.key() == k;
    if (!ok) return false;
  }
  return true;
}

// A core action in its short form, anything else as compact JSON.
std::string ActionLine(const json& a) {
  std::string type;
  if (a.is_object() && a.contains("type") && a["type"].is_string()) type = a["type"];
  if (type == "pass" && OnlyKeys(a, {"type"})) return "pass";
  if (type == "draw" && OnlyKeys(a, {"type", "tile"}) && a.contains("tile") &&
      a["tile"].is_string() && IsTileLetter(a["tile"].get<std::string>()))
    return "draw " + a["tile"].get<std::string>();
  if (type == "place_tile" && OnlyKeys(a, {"type", "tile", "x", "y", "rotation"}) &&
      a.contains("x") && a.contains("y") && a.contains("rotation") && IsInt(a["x"]) &&
      IsInt(a["y"]) && IsInt(a["rotation"]) &&
      (!a.contains("tile") ||
       (a["tile"].is_string() && IsTileLetter(a["tile"].get<std::string>())))) {
    std::string t = a.contains("tile") ? a["tile"].get<std::string>() + " " : "";
    return "place_tile " + t + XY(a["x"], a["y"]) + " " + a["rotation"].dump();
  }
  if (type == "place_figure" && OnlyKeys(a, {"type", "kind", "feature", "x", "y"}) &&
      a.contains("feature") && a["feature"].is_string() &&
      (!a.contains("kind") || a["kind"].is_string()) && a.contains("x") == a.contains("y") &&
      (!a.contains("x") || (IsInt(a["x"]) && IsInt(a["y"])))) {
    std::string out = "place_figure";
    if (a.contains("kind")) out += " " + Word(a["kind"].get<std::string>());
    out += " " + Word(a["feature"].get<std::string>());
    if (a.contains("x")) out += " " + XY(a["x"], a["y"]);
    return out;
  }
  return a.dump();
}

// The question in sections ask / actions / claim when it fits them, else question {...}.
std::string QuestionLine(const json& q) {
  bool fits = OnlyKeys(q, {"ask", "actions", "claim", "depth"}) && q.contains("ask") &&
              q["ask"].is_string() && Bare(q["ask"].get<std::string>()) &&
              (!q.contains("depth") || IsInt(q["depth"])) &&
              (!q.contains("actions") || q["actions"].is_array());
  if (fits && q.contains("claim")) {
    const json& c = q["claim"];
    fits = OnlyKeys(c, {"legal", "scores"}) && (!c.contains("legal") || c["legal"].is_boolean()) &&
           (!c.contains("scores") || (c["scores"].is_array() && !c["scores"].empty()));
    if (fits && c.contains("scores"))
      for (const json& v : c["scores"]) fits &= IsInt(v);
  }
  if (!fits) return "; question " + q.dump();
  std::string out = "; ask " + q["ask"].get<std::string>();
  if (q.contains("depth")) out += " depth " + q["depth"].dump();
  if (q.contains("actions")) {
    out += "; actions";
    for (size_t i = 0; i < q["actions"].size(); ++i)
      out += (i ? " / " : " ") + ActionLine(q["actions"][i]);
  }
  if (q.contains("claim")) {
    out += "; claim";
    const json& c = q["claim"];
    if (c.contains("legal")) out += c["legal"].get<bool>() ? " legal" : " illegal";
    if (c.contains("scores")) {
      out += " scores ";
      for (size_t i = 0; i < c["scores"].size(); ++i) out += (i ? "," : "") + c["scores"][i].dump();
    }
  }
  return out;
}

// rules: EDITION {EXPANSION} {KEY=VALUE}
Status WriteRules(const json& doc, std::string& out) {
  json rules = doc.value("rules", json::object());
  if (!OnlyKeys(rules, {"edition", "expansions", "options"}))
    return Unstatable("/rules", "expected edition, expansions, options");
  json ed = rules.value("edition", json("C3"));
  if (!ed.is_string() || (ed != "C1" && ed != "C2" && ed != "C3"))
    return Unstatable("/rules/edition", "expected C1, C2 or C3");
  out = ed.get<std::string>();
  for (const json& e : rules.value("expansions", json::array())) {
    if (!e.is_string() || !Bare(e.get<std::string>()) ||
        e.get<std::string>().find('=') != std::string::npos)
      return Unstatable("/rules/expansions", "an expansion id is a plain word");
    out += " " + e.get<std::string>();
  }
  if (rules.contains("expansions") && !rules["expansions"].is_array())
    return Unstatable("/rules/expansions", "expected an array");
  if (rules.contains("options")) {
    if (!rules["options"].is_object()) return Unstatable("/rules/options", "expected an object");
    for (auto it = rules["options"].begin(); it != rules["options"].end(); ++it) {
      if (!it.value().is_string() || !Bare(it.key()) || !Bare(it.value().get<std::string>()) ||
          it.key().find('=') != std::string::npos)
        return Unstatable("/rules/options/" + it.key(), "an option is a plain word=value");
      out += " " + it.key() + "=" + it.value().get<std::string>();
    }
  }
  return Status::Ok();
}

// Players are named in figures and turn: by name when the names are unique, else by #index.
struct Owners {
  std::vector<std::string> names;
  bool unique = true;
  StatusOr<std::string> operator()(const json& o, const std::string& w) const {
    if (!IsInt(o) || o.get<long long>() < 0) return Unstatable(w, "expected a player index");
    size_t i = o.get<size_t>();
    if (unique && i < names.size()) return Word(names[i]);
    return "#" + o.dump();
  }
};

Status WritePlayers(const json& doc, std::string& out, Owners& owners) {
  if (!doc.contains("players")) return Status::Ok();
  std::vector<std::string>& names = owners.names;
  bool& unique = owners.unique;
  const json& jp = doc["players"];
  if (!jp.is_array()) return Unstatable("/players", "expected an array");
  out += "; players";
  for (size_t i = 0; i < jp.size(); ++i) {
    std::string w = "/players/" + std::to_string(i);
    const json& p = jp[i];
    if (!OnlyKeys(p, {"name", "score", "supply"}) ||
        (p.contains("name") && !p["name"].is_string()) ||
        (p.contains("score") && !IsInt(p["score"])))
      return Unstatable(w, "expected name (a string), score (an integer), supply");
    std::string name = p.value("name", "P" + std::to_string(i));
    for (const auto& n : names) unique &= n != name;
    names.push_back(name);
    out += (i ? " / " : " ") + Word(name);
    if (p.contains("score")) out += " " + p["score"].dump();
    if (p.contains("supply")) {
      if (!p["supply"].is_object()) return Unstatable(w + "/supply", "expected an object");
      for (auto it = p["supply"].begin(); it != p["supply"].end(); ++it) {
        if (!Bare(it.key()) || !IsInt(it.value()))
          return Unstatable(w + "/supply/" + it.key(), "expected kind: count");
        out += " " + it.key() + ":" + it.value().dump();
      }
    }
  }
  return Status::Ok();
}

Status WriteBoard(const json& doc, std::string& out) {
  if (doc.contains("board")) {
    const json& jb = doc["board"];
    if (!jb.is_array()) return Unstatable("/board", "expected an array");
    out += "; board";
    for (size_t i = 0; i < jb.size(); ++i) {
      const json& b = jb[i];
      std::string w = "/board/" + std::to_string(i);
      if (!OnlyKeys(b, {"tile", "x", "y", "rotation"}) || !b.contains("tile") ||
          !b["tile"].is_string() || !IsTileLetter(b["tile"].get<std::string>()) ||
          !b.contains("x") || !b.contains("y") || !IsInt(b["x"]) || !IsInt(b["y"]) ||
          (b.contains("rotation") && !IsInt(b["rotation"])))
        return Unstatable(w, "expected tile (a letter), x, y, rotation (integers)");
      out += (i ? " / " : " ") + b["tile"].get<std::string>() + " " + XY(b["x"], b["y"]);
      if (b.contains("rotation")) out += " " + b["rotation"].dump();
    }
  }
  if (doc.contains("board_partial")) {  // partial [false]
    if (!doc["board_partial"].is_boolean())
      return Unstatable("/board_partial", "expected true or false");
    out += doc["board_partial"].get<bool>() ? "; partial" : "; partial false";
  }
  if (doc.contains("board_empty")) {  // empty X,Y ...
    const json& je = doc["board_empty"];
    if (!je.is_array() || je.empty())
      return Unstatable("/board_empty", "expected a non-empty array of squares");
    out += "; empty";
    for (size_t i = 0; i < je.size(); ++i) {
      const json& e = je[i];
      if (!OnlyKeys(e, {"x", "y"}) || !e.contains("x") || !e.contains("y") || !IsInt(e["x"]) ||
          !IsInt(e["y"]))
        return Unstatable("/board_empty/" + std::to_string(i), "expected x, y (integers)");
      out += " " + XY(e["x"], e["y"]);
    }
  }
  return Status::Ok();
}

Status WriteFigures(const json& doc, std::string& out, const Owners& owner) {
  if (!doc.contains("figures")) return Status::Ok();
  const json& jf = doc["figures"];
  if (!jf.is_array()) return Unstatable("/figures", "expected an array");
  out += "; figures";
  for (size_t i = 0; i < jf.size(); ++i) {
    const json& f = jf[i];
    std::string w = "/figures/" + std::to_string(i);
    if (!OnlyKeys(f, {"owner", "kind", "x", "y", "feature", "posture"}) || !f.contains("owner") ||
        !f.contains("x") || !f.contains("y") || !IsInt(f["x"]) || !IsInt(f["y"]) ||
        !f.contains("feature") || !f["feature"].is_string() ||
        (f.contains("kind") && !f["kind"].is_string()) ||
        (f.contains("posture") && !f["posture"].is_string()))
      return Unstatable(w, "expected owner, kind, x, y, feature, posture");
    auto o = owner(f["owner"], w + "/owner");
    if (!o.ok()) return o.status();
    out += (i ? " / " : " ") + *o;
    if (f.contains("kind")) {
      std::string k = f["kind"].get<std::string>();
      if (ToCoord(k)) return Unstatable(w + "/kind", "a kind that looks like X,Y");
      out += " " + Word(k);
    }
    out += " " + XY(f["x"], f["y"]) + " " + Word(f["feature"].get<std::string>());
    if (f.contains("posture")) out += " " + Word(f["posture"].get<std::string>());
  }
  return Status::Ok();
}

Status WriteSupply(const json& doc, std::string& out) {
  if (!doc.contains("supply")) return Status::Ok();
  const json& js = doc["supply"];
  if (!OnlyKeys(js, {"draw_order", "remaining"}) ||
      (js.contains("draw_order") && js.contains("remaining")))
    return Unstatable("/supply", "expected draw_order or remaining");
  if (js.contains("draw_order")) {
    if (!js["draw_order"].is_array()) return Unstatable("/supply/draw_order", "expected an array");
    out += "; draw";
    for (const json& t : js["draw_order"]) {
      if (!t.is_string() || !IsTileLetter(t.get<std::string>()))
        return Unstatable("/supply/draw_order", "expected tile letters");
      out += " " + t.get<std::string>();
    }
  } else if (js.contains("remaining")) {
    const json& r = js["remaining"];
    if (r.is_string() && r.get<std::string>() == "rest") {
      out += "; remaining rest";
    } else {
      if (!r.is_object()) return Unstatable("/supply/remaining", "expected counts or \"rest\"");
      out += "; remaining";
      for (auto it = r.begin(); it != r.end(); ++it) {
        if (!IsTileLetter(it.key()) || !IsInt(it.value()) || it.value().get<long long>() < 0)
          return Unstatable("/supply/remaining/" + it.key(), "expected TILE: count");
        out += " " + it.key() + ":" + it.value().dump();
      }
    }
  }
  return Status::Ok();
}

Status WriteTurn(const json& doc, std::string& out, const Owners& owner) {
  if (!doc.contains("turn")) return Status::Ok();
  const json& t = doc["turn"];
  if (!OnlyKeys(t, {"player", "step", "tile", "placed"}) ||
      (t.contains("step") && (!t["step"].is_string() || !Bare(t["step"].get<std::string>()) ||
                              IsTileLetter(t["step"].get<std::string>()))) ||
      (t.contains("tile") &&
       (!t["tile"].is_string() || !IsTileLetter(t["tile"].get<std::string>()))) ||
      (t.contains("placed") &&
       (!OnlyKeys(t["placed"], {"x", "y"}) || !t["placed"].contains("x") ||
        !t["placed"].contains("y") || !IsInt(t["placed"]["x"]) || !IsInt(t["placed"]["y"]))))
    return Unstatable("/turn", "expected player, step (a word), tile (a letter), placed {x, y}");
  auto o = owner(t.value("player", json(0)), "/turn/player");
  if (!o.ok()) return o.status();
  out += "; turn " + *o;
  if (t.contains("step")) out += " " + t["step"].get<std::string>();
  if (t.contains("tile")) out += " " + t["tile"].get<std::string>();
  if (t.contains("placed")) out += " " + XY(t["placed"]["x"], t["placed"]["y"]);
  return Status::Ok();
}

// state, meta and the question.
Status WriteRest(const json& doc, std::string& out) {
  if (doc.contains("expansions")) {
    const json& je = doc["expansions"];
    if (!je.is_object()) return Unstatable("/expansions", "expected an object");
    for (auto it = je.begin(); it != je.end(); ++it) {
      if (!Bare(it.key()) || !(it.value().is_object() || it.value().is_array()))
        return Unstatable("/expansions/" + it.key(), "expected an object");
      out += "; state " + it.key() + " " + it.value().dump();
    }
  }
  if (doc.contains("meta")) {
    if (!doc["meta"].is_object()) return Unstatable("/meta", "expected an object");
    out += "; meta " + doc["meta"].dump();
  }
  if (doc.contains("question")) {
    if (!doc["question"].is_object()) return Unstatable("/question", "expected an object");
    out += QuestionLine(doc["question"]);
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::string> JsonToLine(const json& doc) {
  if (!doc.is_object()) return Unstatable("", "a position is a JSON object");
  if (!OnlyKeys(doc, {"meta", "rules", "players", "board", "figures", "supply", "turn", "question",
                      "expansions", "board_partial", "board_empty"}))
    return Unstatable("", "a field the position format does not have");
  std::string out;
  Owners owners;
  if (Status st = WriteRules(doc, out); !st.ok()) return st;
  if (Status st = WritePlayers(doc, out, owners); !st.ok()) return st;
  if (Status st = WriteBoard(doc, out); !st.ok()) return st;
  if (Status st = WriteFigures(doc, out, owners); !st.ok()) return st;
  if (Status st = WriteSupply(doc, out); !st.ok()) return st;
  if (Status st = WriteTurn(doc, out, owners); !st.ok()) return st;
  if (Status st = WriteRest(doc, out); !st.ok()) return st;
  return out;
}

json MinimalJson(const json& doc, const IoContext& ctx) {
  auto dump = [&](const json& d) -> std::optional<json> {
    try {
      auto p = ParsePosition(d, ctx);
      if (!p.ok()) return std::nullopt;
      return DumpPosition(*p);
    } catch (const json::exception&) {
      return std::nullopt;
    }
  };
  const auto base = dump(doc);
  if (!base) return doc;
  json m = doc;
  auto keep_if_same = [&](json cand) {
    if (dump(cand) == base) m = std::move(cand);
  };
  if (m.contains("board") && m["board"].is_array()) {
    json c = m;
    for (json& b : c["board"])
      if (b.is_object() && b.value("rotation", json(1)) == json(0)) b.erase("rotation");
    keep_if_same(c);
  }
  if (m.value("board_partial", json()) == json(false)) {
    json c = m;
    c.erase("board_partial");
    keep_if_same(c);
  }
  if (m.contains("figures") && m["figures"].is_array()) {
    json c = m;
    for (json& f : c["figures"]) {
      if (!f.is_object()) continue;
      f.erase("posture");
      if (f.value("kind", json()) == json("meeple")) f.erase("kind");
    }
    if (c["figures"].empty()) c.erase("figures");
    keep_if_same(c);
  }
  if (m.contains("players") && m["players"].is_array())
    for (size_t i = 0; i < m["players"].size(); ++i) {
      json c = m;
      if (c["players"][i].is_object() && c["players"][i].contains("supply")) {
        c["players"][i].erase("supply");
        keep_if_same(c);
      }
    }
  if (m.contains("rules") && m["rules"].is_object() && m["rules"].contains("options") &&
      m["rules"]["options"].is_object()) {
    std::vector<std::string> keys;
    for (auto it = m["rules"]["options"].begin(); it != m["rules"]["options"].end(); ++it)
      keys.push_back(it.key());
    for (const std::string& k : keys) {
      json c = m;
      c["rules"]["options"].erase(k);
      if (c["rules"]["options"].empty()) c["rules"].erase("options");
      keep_if_same(c);
    }
  }
  if (m.contains("expansions") && m["expansions"].is_object()) {
    std::vector<std::string> keys;
    for (auto it = m["expansions"].begin(); it != m["expansions"].end(); ++it)
      keys.push_back(it.key());
    for (const std::string& k : keys) {
      json c = m;
      c["expansions"].erase(k);
      if (c["expansions"].empty()) c.erase("expansions");
      keep_if_same(c);
    }
  }
  return m;
}

}  // namespace carc::model

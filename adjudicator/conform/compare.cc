#include "adjudicator/conform/compare.h"

#include <algorithm>
#include <map>

#include "adjudicator/conform/engine.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/core/text_escape.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator::conform {

using model::Position;
using model::Status;
using nlohmann::json;

json Request(const Query& q) {
  json r = {{"cmd", q.kind}, {"position", q.position}};
  if (q.kind == "apply") r["action"] = q.action;
  return r;
}

// A query's position read and advanced to the step that waits for a decision.
model::StatusOr<Position> ReadQueryPosition(const json& j, const std::string& source) {
  auto pos = model::ParsePosition(j, exp::Context(source));
  if (!pos.ok()) return pos.status();
  model::ApplyResult pre;
  model::Advance(*pos, pre);
  return pos;
}

namespace {

std::set<std::string> Strings(const json& list) {
  std::set<std::string> out;
  if (list.is_array())
    for (const json& r : list)
      if (r.is_string()) out.insert(r.get<std::string>());
  return out;
}

// Canonical form of an action list: each action read against the position; rotations that
// give the same picture merged. `shortcuts` (optional) receives the keys of the actions marked
// "shortcut": true (a later step's figure placed alone, PH-ALONE). The marker's type is checked
// before (CheckAnswerTypes): here it is true or false.
std::map<std::string, json> Canonical(const Position& pos, const json& actions,
                                      std::vector<std::string>& unreadable,
                                      std::set<std::string>* shortcuts = nullptr) {
  std::map<std::string, json> out;
  auto ctx = exp::Context("engine");
  for (const json& given : actions) {
    json aj = given;
    const bool shortcut = aj.is_object() && aj.value("shortcut", json()) == json(true);
    if (aj.is_object()) aj.erase("shortcut");
    auto a = model::ParseAction(aj, pos, "/actions", ctx);
    if (!a.ok()) {
      unreadable.push_back(given.dump() + ": " + a.status().message());
      continue;
    }
    model::Action c = *a;
    if (c.type == model::ActionType::kPlaceTile) {
      if (c.tile < 0 && pos.turn.drawn) c.tile = *pos.turn.drawn;
      if (c.tile >= 0) c.rotation = pos.cfg().catalog->canonical_rotation(c.tile, c.rotation);
    }
    json cj = model::DumpAction(pos, c);
    if (shortcut && shortcuts) shortcuts->insert(cj.dump());
    out[cj.dump()] = cj;
  }
  return out;
}

// The reference's verdict on one action at `pos`: legal, and its reasons.
struct Ruled {
  bool legal = false;
  std::set<std::string> rulings;
  json explain = json::array();
};
Ruled Verdict(const Position& pos, const json& action) {
  Ruled out;
  Position p = pos;
  auto a = model::ParseAction(action, p, "/action", exp::Context("verdict"));
  if (!a.ok()) return out;
  model::ApplyResult r = model::Apply(p, *a);
  out.legal = r.input_error.empty() && r.verdict.legal;
  for (const auto& rs : r.verdict.reasons) {
    out.rulings.insert(rs.ruling);
    out.explain.push_back({{"reason", rs.text}, {"rulings", {rs.ruling}}});
  }
  return out;
}

// Adds `item` to the finding of (category, rulings), creating it.
void Add(std::vector<Finding>& out, const std::string& category, const std::set<std::string>& rs,
         const std::string& field, const std::string& side, const json& item,
         const json& explain = json::array()) {
  auto it = std::find_if(out.begin(), out.end(), [&](const Finding& f) {
    return f.category == category && f.rulings == rs;
  });
  if (it == out.end()) {
    out.push_back({category, rs, json::array({{{"field", field}}})});
    it = out.end() - 1;
    it->explain = explain;
  }
  json& d = it->diff[0];
  if (!d.contains(side)) d[side] = json::array();
  d[side].push_back(item);
}

// The legal lists: an action only the engine lists is ruled on by the reference (accepted
// illegal, or the reference cannot read it); one only the reference lists is rejected. A
// shortcut the reference lists is optional: the engine may list it or not (PROTOCOL.md).
std::vector<Finding> CompareLegal(const Position& pos, const json& ref, const json& eng) {
  std::vector<Finding> out;
  std::vector<std::string> bad;
  std::set<std::string> optional, marked;
  auto want = Canonical(pos, ref["actions"], bad, &optional);
  bad.clear();
  auto have = Canonical(pos, eng["actions"], bad, &marked);
  for (const std::string& b : bad) Add(out, kUnreadable, {}, "/actions", "engine_only", b);
  for (const auto& [k, a] : have)
    if (!want.count(k)) {
      Ruled v = Verdict(pos, a);
      Add(out, v.legal ? kUnreadable : kAcceptsIllegal, v.rulings, "/actions", "engine_only", a,
          v.explain);
    } else if (marked.count(k) && !optional.count(k)) {
      // The marker says "a later step's figure placed alone" (PROTOCOL.md, Shortcuts): on an
      // action of this step it states something false, so it is reported, not erased.
      Add(out, kUnreadable, {}, "/actions", "engine_only",
          a.dump() +
              ": marked \"shortcut\": true, but it is an action of this step, not a "
              "shortcut (PROTOCOL.md, Shortcuts)");
    }
  for (const auto& [k, a] : want)
    if (!have.count(k) && !optional.count(k)) {
      Ruled v = Verdict(pos, a);
      Add(out, kRejectsLegal, v.rulings, "/actions", "reference_only", a, v.explain);
    }
  return out;
}

// Rulings behind a score difference: those of the score events that paid a player whose score
// differs; failing that, every score event's; failing that, the verdict's and notes'.
std::set<std::string> ScoreRulings(const json& ref, const std::set<int>& players) {
  std::set<std::string> out, all;
  for (const json& ev : ref.value("score_events", json::array())) {
    auto rs = Strings(ev.value("rulings", json()));
    all.insert(rs.begin(), rs.end());
    for (const json& w : ev.value("winners", json::array()))
      if (players.count(w.get<int>())) out.insert(rs.begin(), rs.end());
  }
  if (out.empty()) out = all;
  if (out.empty()) {
    out = Strings(ref.value("note_rulings", json()));
    auto v = Strings(ref.value("verdict_rulings", json()));
    out.insert(v.begin(), v.end());
  }
  return out;
}

json EventExplain(const json& ev) {
  json e = {{"feature", ev.value("feature", std::string("points"))},
            {"formula", ev.value("formula", std::string())},
            {"points", ev.value("points", 0)},
            {"players", ev.value("winner_names", json::array())},
            {"rulings", ev.value("rulings", json::array())}};
  if (ev.contains("at")) e["at"] = ev["at"];
  return e;
}

void CompareScores(const json& pos, const json& ref, const json& eng, std::vector<Finding>& out) {
  const json& want = ref["scores"];
  const json& got = eng["scores"];
  if (want == got) return;
  Finding f{kScores, {}, json::array()};
  std::set<int> differ;
  for (size_t i = 0; i < std::max(want.size(), got.size()); ++i) {
    json w = i < want.size() ? want[i] : json(), g = i < got.size() ? got[i] : json();
    if (w == g) continue;
    differ.insert(static_cast<int>(i));
    std::string name = i < pos["players"].size()
                           ? pos["players"][i].value("name", "P" + std::to_string(i))
                           : "player " + std::to_string(i);
    f.diff.push_back({{"field", "/scores/" + name}, {"reference", w}, {"engine", g}});
  }
  f.rulings = ScoreRulings(ref, differ);
  // The events that paid those players, as the reference computed them (attribute.h narrows
  // them to the features whose value differs).
  for (const json& ev : ref.value("score_events", json::array())) {
    bool paid = false;
    for (const json& w : ev.value("winners", json::array())) paid |= differ.count(w.get<int>()) > 0;
    if (paid) f.explain.push_back(EventExplain(ev));
  }
  out.push_back(f);
}

// The fields PROTOCOL.md defines for a resulting position, in a form where order does not
// matter. After final scoring (game_over) figures stay where they stood and are not compared,
// nor are the players' supplies (the convention PROTOCOL.md states).
json Normalize(const json& p) {
  const bool over = p["turn"].value("step", "") == "game_over";
  json n;
  n["/rules"] = p["rules"];
  json board = json::array();
  for (const json& t : p["board"]) board.push_back(t);
  std::sort(board.begin(), board.end());
  n["/board"] = board;
  if (!over) {
    // Figures and supplies by seat (the owner's index), never by name: player names inside the
    // position are not compared (PROTOCOL.md), so a renamed player is the same player.
    json figs = json::array();
    for (const json& f : p["figures"]) figs.push_back(f);
    std::sort(figs.begin(), figs.end());
    n["/figures"] = figs;
    for (size_t i = 0; i < p["players"].size(); ++i)
      n["/players/" + std::to_string(i) + "/supply"] = p["players"][i]["supply"];
    for (auto it = p["turn"].begin(); it != p["turn"].end(); ++it)
      n["/turn/" + it.key()] = it.value();
  } else {
    n["/turn/step"] = "game_over";
  }
  n["/supply"] = p["supply"];
  const json exps = p.value("expansions", json::object());
  for (auto it = exps.begin(); it != exps.end(); ++it) n["/expansions/" + it.key()] = it.value();
  return n;
}

void ComparePosition(const json& ref, const json& eng, std::vector<Finding>& out) {
  auto ep = model::ParsePosition(eng["position"], exp::Context("engine position"));
  if (!ep.ok()) {
    out.push_back({kUnreadable,
                   {},
                   json::array({{{"field", "/position"},
                                 {"reference", "a position file"},
                                 {"engine", ep.status().message()}}})});
    return;
  }
  json want = Normalize(ref["position"]), got = Normalize(model::DumpPosition(*ep));
  Finding f{kPosition, {}, json::array()};
  std::set<std::string> keys;
  for (auto it = want.begin(); it != want.end(); ++it) keys.insert(it.key());
  for (auto it = got.begin(); it != got.end(); ++it) keys.insert(it.key());
  for (const std::string& k : keys) {
    json w = want.value(k, json()), g = got.value(k, json());
    if (w == g) continue;
    if (w.is_array() && g.is_array()) {  // board and figures: as sets
      json ro = json::array(), eo = json::array();
      for (const json& x : w)
        if (std::find(g.begin(), g.end(), x) == g.end()) ro.push_back(x);
      for (const json& x : g)
        if (std::find(w.begin(), w.end(), x) == w.end()) eo.push_back(x);
      f.diff.push_back({{"field", k}, {"reference_only", ro}, {"engine_only", eo}});
    } else {
      f.diff.push_back({{"field", k}, {"reference", w}, {"engine", g}});
    }
  }
  if (f.diff.empty()) return;
  // What happened to figures and tiles is in the notes (BASE-RETURN, BASE-PLACE-UNPLACEABLE),
  // why it happened in the verdict on the action (GIFT-SWEEPER for a swept road).
  f.rulings = Strings(ref.value("note_rulings", json()));
  auto v = Strings(ref.value("verdict_rulings", json()));
  f.rulings.insert(v.begin(), v.end());
  out.push_back(f);
}

Status TypeError(const Query& q, const std::string& field, const std::string& want,
                 const json& got) {
  return Status(model::ErrorCode::kIo, "engine answered a " + q.kind + " request with /" + field +
                                           ": wrong type, received " + got.dump().substr(0, 120) +
                                           ", expected " + want + " (PROTOCOL.md)");
}

// A list longer than the checker reads (PROTOCOL.md, Limits): an engine failure, exit 74.
Status TooMany(const Query& q, const std::string& field, size_t n, size_t limit) {
  return Status(model::ErrorCode::kIo,
                "engine answered a " + q.kind + " request with " + std::to_string(n) + " " + field +
                    ", more than the limit of " + std::to_string(limit) + " (PROTOCOL.md, Limits)");
}

bool IntArray(const json& j) {
  return j.is_array() &&
         std::all_of(j.begin(), j.end(), [](const json& x) { return x.is_number_integer(); });
}

// The fields of each answer (PROTOCOL.md), and nothing else: a field the checker does not read
// ("legal_actions", a misspelt "score_event", scores beside "legal": false) would be an answer
// dropped unread, as hello refuses one. The reference adapter's extras are named there too.
Status CheckAnswerFields(const Query& q, const json& eng) {
  std::set<std::string> fields = {"id", "ok"};
  if (!eng["ok"].get<bool>()) {
    fields.insert("error");
  } else if (q.kind == "legal") {
    fields.insert("actions");
  } else if (q.kind == "final_score") {
    fields.insert({"scores", "score_events", "rulings"});
  } else {
    fields.insert({"legal", "rulings", "verdict_rulings", "note_rulings", "verdict_reasons"});
    if (eng.value("legal", json()) == json(false))
      fields.insert("reason");
    else
      fields.insert({"scores", "position", "score_events"});
  }
  for (auto it = eng.begin(); it != eng.end(); ++it)
    if (!fields.count(it.key())) {
      std::string known;
      for (const std::string& f : fields) known += (known.empty() ? "" : ", ") + f;
      return Status(
          model::ErrorCode::kIo,
          "engine answered a " + q.kind + " request" +
              (q.kind == "apply" && eng.value("legal", json()) == json(false) ? " (illegal)" : "") +
              " with /" + model::EscapeControls(it.key().substr(0, 100)) +
              ", a field that answer does not have (" + known + "; PROTOCOL.md)");
    }
  return Status::Ok();
}

// The types of the fields the checker reads.
Status CheckTypes(const Query& q, const json& eng) {
  if (!eng.contains("ok") || !eng["ok"].is_boolean())
    return TypeError(q, "ok", "true or false", eng.value("ok", json()));
  if (!eng["ok"].get<bool>()) {
    if (eng.contains("error") && !eng["error"].is_string())
      return TypeError(q, "error", "a string", eng["error"]);
    return Status::Ok();
  }
  if (eng.contains("score_events") &&
      (!eng["score_events"].is_array() || eng["score_events"].size() > kMaxEvents))
    return eng["score_events"].is_array()
               ? TooMany(q, "score_events", eng["score_events"].size(), kMaxEvents)
               : TypeError(q, "score_events", "an array of score events", eng["score_events"]);
  if (q.kind == "legal") {
    if (!eng.contains("actions") || !eng["actions"].is_array())
      return TypeError(q, "actions", "an array of actions", eng.value("actions", json()));
    if (eng["actions"].size() > kMaxListedActions)
      return TooMany(q, "actions", eng["actions"].size(), kMaxListedActions);
    // The shortcut marker is true or false (PROTOCOL.md, Shortcuts), never erased unread.
    for (size_t i = 0; i < eng["actions"].size(); ++i) {
      const json& a = eng["actions"][i];
      if (a.is_object() && a.contains("shortcut") && !a["shortcut"].is_boolean())
        return TypeError(q, "actions/" + std::to_string(i) + "/shortcut", "true or false",
                         a["shortcut"]);
    }
    return Status::Ok();
  }
  if (q.kind == "apply") {
    if (!eng.contains("legal") || !eng["legal"].is_boolean())
      return TypeError(q, "legal", "true or false", eng.value("legal", json()));
    if (!eng["legal"].get<bool>()) {
      if (eng.contains("reason") && !eng["reason"].is_string())
        return TypeError(q, "reason", "a string", eng["reason"]);
      return Status::Ok();
    }
    if (!eng.contains("position") || !eng["position"].is_object())
      return TypeError(q, "position", "a position object", eng.value("position", json()));
  }
  if (!eng.contains("scores") || !IntArray(eng["scores"]))
    return TypeError(q, "scores", "an array of integers", eng.value("scores", json()));
  return Status::Ok();
}

}  // namespace

Status CheckAnswerTypes(const Query& q, const json& eng) {
  if (Status s = CheckTypes(q, eng); !s.ok()) return s;
  return CheckAnswerFields(q, eng);
}

std::vector<Finding> Compare(const Query& q, const json& ref, const json& eng) {
  std::vector<Finding> out;
  if (!eng["ok"].get<bool>()) {
    out.push_back({kUnreadable,
                   {},
                   json::array({{{"field", "/ok"},
                                 {"reference", true},
                                 {"engine", "false: " + eng.value("error", std::string())}}})});
    return out;
  }
  auto pos = ReadQueryPosition(q.position, "suite");
  if (!pos.ok()) return out;
  if (q.kind == "legal") return CompareLegal(*pos, ref, eng);
  if (q.kind == "apply") {
    const bool rl = ref.value("legal", false), el = eng["legal"].get<bool>();
    if (rl != el) {
      Finding f{rl ? kRejectsLegal : kAcceptsIllegal, Strings(ref.value("verdict_rulings", json())),
                json::array({{{"field", "/legal"}, {"reference", rl}, {"engine", el}}})};
      for (const json& r : ref.value("verdict_reasons", json::array()))
        f.explain.push_back(
            {{"reason", r.value("text", "")}, {"rulings", {r.value("ruling", "")}}});
      out.push_back(f);
      return out;
    }
    if (!rl) return out;
    CompareScores(q.position, ref, eng, out);
    ComparePosition(ref, eng, out);
    return out;
  }
  CompareScores(q.position, ref, eng, out);
  return out;
}

std::string GroupKey(const Finding& f) {
  std::string k = f.category + " |";
  for (const auto& r : f.rulings) k += " " + r;
  return k;
}

std::string DiffText(const json& diff) {
  std::string out;
  for (const json& d : diff) {
    const std::string field = d.value("field", "");
    if (d.contains("reference_only") || d.contains("engine_only")) {
      for (const char* side : {"reference_only", "engine_only"})
        for (const json& x : d.value(side, json::array()))
          out += "    " + field + "  " +
                 (std::string(side) == "reference_only" ? "reference only: " : "engine only:    ") +
                 (x.is_string() ? x.get<std::string>() : x.dump()) + "\n";
    } else {
      out += "    " + field + "  reference " + d.value("reference", json()).dump() + ", engine " +
             d.value("engine", json()).dump() + "\n";
    }
  }
  return out;
}

}  // namespace carc::adjudicator::conform

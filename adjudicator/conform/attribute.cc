#include "adjudicator/conform/attribute.h"

#include <algorithm>
#include <map>
#include <set>

#include "adjudicator/conform/engine.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator::conform {

using model::Position;
using model::ScoreEvent;
using nlohmann::json;

namespace {

// The reference's scoring of a query, in the model's own terms: the score events with their
// feature roots, and the position they refer to.
struct Scoring {
  Position after;
  std::vector<ScoreEvent> events;
};

std::optional<Scoring> ReferenceScoring(const Query& q) {
  auto ctx = exp::Context("attribution");
  auto parsed = model::ParsePosition(q.position, ctx);
  if (!parsed.ok()) return std::nullopt;
  Scoring s{std::move(*parsed), {}};
  if (q.kind == "final_score") {  // as the reference adapter answers it (engine.cc)
    if (!s.after.turn.game_over) s.events = model::ScoreFinal(s.after);
    return s;
  }
  model::ApplyResult pre;
  model::Advance(s.after, pre);
  auto a = model::ParseAction(q.action, s.after, "/action", ctx);
  if (!a.ok()) return std::nullopt;
  model::ApplyResult r = model::Apply(s.after, *a);
  if (!r.input_error.empty() || !r.verdict.legal) return std::nullopt;
  s.events = std::move(r.scores);
  return s;
}

// Engine minus reference, per player; empty when either answer has no scores.
std::vector<long long> Difference(const json& ref, const json& eng) {
  std::vector<long long> d;
  if (!ref.contains("scores") || !eng.contains("scores") || !eng["scores"].is_array()) return d;
  const json &a = ref["scores"], &b = eng["scores"];
  for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
    long long x = i < a.size() && a[i].is_number_integer() ? a[i].get<long long>() : 0;
    long long y = i < b.size() && b[i].is_number_integer() ? b[i].get<long long>() : 0;
    d.push_back(y - x);
  }
  return d;
}

std::set<std::string> RulingsOf(const ScoreEvent& ev) {
  return {ev.rulings.begin(), ev.rulings.end()};
}

// The engine's per-feature events (PROTOCOL.md, optional): the roots whose points or players
// differ from the reference's event on the same feature, among `candidates`. nullopt: the
// engine sent none, or they do not read.
std::optional<std::set<size_t>> FromEngineEvents(const Scoring& s, const json& eng,
                                                 const std::vector<size_t>& candidates) {
  if (!eng.contains("score_events") || !eng["score_events"].is_array()) return std::nullopt;
  std::map<int, std::pair<long long, std::set<int>>> by_root;
  for (const json& e : eng["score_events"]) {
    if (!e.is_object() || !e.contains("at") || !e["at"].is_object()) continue;
    const json& at = e["at"];
    if (!at.value("x", json()).is_number_integer() || !at.value("y", json()).is_number_integer() ||
        !at.value("feature", json()).is_string() || !e.value("points", json()).is_number_integer())
      continue;
    auto t = s.after.board.At({at["x"].get<int>(), at["y"].get<int>()});
    if (!t) continue;
    auto seg = model::ParseFeature(s.after.board.rotated(*t), at["feature"].get<std::string>());
    if (!seg.ok()) continue;
    int root = s.after.board.Find(model::Board::Node(*t, *seg));
    auto& slot = by_root[root];
    slot.first += e["points"].get<long long>();
    for (const json& w : e.value("winners", json::array()))
      if (w.is_number_integer()) slot.second.insert(w.get<int>());
  }
  std::set<size_t> out;
  for (size_t c : candidates) {
    const ScoreEvent& ev = s.events[c];
    auto it = by_root.find(ev.root);
    std::set<int> winners(ev.winners.begin(), ev.winners.end());
    if (it == by_root.end() || it->second.first != ev.points || it->second.second != winners)
      out.insert(c);
  }
  return out;
}

}  // namespace

bool ValidQuery(const Query& q) {
  auto pos = model::ParsePosition(q.position, exp::Context("conform"));
  if (!pos.ok()) return false;
  model::ApplyResult pre;
  model::Advance(*pos, pre);
  if (!model::Validate(*pos).empty()) return false;
  if (q.kind == "legal") return !pos->turn.game_over;
  if (q.kind == "apply") {
    if (pos->turn.game_over) return false;
    // The action must still be a move (an illegal one is fine): no input error.
    json r = Answer({{"cmd", "apply"}, {"position", q.position}, {"action", q.action}}, -1);
    return r.value("ok", false);
  }
  return true;
}

model::Status AttributeScores(const Query& q, const json& eng, Finding& f, const EngineAsk& ask) {
  auto s = ReferenceScoring(q);
  if (!s) return model::Status::Ok();
  json ref_scores = json::array();
  for (const auto& p : s->after.players) ref_scores.push_back(p.score);
  const std::vector<long long> d0 = Difference({{"scores", ref_scores}}, eng);
  std::set<int> differ;
  for (size_t i = 0; i < d0.size(); ++i)
    if (d0[i] != 0) differ.insert(static_cast<int>(i));
  // Candidates: the feature events that paid a player whose score differs.
  std::vector<size_t> candidates;
  for (size_t i = 0; i < s->events.size(); ++i) {
    const ScoreEvent& ev = s->events[i];
    if (ev.root < 0) continue;
    if (std::any_of(ev.winners.begin(), ev.winners.end(),
                    [&](int w) { return differ.count(w) > 0; }))
      candidates.push_back(i);
  }
  // Every event an expansion's own points: nothing to narrow.
  if (candidates.empty()) return model::Status::Ok();
  std::set<std::set<std::string>> kinds;
  for (size_t c : candidates) kinds.insert(RulingsOf(s->events[c]));
  auto cite = [&](const std::set<size_t>& events, const char* how) {
    f.rulings.clear();
    for (size_t c : events) {
      auto rs = RulingsOf(s->events[c]);
      f.rulings.insert(rs.begin(), rs.end());
    }
    f.attributed = how;
    f.explain = json::array();
    for (size_t c : events) {
      const ScoreEvent& ev = s->events[c];
      json d = model::DumpScoreEvent(s->after, ev);
      f.explain.push_back({{"feature", d.value("feature", std::string("points"))},
                           {"at", model::FeatureRefJson(s->after, ev.root)},
                           {"formula", ev.formula},
                           {"points", ev.points},
                           {"players", d.value("winner_names", json::array())},
                           {"rulings", ev.rulings}});
    }
  };
  // Every candidate cites the same rulings: those.
  if (kinds.size() == 1) {
    cite(std::set<size_t>(candidates.begin(), candidates.end()), "every event cites the same");
    return model::Status::Ok();
  }
  if (auto from_engine = FromEngineEvents(*s, eng, candidates);
      from_engine && !from_engine->empty()) {
    cite(*from_engine, "engine score events");
    return model::Status::Ok();
  }
  // Recompute with each candidate feature's figures taken back (figures of the query position;
  // one the action places is not there to take back).
  auto pos0 = model::ParsePosition(q.position, exp::Context("attribution"));
  if (!pos0.ok()) return model::Status::Ok();
  std::set<size_t> found;
  std::set<std::set<std::string>> probed_kinds;
  for (size_t c : candidates) {
    const ScoreEvent& ev = s->events[c];
    std::vector<size_t> mine;
    for (size_t fi = 0; fi < pos0->figures.size(); ++fi)
      if (s->after.board.Find(pos0->figures[fi].node) == ev.root) mine.push_back(fi);
    if (mine.empty()) continue;
    Query probe = q;
    probe.position = model::DumpPosition(*pos0);  // every field written out (supplies)
    json& figs = probe.position["figures"];
    if (!figs.is_array() || figs.size() != pos0->figures.size()) continue;
    for (auto it = mine.rbegin(); it != mine.rend(); ++it) {
      json fig = figs[*it];
      figs.erase(*it);
      json& sup = probe.position["players"][fig["owner"].get<int>()]["supply"];
      const std::string kind = fig.value("kind", "meeple");
      sup[kind] = sup.value(kind, 0) + 1;
    }
    if (!ValidQuery(probe)) continue;
    json req = Request(probe);
    auto e = ask(req);
    if (!e.ok()) return e.status();
    json r = Answer(req, -1);
    if (!e->value("ok", false) || !e->contains("scores") || !r.contains("scores")) continue;
    if (q.kind == "apply" && (!e->value("legal", false) || !r.value("legal", false))) continue;
    if (Difference(r, *e) != d0) found.insert(c);
  }
  if (!found.empty()) cite(found, "recomputed without each feature's figures");
  return model::Status::Ok();
}

}  // namespace carc::adjudicator::conform

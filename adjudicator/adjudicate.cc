#include "adjudicator/adjudicate.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "adjudicator/exit_codes.h"
#include "adjudicator/verdict_text.h"
#include "database/model_version.h"
#include "model/core/input_file.h"
#include "model/core/json_reader.h"
#include "model/core/notation.h"
#include "model/core/partial_board.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/core/scoring.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator {

using model::Action;
using model::ApplyResult;
using model::Position;
using nlohmann::json;

namespace {

using database::kModelVersion;  // one version string, from CMake's PROJECT_VERSION

Outcome Error(model::Status s) { return {static_cast<int>(s.code()), json(), s.message()}; }
Outcome Error(int code, std::string msg) { return {code, json(), std::move(msg)}; }

json Reasons(const std::vector<model::Reason>& rs) {
  json out = json::array();
  for (const auto& r : rs) out.push_back({{"ruling", r.ruling}, {"text", r.text}});
  return out;
}

json Scores(const Position& pos) {
  json out = json::array();
  for (const auto& p : pos.players) out.push_back(p.score);
  return out;
}

json Header(const Position& pos, const std::string& source, const char* question) {
  json j;
  j["file"] = source;
  j["model"] = kModelVersion;
  j["edition"] = model::EditionName(pos.cfg().options.edition);
  j["expansions"] = json::array();
  for (const auto* e : pos.cfg().expansions) j["expansions"].push_back(e->Id());
  j["question"] = question;
  return j;
}

// Collects every ruling ID the ruling cites, in first-seen order.
void Cite(json& ruling) {
  std::vector<std::string> ids;
  std::set<std::string> seen;
  auto add = [&](const json& arr) {
    if (!arr.is_array()) return;
    for (const json& r : arr) {
      std::string id = r.is_string() ? r.get<std::string>() : r.value("ruling", "");
      if (!id.empty() && seen.insert(id).second) ids.push_back(id);
    }
  };
  add(ruling.value("reasons", json::array()));
  add(ruling.value("violations", json::array()));
  for (const json& a : ruling.value("actions", json::array())) {
    add(a.value("reasons", json::array()));
    add(a.value("notes", json::array()));
    for (const json& e : a.value("score_events", json::array()))
      add(e.value("rulings", json::array()));
  }
  for (const json& e : ruling.value("score_events", json::array()))
    add(e.value("rulings", json::array()));
  if (ruling.contains("before_question")) {
    const json& b = ruling["before_question"];
    add(b.value("notes", json::array()));
    for (const json& e : b.value("score_events", json::array()))
      add(e.value("rulings", json::array()));
  }
  ruling["cited"] = ids;
}

// Every ruling leaves here: the cited IDs, their texts quoted, and names for player numbers.
void Finish(json& ruling, const Position& pos) {
  Cite(ruling);
  std::vector<std::string> names;
  for (const auto& p : pos.players) names.push_back(p.name);
  NamePlayers(ruling, names);
  QuoteRulings(ruling);
}

json Violations(const std::vector<model::Violation>& vs) {
  json out = json::array();
  for (const auto& v : vs)
    out.push_back({{"ruling", v.ruling}, {"where", v.where}, {"text", v.text}});
  return out;
}

// Every action the step accepts: its own, then the shortcuts (a figure a later step places
// alone, passing this one implicitly: "shortcut": true; perft counts them as pass + figure).
json LegalList(const Position& pos) {
  json out = json::array();
  for (const Action& a : model::LegalActions(pos))
    out.push_back(
        {{"action", model::DumpAction(pos, a)}, {"description", model::Describe(pos, a)}});
  for (const Action& a : model::ShortcutActions(pos))
    out.push_back({{"action", model::DumpAction(pos, a)},
                   {"description", model::Describe(pos, a) + " alone (passes " +
                                       std::string(pos.current_step().Name()) + ")"},
                   {"shortcut", true}});
  return out;
}

// Every score event of a ruling: before the question, of each action, of final scoring.
json AllEvents(const json& ruling) {
  json out = json::array();
  if (ruling.contains("before_question"))
    for (const json& e : ruling["before_question"].value("score_events", json::array()))
      out.push_back(e);
  for (const json& a : ruling.value("actions", json::array()))
    for (const json& e : a.value("score_events", json::array())) out.push_back(e);
  for (const json& e : ruling.value("score_events", json::array())) out.push_back(e);
  return out;
}

// "city at (1, 0) worth 14 to ["Red"]": a claimed event as the claim states it.
std::string ClaimedText(const json& c) {
  std::string out = c["feature"].get<std::string>();
  if (c.contains("at"))
    out += " at (" + std::to_string(c["at"][0].get<int>()) + ", " +
           std::to_string(c["at"][1].get<int>()) + ")";
  if (c.contains("points")) out += " worth " + std::to_string(c["points"].get<int>());
  if (c.contains("to")) out += " to " + c["to"].dump();
  return out;
}

bool SameNames(const json& a, const json& b) {
  std::multiset<std::string> x, y;
  for (const json& n : a) x.insert(n.get<std::string>());
  for (const json& n : b) y.insert(n.get<std::string>());
  return x == y;
}

// A claim about single features (claim.events): each claimed event must match a
// distinct score event of the ruling on every key it states (feature kind, a tile of the
// feature, points to each winner, the winners by name).
void CheckClaimedEvents(const json& claimed, const json& events, json& diffs, json& matched) {
  std::vector<bool> used(events.size(), false);
  for (const json& c : claimed) {
    auto fits_feature = [&](const json& e) {
      if (e.value("feature", "") != c["feature"].get<std::string>()) return false;
      if (!c.contains("at")) return true;
      for (const json& t : e.value("tiles", json::array()))
        if (t == c["at"]) return true;
      return false;
    };
    bool found = false;
    std::string given;
    for (size_t i = 0; i < events.size() && !found; ++i) {
      if (used[i] || !fits_feature(events[i])) continue;
      const json& e = events[i];
      bool ok = (!c.contains("points") || e.value("points", -1) == c["points"]) &&
                (!c.contains("to") || SameNames(e["winner_names"], c["to"]));
      if (ok) {
        used[i] = found = true;
      } else {
        given += std::string(given.empty() ? "" : "; ") + e.value("feature", "") + " (" +
                 e.value("cause", "") + ") on " + e["tiles"].dump() + ": " +
                 std::to_string(e.value("points", 0)) + " to " + e["winner_names"].dump() + " = " +
                 e.value("formula", "");
      }
    }
    if (found)
      matched.push_back(ClaimedText(c) + ": as the rules give");
    else if (given.empty())
      diffs.push_back("claimed " + ClaimedText(c) + ", but no such " +
                      c["feature"].get<std::string>() + " is scored");
    else
      diffs.push_back("claimed " + ClaimedText(c) + ", but the rules give " + given);
  }
}

// The shape of claim.events; "" if fine, else "/<i>/<key>: what is wrong".
std::string CheckClaimedEventsInput(const json& claim, const Position& pos) {
  if (!claim.contains("events")) return "";
  const json& es = claim["events"];
  if (!es.is_array() || es.empty()) return ": expected a non-empty array of score events";
  for (size_t i = 0; i < es.size(); ++i) {
    const std::string at = "/" + std::to_string(i);
    const json& e = es[i];
    if (!e.is_object()) return at + ": expected an object";
    for (auto it = e.begin(); it != e.end(); ++it)
      if (it.key() != "feature" && it.key() != "at" && it.key() != "points" && it.key() != "to")
        return at + "/" + it.key() + ": unknown key (feature, at, points, to)";
    if (!e.contains("feature") || !e["feature"].is_string() ||
        !model::ParseFeatureKind(e["feature"].get<std::string>()))
      return at + "/feature: expected road, city, field or monastery";
    // Each number within the position's range (kMaxJsonInt), as every integer of the file: a
    // tile at 2^32 or 2^32 + 4 points is refused, never echoed and compared as (0, y) or 4.
    if (e.contains("at") && !(e["at"].is_array() && e["at"].size() == 2))
      return at + "/at: expected [x, y] of a tile of the feature";
    for (size_t k = 0; e.contains("at") && k < 2; ++k)
      if (!model::JsonInt(e["at"][k]))
        return at + "/at/" + std::to_string(k) + ": " + model::JsonIntError(e["at"][k]);
    if (e.contains("points") && !model::JsonInt(e["points"]))
      return at + "/points: " + model::JsonIntError(e["points"]);
    // No feature is ever worth less than nothing: a negative value is no claim a player makes.
    if (e.contains("points") && *model::JsonInt(e["points"]) < 0)
      return at + "/points: expected 0 or more points, got " + e["points"].dump();
    if (e.contains("to")) {
      if (!e["to"].is_array()) return at + "/to: expected an array of player names";
      for (size_t k = 0; k < e["to"].size(); ++k) {
        bool known = false;
        for (const auto& p : pos.players) known |= e["to"][k] == p.name;
        if (!known)
          return at + "/to/" + std::to_string(k) + ": expected the name of a player, got " +
                 e["to"][k].dump();
        // BASE-MAJORITY: each winner scores once; a name given twice is refused, not read as a
        // claim that the player is paid twice.
        for (size_t first = 0; first < k; ++first)
          if (e["to"][first] == e["to"][k])
            return at + "/to/" + std::to_string(k) + ": " + e["to"][k].dump() +
                   " given twice (first at /to/" + std::to_string(first) + ")";
      }
    }
    if (!e.contains("points") && !e.contains("to")) return at + ": states neither points nor to";
  }
  return "";
}

// Compares a claim with what the rules give; adds "claim" and returns whether it is upheld.
bool CheckClaim(const json& claim, bool legal, const Position& after, json& ruling) {
  json diffs = json::array(), matched = json::array();
  if (claim.contains("events"))
    CheckClaimedEvents(claim["events"], AllEvents(ruling), diffs, matched);
  if (claim.contains("legal") && claim["legal"].get<bool>() != legal)
    diffs.push_back(std::string("claimed ") + (claim["legal"].get<bool>() ? "legal" : "illegal") +
                    ", but the actions are " + (legal ? "legal" : "illegal"));
  // Scores claimed for actions that are illegal: the illegal action is not taken, so the scores
  // stand where the legal actions before it left them. A claim that says "illegal" may state
  // those; one that does not claims the scores of a turn that does not happen.
  if (claim.contains("scores") && !legal && !claim.contains("legal"))
    diffs.push_back("claimed scores " + claim["scores"].dump() +
                    " of actions that are illegal: the illegal action is not taken, and the "
                    "scores stay " +
                    Scores(after).dump());
  else if (claim.contains("scores") && claim["scores"] != Scores(after))
    diffs.push_back("claimed scores " + claim["scores"].dump() + ", but the rules give " +
                    Scores(after).dump());
  ruling["claim"] = {{"stated", claim}, {"upheld", diffs.empty()}, {"differences", diffs}};
  if (!matched.empty()) ruling["claim"]["matched"] = matched;
  return diffs.empty();
}

// What a pass declines at the decision step `step` (a pass decides the step it is given at),
// as the step says it (Step::Declines, Step::FigurePlaced).
std::string PassText(const Position& pos, const model::Step& step) {
  if (const int k = step.FigurePlaced(pos); k >= 0)
    return "pass: places no " + pos.cfg().figure_kinds[k].name;
  const std::string declines = step.Declines(pos);
  return declines.empty() ? "pass: declines step " + std::string(step.Name()) : "pass: " + declines;
}

// A pass given after the turn it was meant for ended by itself: the steps between the last
// decision and the end of the turn needed none (e.g. place_phantom with the phantom already on
// the board). `last` is the position right after the previous action, `now` the next decision.
// "" when the pass has a step of its own to decide.
std::string SurplusPass(const Position& last, const Position& now, model::PlayerId actor) {
  if (now.turn.game_over) return "";
  if (now.turn.player == actor && now.turn.placed >= 0) return "";
  if (now.current_step().Handles(now, {.type = model::ActionType::kPass})) return "";
  // The decision steps of the ended turn that passed by themselves, each with why.
  const auto& pipeline = last.cfg().pipeline;
  std::vector<std::string> passed;
  for (int i = last.turn.step + 1; i < static_cast<int>(pipeline.size()); ++i) {
    const model::Step& step = *pipeline[i];
    const std::string_view name = step.Name();
    if (name == model::kEndTurn) break;
    const int kind = step.FigurePlaced(last);
    if (kind < 0 && step.Declines(last).empty()) continue;  // not a choice step
    std::string why = "no decision was left there";
    if (kind >= 0) {
      why =
          last.players[actor].name + " has no " + last.cfg().figure_kinds[kind].name + " in supply";
      for (const model::Figure& f : last.figures)
        if (f.owner == actor && f.kind == kind)
          why += " (it stands on the board at " +
                 model::CoordText(last.board.tile(model::Board::TileOf(f.node)).pos) + ")";
    }
    passed.push_back("step " + std::string(name) + " passed by itself (" + why + ")");
  }
  std::string list;
  for (size_t i = 0; i < passed.size(); ++i) list += (i ? "; " : "") + passed[i];
  return "this pass has no step to decide: after the previous action the rest of " +
         last.players[actor].name + "'s turn needed no decision" +
         (list.empty() ? std::string() : ": " + list) + ", and the turn ended (leave the pass out)";
}

// Final scoring in the middle of a turn (BASE-SCORE-TIMING): a road, city or monastery the
// turn's tile completed is scored as completed at the end of the turn, after the choices still
// open (a figure, a card window); final scoring now would value it as unfinished (a completed
// city 2 per tile instead of 4). Such a position is refused, naming the step and the feature;
// "" if the turn's tile completed nothing that holds a figure.
std::string MidTurnScoring(const Position& pos) {
  const std::vector<int> roots = model::CompletedNotYetScored(pos);
  if (roots.empty()) return "";
  std::vector<std::string> features;
  for (int r : roots) features.push_back(model::FeatureText(pos, r));
  std::string list;
  for (size_t i = 0; i < features.size(); ++i)
    list += (i == 0 ? "" : i + 1 == features.size() ? " and " : ", ") + features[i];
  const std::string step(pos.current_step().Name());
  return "the position is in the middle of " + pos.players[pos.turn.player].name +
         "'s turn, at step " + step + ", and the tile placed at " +
         model::CoordText(pos.board.tile(pos.turn.placed).pos) + " completed " + list +
         ", which the turn's step score has not scored yet (BASE-SCORE-TIMING: it is scored as "
         "completed at the end of the turn); final scoring now would value it as unfinished. "
         "State the choice at step " +
         step +
         " (ask apply with the turn's remaining actions, e.g. pass) or the position after the turn";
}

// board_partial: answers the stated tiles decide; the rest is refused, naming what is missing
// (model/core/partial_board.h).
Outcome Partial(const std::string& source, const std::string& where, const std::string& why) {
  return Error(kExitMalformed, source + ":" + where + ": " +
                                   (where == "/board_partial" ? "" : "board_partial: ") + why);
}

Outcome AnswerValidate(const Position& pos, const std::vector<model::Violation>& vs,
                       const std::string& source) {
  json r = Header(pos, source, "validate");
  r["verdict"] = vs.empty() ? "possible" : "impossible-position";
  r["violations"] = Violations(vs);
  Finish(r, pos);
  return {vs.empty() ? kExitUpheld : kExitImpossible, r, ""};
}

// The question of a position file (/question): what is asked, and the claim checked against
// the answer. Unknown keys are refused (a misspelt "legel" was ignored and the claim upheld);
// duplicate keys never get here (model/core/input_file.cc).
struct Question {
  std::string ask;
  json claim = json::object();
  int depth = 0;
};

std::optional<Outcome> ReadClaim(const json& q, const Position& pos, const std::string& source,
                                 Question& out) {
  out.claim = q.value("claim", json::object());
  const json& claim = out.claim;
  if (!claim.is_object())
    return Error(kExitMalformed, source + ":/question/claim: expected an object");
  // A claim that states nothing would be upheld without a check: the verdict is then the
  // actions' own (leave the claim out).
  if (q.contains("claim") && claim.empty())
    return Error(kExitMalformed, source +
                                     ":/question/claim: states nothing (legal, illegal, scores "
                                     "or events); leave it out to ask for the verdict alone");
  if (model::Status s = model::CheckKeys(claim, "/question/claim", {"legal", "scores", "events"});
      !s.ok())
    return Error(kExitMalformed, source + ":" + s.message() + " (legal, scores), or events");
  if (claim.contains("legal") && !claim["legal"].is_boolean())
    return Error(kExitMalformed, source + ":/question/claim/legal: expected true or false");
  if (claim.contains("scores") &&
      (!claim["scores"].is_array() || claim["scores"].size() != pos.players.size()))
    return Error(kExitMalformed, source + ":/question/claim/scores: expected one score per player");
  if (std::string bad = CheckClaimedEventsInput(claim, pos); !bad.empty())
    return Error(kExitMalformed, source + ":/question/claim/events" + bad);
  for (size_t i = 0; claim.contains("scores") && i < claim["scores"].size(); ++i)
    if (!model::JsonInt(claim["scores"][i]))  // a score as a string is malformed, not rejected
      return Error(kExitMalformed, source + ":/question/claim/scores/" + std::to_string(i) + ": " +
                                       model::JsonIntError(claim["scores"][i]));
  return std::nullopt;
}

// A key the asked question does not read is refused, not dropped: actions given with
// final_score, or a claim with validate, would otherwise be answered about the position without
// them. What each ask reads: apply (actions, claim), legal (depth), final_score (claim of scores
// or events), validate (nothing more).
std::optional<Outcome> UnusedQuestionKey(const json& q, const std::string& ask,
                                         const std::string& source) {
  static const std::map<std::string, std::vector<std::string>> kReads = {
      {"apply", {"actions", "claim"}},
      {"legal", {"depth"}},
      {"final_score", {"claim"}},
      {"validate", {}}};
  const auto it = kReads.find(ask);
  if (it == kReads.end()) return std::nullopt;  // an unknown ask is refused where it is answered
  for (const char* key : {"actions", "claim", "depth"}) {
    if (!q.contains(key) || std::count(it->second.begin(), it->second.end(), key)) continue;
    std::string reads;
    for (const std::string& k : it->second) reads += (reads.empty() ? "" : ", ") + k;
    return Error(kExitMalformed, source + ":/question/" + key + ": ask " + ask + " does not read " +
                                     key + " (it reads " +
                                     (reads.empty() ? "nothing more" : reads) +
                                     "); ask the question that uses it");
  }
  if (ask == "final_score" && q.contains("claim") && q["claim"].is_object() &&
      q["claim"].contains("legal"))
    return Error(kExitMalformed, source +
                                     ":/question/claim/legal: ask final_score scores the "
                                     "position; it claims scores or events, not legal");
  return std::nullopt;
}

std::optional<Outcome> ReadQuestion(const json& doc, const Position& pos, const std::string& source,
                                    Question& out) {
  if (!doc.contains("question"))
    return Error(kExitMalformed, source +
                                     ":/question: missing (what is disputed: apply, legal, "
                                     "final_score, validate)");
  const json& q = doc["question"];
  if (!q.is_object())
    return Error(kExitMalformed, source + ":/question: expected an object, got " + q.type_name());
  if (!q.contains("ask") || !q["ask"].is_string())
    return Error(kExitMalformed,
                 source + ":/question/ask: expected one of apply, legal, final_score, validate");
  out.ask = q["ask"].get<std::string>();
  if (model::Status s = model::CheckKeys(q, "/question", {"ask", "actions", "claim", "depth"});
      !s.ok())
    return Error(kExitMalformed, source + ":" + s.message() + " (ask, actions, claim, depth)");
  if (auto e = UnusedQuestionKey(q, out.ask, source)) return e;
  if (auto e = ReadClaim(q, pos, source, out)) return e;
  if (out.ask == "legal" && q.contains("depth")) {
    // Same bound as `carc legal --depth`: a deeper perft would not finish.
    auto depth = model::JsonInt(q["depth"], 0, 8);
    if (!depth)
      return Error(
          kExitMalformed,
          source + ":/question/depth: expected an integer from 0 to 8, got " + q["depth"].dump());
    out.depth = *depth;
  }
  return std::nullopt;
}

// `carc validate`, `score` and `legal` answer about the position whatever the file asks, but a
// question they do not read must still be one, read as `carc adjudicate` reads it: `"dpeth": 2`,
// `"ask": "final_scor"`, a claim of one score for two players or an action turned 45 degrees
// was dropped unread, where `carc adjudicate` of the same file refuses it. The actions are read
// as far as they can be without the board they would meet (CheckActionShape).
std::optional<Outcome> QuestionShape(const json& doc, const Position& pos,
                                     const std::string& source) {
  if (!doc.contains("question")) return std::nullopt;
  const json& q = doc["question"];
  static const std::vector<std::string> kAsks = {"apply", "legal", "final_score", "validate"};
  if (!q.is_object())
    return Error(kExitMalformed, source + ":/question: expected an object, got " + q.type_name());
  if (!q.contains("ask") || !q["ask"].is_string() ||
      !std::count(kAsks.begin(), kAsks.end(), q["ask"].get<std::string>()))
    return Error(kExitMalformed,
                 source + ":/question/ask: expected one of apply, legal, final_score, validate");
  Question question;
  if (auto e = ReadQuestion(doc, pos, source, question)) return e;
  if (!q.contains("actions")) return std::nullopt;
  if (!q["actions"].is_array() || q["actions"].empty())
    return Error(kExitMalformed,
                 source + ":/question/actions: expected a non-empty array of actions");
  for (size_t i = 0; i < q["actions"].size(); ++i)
    if (model::Status s = model::CheckActionShape(
            q["actions"][i], pos, "/question/actions/" + std::to_string(i), exp::Context(source));
        !s.ok())
      return Error(s);
  return std::nullopt;
}

// Final scoring of the position as it stands (no draw, no turn steps run first).
Outcome AnswerScore(Position& pos, const std::string& source) {
  if (std::string why = model::PartialFinalScoring(pos); !why.empty())
    return Partial(source, "/board_partial", why);
  if (std::string why = MidTurnScoring(pos); !why.empty())
    return Error(kExitMalformed, source + ":/turn/step: " + why);
  json r = Header(pos, source, "final_score");
  r["scores_before"] = Scores(pos);
  json ev = json::array();
  if (pos.turn.game_over) {
    r["reasons"] = json::array({{{"ruling", "BASE-END"},
                                 {"text",
                                  "the position is after final scoring (step game_over): "
                                  "nothing is scored again"}}});
  } else {
    for (const auto& e : model::ScoreFinal(pos)) ev.push_back(EventJson(pos, e));
    r["reasons"] = json::array(
        {{{"ruling", "BASE-END"}, {"text", "final scoring of every unfinished feature and farm"}}});
  }
  r["score_events"] = ev;
  r["scores"] = Scores(pos);
  r["verdict"] = "scored";
  Finish(r, pos);
  return {kExitUpheld, r, ""};
}

// Perft to `depth`, divided by the first action. Bounded work (depth 8 from an unknown draw
// order took 27 s): each next depth's count is estimated from the largest growth seen so far;
// past kMaxPerftCount the question is refused, naming the deepest depth within the bound.
std::optional<Outcome> Divide(const Position& pos, int depth, const std::string& source, json& r) {
  constexpr double kMaxPerftCount = 1e6;
  double prev = 1, growth = 1;
  for (int d = 1; d < depth; ++d) {
    const double n = static_cast<double>(model::Perft(pos, d));
    growth = std::max(growth, n / std::max(prev, 1.0));
    if (n * growth > kMaxPerftCount)
      return Error(kExitMalformed,
                   source + ": perft depth " + std::to_string(depth) +
                       " is beyond the work bound for this position (depth " + std::to_string(d) +
                       " already counts " + std::to_string(static_cast<uint64_t>(n)) +
                       " sequences); the deepest depth within it is " + std::to_string(d));
    prev = n;
  }
  r["depth"] = depth;
  json divide = json::array();
  uint64_t total = 0;
  for (const Action& a : model::LegalActions(pos)) {
    Position next = pos;
    model::Apply(next, a);
    uint64_t n = model::Perft(next, depth - 1);
    total += n;
    divide.push_back({{"action", model::DumpAction(pos, a)}, {"count", n}});
  }
  r["count"] = total;
  r["divide"] = divide;
  return std::nullopt;
}

// What running on before the question did (tiles removed as unplaceable, final scoring).
json PreNotes(const Position& pos, const ApplyResult& pre) {
  json out = json::object();
  json notes = Reasons(pre.notes), events = json::array();
  for (const auto& e : pre.scores) events.push_back(EventJson(pos, e));
  if (!notes.empty()) out["notes"] = notes;
  if (!events.empty()) out["score_events"] = events;
  return out;
}

Outcome AnswerLegal(const Position& pos, int depth, const json& pre, const std::string& source) {
  if (std::string why = model::PartialLegalList(pos); !why.empty())
    return Partial(source, "/board_partial", why);
  json r = Header(pos, source, "legal");
  r["step"] = pos.turn.game_over ? "game_over" : std::string(pos.current_step().Name());
  r["player"] = pos.turn.player;
  if (depth > 0) {
    if (auto e = Divide(pos, depth, source, r)) return *e;
  } else {
    r["actions"] = LegalList(pos);
    r["count"] = r["actions"].size();
  }
  r["verdict"] = "listed";
  if (!pre.empty()) r["before_question"] = pre;
  Finish(r, pos);
  return {kExitUpheld, r, ""};
}

// Scoring and notes of an action; scoring that the turn's end brings is reported with the
// action that ended the turn.
void AddEvents(const Position& pos, json& entry, const ApplyResult& ar) {
  for (const auto& e : ar.scores) entry["score_events"].push_back(EventJson(pos, e));
  for (const auto& n : ar.notes) entry["notes"].push_back({{"ruling", n.ruling}, {"text", n.text}});
}

// The actions of an apply question, judged in turn until one is illegal. Actions are applied
// without finishing the turn, so that a later action of the same turn is judged in it (a second
// meeple, a meeple after the phantom).
struct Applied {
  json actions = json::array();
  json reasons;  // of the illegal action
  bool legal = true;
  model::PlayerId actor = 0;  // who took the last action
  // board_partial: the claim is about the turn's scores (or events), so an action whose scoring
  // the stated tiles do not decide is refused; else the turn stops before its scoring (`open`).
  bool scoring_claimed = false;
  std::string open_where, open_why;
};

// BASE-SCORE-TIMING: an action taken after the turn's scoring step (or in a later turn) follows
// a scoring the stated tiles do not decide.
bool PastScoring(const Position& pos) {
  return pos.turn.game_over || pos.turn.placed < 0 ||
         pos.turn.step > pos.cfg().core_step.score_completed;
}

std::optional<Outcome> ApplyOne(Position& pos, const json& ja, const std::string& where,
                                const std::string& source, bool first, Applied& out) {
  const auto ctx = exp::Context(source);
  auto a = model::ParseAction(ja, pos, where, ctx);
  if (!a.ok()) return Error(a.status());
  if (!first && !model::JudgeAfterDecision(pos, *a)) {
    ApplyResult between;
    const Position last = pos;
    model::Advance(pos, between);
    if (!out.open_why.empty() && PastScoring(pos))
      return Partial(source, out.open_where, out.open_why);
    if (a->type == model::ActionType::kPass)
      if (std::string why = SurplusPass(last, pos, out.actor); !why.empty())
        return Error(kExitMalformed, source + ":" + where + ": " + why);
    if (std::string why = model::PartialRun(pos, between); !why.empty())
      return Partial(source, where, why);
    AddEvents(pos, out.actions.back(), between);
    // Re-read the action against the advanced position (feature names refer to its tile).
    a = model::ParseAction(ja, pos, where, ctx);
    if (!a.ok()) return Error(a.status());
  }
  // The parsed action, not the user's JSON (which could be large).
  const bool at_decision = !pos.turn.game_over && pos.current_step().NeedsDecision(pos);
  json entry = {{"action", model::DumpAction(pos, *a)},
                {"description", a->type == model::ActionType::kPass && at_decision
                                    ? PassText(pos, pos.current_step())
                                    : model::Describe(pos, *a)},
                {"score_events", json::array()},
                {"notes", json::array()}};
  out.actor = pos.turn.player;
  std::optional<Position> before;
  if (pos.board_partial) before = pos;
  ApplyResult ar = model::Apply(pos, *a, /*finish_turn=*/false);
  if (!ar.input_error.empty())
    return Error(kExitMalformed, source + ":" + where + ": " + ar.input_error);
  if (before) {
    model::PartialWhy p = model::PartialAction(*before, *a, ar, pos);
    if (!p.why.empty() && (!p.scoring_only || out.scoring_claimed))
      return Partial(source, where, p.why);
    if (!p.why.empty() && out.open_why.empty()) {
      out.open_where = where;
      out.open_why = p.why;
    }
  }
  // A tile the question places while no tile is in hand yet (an expansion's step before the
  // placement waited first, and the draw ran within this action) is named once it is known:
  // in hand after the action, or lying where it was placed.
  if (a->type == model::ActionType::kPlaceTile && a->tile < 0 &&
      entry["description"].get<std::string>().rfind("place tile ? ", 0) == 0) {
    model::Action named = *a;
    if (pos.turn.drawn)
      named.tile = *pos.turn.drawn;
    else if (auto t = pos.board.At(a->pos); t && ar.verdict.legal)
      named.tile = pos.board.tile(*t).type;
    entry["description"] = model::Describe(pos, named);
  }
  entry["legal"] = ar.verdict.legal;
  entry["reasons"] = Reasons(ar.verdict.reasons);
  AddEvents(pos, entry, ar);
  out.legal = ar.verdict.legal;
  if (!out.legal) out.reasons = Reasons(ar.verdict.reasons);
  out.actions.push_back(entry);
  return std::nullopt;
}

// After the last legal action: the rest of the turn runs on; a turn left open (the question
// does not state the choice of a later step) is reported as pending. The turn is open while its
// tile lies placed, or while the player who acted last still acts (an expansion can give a
// further tile in the same turn).
std::optional<Outcome> RunOn(Position& pos, const Question& question, const std::string& source,
                             Applied& applied, json& r) {
  ApplyResult end;
  model::Advance(pos, end);
  if (std::string why = model::PartialRun(pos, end); !why.empty())
    return Partial(source, "/question/actions", why);
  AddEvents(pos, applied.actions.back(), end);
  if (pos.turn.game_over || (pos.turn.placed < 0 && pos.turn.player != applied.actor))
    return std::nullopt;
  std::string step(pos.current_step().Name());
  r["pending"] = {{"player", pos.turn.player}, {"step", step}};
  if (question.claim.contains("scores"))
    return Error(kExitMalformed, source +
                                     ":/question/actions: the turn is not finished, so the "
                                     "claimed scores cannot be checked: the question does not "
                                     "state the choice at step " +
                                     step + " (add the action taken at that step, or a pass)");
  return std::nullopt;
}

// board_partial (BASE-SCORE-TIMING): the turn runs on up to its scoring, which the stated tiles
// do not decide, and stops there; or sooner, at a step whose choice the question does not state.
void RunToScoring(Position& pos, Applied& applied, json& r) {
  ApplyResult end;
  const int score = pos.cfg().core_step.score_completed;
  while (!pos.turn.game_over && pos.turn.step < score && !pos.pipeline_step().NeedsDecision(pos)) {
    pos.pipeline_step().Run(pos, end);
    ++pos.turn.step;
  }
  AddEvents(pos, applied.actions.back(), end);
  r["pending"] = {{"player", pos.turn.player}, {"step", std::string(pos.current_step().Name())}};
  if (pos.turn.step == score) r["pending"]["why"] = "board_partial: " + applied.open_why;
}

Outcome AnswerApply(Position& pos, const json& q, const Question& question, const json& pre,
                    const std::string& source) {
  if (question.ask != "apply")
    return Error(kExitMalformed, source + ":/question/ask: unknown question \"" + question.ask +
                                     "\" (apply, legal, final_score, validate)");
  if (!q.contains("actions") || !q["actions"].is_array() || q["actions"].empty())
    return Error(kExitMalformed,
                 source + ":/question/actions: expected a non-empty array of actions");
  json r = Header(pos, source, "apply");
  r["scores_before"] = Scores(pos);
  if (!pre.empty()) r["before_question"] = pre;
  Applied applied;
  applied.actor = pos.turn.player;
  applied.scoring_claimed = question.claim.contains("scores") || question.claim.contains("events");
  size_t i = 0;
  for (; i < q["actions"].size() && applied.legal; ++i)
    if (auto e = ApplyOne(pos, q["actions"][i], "/question/actions/" + std::to_string(i), source,
                          i == 0, applied))
      return *e;
  // The actions after an illegal one are never taken, but they are read as far as they can be
  // without the board they would meet: a malformed one is refused, not dropped unread.
  for (; i < q["actions"].size(); ++i)
    if (model::Status s = model::CheckActionShape(
            q["actions"][i], pos, "/question/actions/" + std::to_string(i), exp::Context(source));
        !s.ok())
      return Error(s);
  if (applied.legal && !applied.open_why.empty()) {
    RunToScoring(pos, applied, r);
  } else if (applied.legal) {
    if (auto e = RunOn(pos, question, source, applied, r)) return *e;
  }
  if (!applied.legal) r["reasons"] = applied.reasons;
  r["actions"] = applied.actions;
  r["verdict"] = applied.legal ? "legal" : "illegal";
  r["scores"] = Scores(pos);
  r["position"] = model::DumpPosition(pos);
  int code = applied.legal ? kExitUpheld : kExitRejected;
  if (!question.claim.empty()) {
    bool ok = CheckClaim(question.claim, applied.legal, pos, r);
    r["verdict"] = ok ? "upheld" : "rejected";
    code = ok ? kExitUpheld : kExitRejected;
  }
  Finish(r, pos);
  return {code, r, ""};
}

// final_score with a claim: the scores computed, then the claim checked against them.
Outcome AnswerScoreClaim(const Position& pos, const json& claim, const std::string& source) {
  Position scoring = pos;
  Outcome o = AnswerScore(scoring, source);
  if (claim.empty() || !o.error.empty()) return o;
  Position scored = pos;
  for (size_t p = 0; p < pos.players.size(); ++p) scored.players[p].score = o.ruling["scores"][p];
  bool ok = CheckClaim(claim, true, scored, o.ruling);
  o.ruling["verdict"] = ok ? "upheld" : "rejected";
  o.exit_code = ok ? kExitUpheld : kExitRejected;
  return o;
}

// board_partial with a module that did not declare JudgesPartialBoard (its rules look at
// features anywhere on the table): only validate is answered.
std::optional<Outcome> PartialModules(const Position& pos, const std::string& source) {
  if (!pos.board_partial) return std::nullopt;
  for (const model::ModuleDecl& m : pos.cfg().modules)
    if (!m.judges_partial_board)
      return Partial(source, "/rules/expansions",
                     std::string(m.module->Id()) +
                         "'s rules look at features anywhere on the table; a partial board is "
                         "judged for the base game and Phantom (ask validate, or state the "
                         "whole board)");
  return std::nullopt;
}

// The answer first (validation, the question read, the rules run), its text after (Header,
// Finish, verdict_text.h).
Outcome Answer(Position pos, const json& doc, const std::string& source, const Options& opts) {
  if (opts.mode != Mode::kAdjudicate)
    if (auto e = QuestionShape(doc, pos, source)) return *e;
  auto vs = model::Validate(pos);
  if (opts.mode == Mode::kValidate || !vs.empty()) return AnswerValidate(pos, vs, source);
  Question question;
  Mode mode = opts.mode;
  int depth = opts.depth;
  if (mode == Mode::kAdjudicate) {
    // The question in the file; questions other than "apply" are the other modes.
    if (auto e = ReadQuestion(doc, pos, source, question)) return *e;
    if (question.ask == "validate") return AnswerValidate(pos, vs, source);
    if (question.ask == "final_score") mode = Mode::kScore;
    if (question.ask == "legal") mode = Mode::kLegal, depth = question.depth;
  } else if (mode == Mode::kScore && doc.contains("question") && doc["question"].is_object() &&
             doc["question"].value("ask", json()) == "final_score") {
    // `carc score` of a file that asks final scoring with a claim checks the claim too: the
    // same question, not a claim dropped unread.
    if (auto e = ReadQuestion(doc, pos, source, question)) return *e;
  } else if (mode == Mode::kLegal && doc.contains("question") && doc["question"].is_object() &&
             doc["question"].value("ask", json()) == "legal") {
    // `carc legal` of a file that asks legal reads its question (a key it does not have is
    // refused); asked for a count at a depth: that depth, unless --depth states another (then
    // which one was meant is not guessed).
    if (auto e = ReadQuestion(doc, pos, source, question)) return *e;
    if (doc["question"].contains("depth")) {
      if (opts.depth_stated && opts.depth != question.depth)
        return Error(kExitUsage, source + ":/question/depth: the file asks depth " +
                                     std::to_string(question.depth) + ", --depth says " +
                                     std::to_string(opts.depth) + " (give one)");
      depth = question.depth;
    }
  }
  if (auto e = PartialModules(pos, source)) return *e;
  if (mode == Mode::kScore) return AnswerScoreClaim(pos, question.claim, source);
  // A position at a step that needs no decision (a known draw order at step draw) runs on
  // first; what that does is reported.
  ApplyResult pre;
  model::Advance(pos, pre);
  if (std::string why = model::PartialRun(pos, pre); !why.empty())
    return Partial(source, "/board_partial", why);
  const json pre_json = PreNotes(pos, pre);
  if (mode == Mode::kLegal) return AnswerLegal(pos, depth, pre_json, source);
  return AnswerApply(pos, doc["question"], question, pre_json, source);
}

}  // namespace

model::Status CheckPositionJson(const json& doc, const std::string& source) {
  try {
    auto pos = model::ParsePosition(doc, exp::Context(source));
    if (!pos.ok()) return pos.status();
    // The question too, read as `carc adjudicate` reads it: a command that does not answer it
    // (convert, play, render) must not drop or copy a malformed one unread.
    if (auto e = QuestionShape(doc, *pos, source))
      return model::Status(static_cast<model::ErrorCode>(e->exit_code), e->error);
    return model::Status::Ok();
  } catch (const json::exception& e) {
    return model::Status(model::ErrorCode::kMalformed, source + ":/: " + e.what());
  }
}

namespace {

// RunJson, the board read from `board` where the document holds its records (input_file.h).
Outcome RunJsonBoard(const json& doc, const model::CompactBoard* board, const std::string& source,
                     const Options& opts) {
  try {
    auto pos = model::ParsePosition(doc, exp::Context(source), board);
    if (!pos.ok()) return Error(pos.status());
    return Answer(std::move(*pos), doc, source, opts);
  } catch (const json::exception& e) {
    return Error(kExitMalformed, source + ":/: " + e.what());
  }
}

}  // namespace

Outcome RunJson(const json& doc, const std::string& source, const Options& opts) {
  return RunJsonBoard(doc, nullptr, source, opts);
}

Outcome RunFile(const std::string& path, const Options& opts) {
  // The board as records, not a JSON object per tile: a file of 10^6 tiles is read in a
  // fraction of the time and memory (adjudicator/docs/limits.md). Only the position reader
  // and the question's reader see the document.
  model::CompactBoard board;
  auto doc = model::ReadJsonFile(path, &board);
  if (!doc.ok()) return Error(doc.status());
  // The name goes into messages and the ruling's JSON: escaped when not UTF-8.
  if (!model::IsLineArgument(path)) {
    Outcome o = RunJsonBoard(*doc, &board, model::DisplayName(path), opts);
    // A line file's message about the document it stands for gives the column too, as for a
    // line given as the argument (the file is read again only for the message).
    if (!o.error.empty() && path != "-")
      if (auto text = model::ReadInputFile(path); text.ok() && model::LooksLikeLine(*text))
        o.error = model::LocateInLine(*text, model::DisplayName(path), o.error);
    return o;
  }
  // A line given as the argument is named "line", and a message about the JSON it stands for
  // gives the column ("line: column 31 (/board/1/rotation): ..."), not the whole line.
  Outcome o = RunJsonBoard(*doc, &board, "line", opts);
  if (!o.error.empty()) o.error = model::LocateInLine(path, "line", o.error);
  return o;
}

}  // namespace carc::adjudicator

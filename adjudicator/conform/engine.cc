#include "adjudicator/conform/engine.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

#include "adjudicator/conform/process.h"
#include "model/core/core_steps.h"
#include "model/core/input_file.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/core/scoring.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator::conform {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::Position;
using model::ScoreEvent;
using nlohmann::json;

namespace {

enum MutantId {
  kFarmIncompleteCities,
  kMeepleOnOccupiedFeature,
  kPhantomOnMeepleFeature,
  kTieScoresNothing,
  kCityIgnoresArms,
  kRoadIntoField,
  kMonasteryEight,
  kNoReturn,
  kMeepleOnOlderTile,
  kCashOutExcludesOwn,
  kSealScoresThree,
  kUnopenedGiftsOnePoint,
  kSweeperReturnsOnlyOwn,
};

}  // namespace

const std::vector<MutantInfo>& Mutants() {
  static const std::vector<MutantInfo> m = {
      {"farm-incomplete-cities", "BASE-END-FARM", "farms also score 3 per incomplete city"},
      {"meeple-on-occupied-feature", "BASE-MEEPLE-FREE",
       "a meeple may join a feature already occupied through other tiles"},
      {"phantom-on-meeple-feature", "PH-SECOND",
       "the phantom may join the feature the meeple just took"},
      {"tie-scores-nothing", "BASE-MAJORITY", "tied players score nothing for a completed feature"},
      {"city-ignores-arms", "BASE-SCORE-CITY", "completed cities ignore coats of arms"},
      {"road-into-field", "BASE-PLACE-EDGE", "a road edge may meet a field edge"},
      {"monastery-eight", "BASE-SCORE-MONASTERY", "a completed monastery scores 8"},
      {"no-return", "BASE-RETURN", "figures stay on completed features"},
      {"meeple-on-older-tile", "BASE-MEEPLE-TILE",
       "a meeple may go on a free feature of the tile placed last turn too"},
      {"cash-out-excludes-own", "GIFT-CASHOUT",
       "Cash Out pays 2 per figure without the one taken back"},
      {"seal-scores-three", "MSG-RESOLVE", "a message's seal is worth 3 points"},
      {"unopened-gifts-one-point", "GIFT-END", "an unopened gift scores 1 at game end"},
      {"sweeper-returns-only-own", "GIFT-SWEEPER",
       "Road Sweeper returns only the active player's figures"},
  };
  return m;
}

std::optional<int> FindMutant(const std::string& name) {
  for (size_t i = 0; i < Mutants().size(); ++i)
    if (Mutants()[i].name == name) return static_cast<int>(i);
  return std::nullopt;
}

namespace {

json Error(const json& req, const std::string& msg) {
  return {{"id", req.value("id", json())}, {"ok", false}, {"error", msg}};
}

json Scores(const Position& pos) {
  json out = json::array();
  for (const auto& p : pos.players) out.push_back(p.score);
  return out;
}

void AddRulings(std::set<std::string>& out, const std::vector<model::Reason>& rs) {
  for (const auto& r : rs) out.insert(r.ruling);
}
void AddRulings(std::set<std::string>& out, const std::vector<ScoreEvent>& evs) {
  for (const auto& e : evs) out.insert(e.rulings.begin(), e.rulings.end());
}

bool Cites(const ScoreEvent& ev, const char* ruling) {
  return std::find(ev.rulings.begin(), ev.rulings.end(), ruling) != ev.rulings.end();
}

// Score mutants: the points each event's winners gain or lose under the wrong rule.
int Delta(const Position& after, const ScoreEvent& ev, int mutant) {
  switch (mutant) {
    case kFarmIncompleteCities:
      if (ev.kind == model::FeatureKind::kField && ev.cause.IsFinal() && ev.root >= 0) {
        int incomplete = 0;
        for (int c : after.board.TouchedCityRoots(after.board.Find(ev.root)))
          if (!after.board.IsComplete(c)) ++incomplete;
        return 3 * incomplete;
      }
      return 0;
    case kTieScoresNothing:
      return ev.cause.IsCompleted() && ev.winners.size() >= 2 ? -ev.points : 0;
    case kCityIgnoresArms:
      return ev.cause.IsCompleted() && ev.kind == model::FeatureKind::kCity ? -2 * ev.shields : 0;
    case kMonasteryEight:
      return ev.cause.IsCompleted() && ev.kind == model::FeatureKind::kMonastery ? -1 : 0;
    case kCashOutExcludesOwn:
      return Cites(ev, "GIFT-CASHOUT") ? -2 : 0;
    case kSealScoresThree:
      // A seal's points, by the cause's name in position files (MSG-RESOLVE).
      return model::CauseName(ev.cause) == "message-seal" ? 1 : 0;
    case kUnopenedGiftsOnePoint:
      return Cites(ev, "GIFT-END") ? -ev.points / 2 : 0;
    default:
      return 0;
  }
}

// The mutant's scores, and its events as it would state them (points changed by the delta).
void ApplyDeltas(Position& after, std::vector<ScoreEvent>& evs, int mutant) {
  for (auto& ev : evs)
    if (int d = Delta(after, ev, mutant)) {
      for (auto w : ev.winners) after.players[w].score += d;
      ev.points += d;
      for (int& r : ev.receives) r += d;
    }
}

// The score events as the protocol's optional per-feature events (PROTOCOL.md): the model's
// dump plus "at", a feature reference of the feature scored.
json Events(const Position& pos, const std::vector<ScoreEvent>& evs) {
  json events = json::array();
  for (const auto& e : evs) {
    json j = model::DumpScoreEvent(pos, e);
    if (e.root >= 0) j["at"] = model::FeatureRefJson(pos, e.root);
    events.push_back(j);
  }
  return events;
}

// Legal-list mutants: actions the wrong rule adds.
void ExtraActions(const Position& pos, int mutant, std::vector<Action>& out) {
  const auto& cfg = pos.cfg();
  if (pos.turn.game_over) return;
  const std::string_view step = pos.current_step().Name();
  const int placed = pos.turn.placed;
  if (mutant == kMeepleOnOccupiedFeature && step == model::kPlaceFigure && placed >= 0 &&
      pos.players[pos.turn.player].supply[model::kMeeple] > 0) {
    const auto& rt = pos.board.rotated(placed);
    for (size_t i = 0; i < rt.segments.size(); ++i)
      if (!pos.FiguresIn(pos.board.Find(model::Board::Node(placed, static_cast<int>(i)))).empty())
        out.push_back({.type = ActionType::kPlaceFigure,
                       .pos = pos.board.tile(placed).pos,
                       .has_pos = true,
                       .figure_kind = model::kMeeple,
                       .segment = static_cast<int>(i)});
  }
  // The figure placed at a step of its own (the phantom's), asked of the configuration.
  if (const int kind = cfg.FigureKindPlacedAt(pos.turn.step);
      mutant == kPhantomOnMeepleFeature && kind >= 0) {
    if (pos.players[pos.turn.player].supply[kind] > 0)
      for (int f : pos.turn.figures_this_turn)
        if (pos.figures[f].kind == model::kMeeple &&
            model::Board::TileOf(pos.figures[f].node) == placed)
          out.push_back({.type = ActionType::kPlaceFigure,
                         .pos = pos.board.tile(placed).pos,
                         .has_pos = true,
                         .figure_kind = kind,
                         .segment = model::Board::SegmentOf(pos.figures[f].node)});
  }
  if (mutant == kMeepleOnOlderTile && step == model::kPlaceFigure && placed > 0 &&
      pos.players[pos.turn.player].supply[model::kMeeple] > 0) {
    const int older = placed - 1;  // the tile placed just before (board order)
    const auto& rt = pos.board.rotated(older);
    for (size_t i = 0; i < rt.segments.size(); ++i)
      if (pos.FiguresIn(pos.board.Find(model::Board::Node(older, static_cast<int>(i)))).empty())
        out.push_back({.type = ActionType::kPlaceFigure,
                       .pos = pos.board.tile(older).pos,
                       .has_pos = true,
                       .figure_kind = model::kMeeple,
                       .segment = static_cast<int>(i)});
  }
  if (mutant == kRoadIntoField && step == model::kPlaceTile && pos.turn.drawn) {
    const model::TileType t = *pos.turn.drawn;
    for (model::Coord c : pos.board.Frontier())
      for (model::Rotation r : cfg.catalog->distinct_rotations(t)) {
        if (pos.board.Check(t, c, r).ok()) continue;
        const auto& rt = cfg.catalog->rotated(t, r);
        bool ok = true, mismatch = false;
        for (int side = 0; side < 4 && ok; ++side) {
          auto n = pos.board.At(model::Neighbour(c, side));
          if (!n) continue;
          auto mine = rt.edges[side], theirs = pos.board.rotated(*n).edges[(side + 2) % 4];
          if (mine == theirs) continue;
          bool road_field = (mine == model::EdgeType::kRoad && theirs == model::EdgeType::kField) ||
                            (mine == model::EdgeType::kField && theirs == model::EdgeType::kRoad);
          ok = road_field;
          mismatch = true;
        }
        if (ok && mismatch)
          out.push_back({.type = ActionType::kPlaceTile, .tile = t, .pos = c, .rotation = r});
      }
  }
}

// Reads the request's position and runs it on to a decision.
model::StatusOr<Position> ReadPosition(const json& req) {
  if (!req.contains("position")) return model::Status(model::ErrorCode::kMalformed, "no position");
  auto pos = model::ParsePosition(req["position"], exp::Context("position"));
  if (!pos.ok()) return pos.status();
  ApplyResult pre;
  model::Advance(*pos, pre);
  return pos;
}

json Legal(const json& req, int mutant) {
  auto pos = ReadPosition(req);
  if (!pos.ok()) return Error(req, pos.status().message());
  std::vector<Action> actions = model::LegalActions(*pos);
  if (mutant >= 0) ExtraActions(*pos, mutant, actions);
  json list = json::array();
  for (const Action& a : actions) list.push_back(model::DumpAction(*pos, a));
  // A figure a later step places alone, passing this step (PH-ALONE): listed as `carc legal`
  // lists it, marked "shortcut": true; Apply accepts it (PROTOCOL.md: optional to list).
  for (const Action& a : model::ShortcutActions(*pos)) {
    json j = model::DumpAction(*pos, a);
    j["shortcut"] = true;
    list.push_back(j);
  }
  return {{"id", req.value("id", json())}, {"ok", true}, {"actions", list}};
}

json ApplyOne(const json& req, int mutant) {
  auto pos = ReadPosition(req);
  if (!pos.ok()) return Error(req, pos.status().message());
  if (!req.contains("action")) return Error(req, "no action");
  auto ctx = exp::Context("action");
  json action = req["action"];
  // The marker of a listed shortcut: true or false, as the legal list writes it.
  if (action.is_object() && action.contains("shortcut")) {
    if (!action["shortcut"].is_boolean())
      return Error(req, "/action/shortcut: expected true or false, got " +
                            action["shortcut"].dump().substr(0, 100));
    action.erase("shortcut");
  }
  auto a = model::ParseAction(action, *pos, "/action", ctx);
  if (!a.ok()) return Error(req, a.status().message());
  json out = {{"id", req.value("id", json())}, {"ok", true}};
  // Mutants that list extra actions also accept them.
  std::vector<Action> extra;
  if (mutant >= 0) ExtraActions(*pos, mutant, extra);
  bool forced = std::find(extra.begin(), extra.end(), *a) != extra.end();
  Position before = *pos;
  ApplyResult r;
  if (forced) {
    if (a->type == ActionType::kPlaceTile) {
      pos->turn.placed = pos->board.Place(a->tile, a->pos, a->rotation);
      pos->turn.drawn.reset();
    } else {
      model::PlaceFigureAt(*pos, pos->turn.player, a->figure_kind,
                           model::Board::Node(*pos->board.At(a->pos), a->segment));
      pos->turn.decided |= 1u << pos->turn.step;
    }
    model::Advance(*pos, r);
  } else {
    r = model::Apply(*pos, *a);
  }
  if (!r.input_error.empty()) return Error(req, r.input_error);
  std::set<std::string> rulings, verdict_rulings, note_rulings;
  AddRulings(verdict_rulings, r.verdict.reasons);
  AddRulings(note_rulings, r.notes);
  rulings = verdict_rulings;
  rulings.insert(note_rulings.begin(), note_rulings.end());
  AddRulings(rulings, r.scores);
  // Extras beyond the protocol (not compared): which rulings decided legality, which the
  // things that happened (figures returned, tiles discarded, the end of the game).
  out["rulings"] = rulings;
  out["verdict_rulings"] = verdict_rulings;
  out["note_rulings"] = note_rulings;
  out["legal"] = r.verdict.legal;
  json reasons = json::array();
  for (const auto& rs : r.verdict.reasons)
    reasons.push_back({{"ruling", rs.ruling}, {"text", rs.text}});
  out["verdict_reasons"] = reasons;
  if (!r.verdict.legal) {
    out["reason"] = r.verdict.reasons.empty() ? "" : r.verdict.reasons[0].text;
    return out;
  }
  if (mutant >= 0) ApplyDeltas(*pos, r.scores, mutant);
  json position = model::DumpPosition(*pos);
  if (mutant == kNoReturn || mutant == kSweeperReturnsOnlyOwn) {
    // Put back the figures the completed features (the swept road: other players') returned.
    for (const ScoreEvent& ev : r.scores) {
      const bool swept = Cites(ev, "GIFT-SWEEPER") && ev.root >= 0;
      if (mutant == kNoReturn ? !ev.cause.IsCompleted() : !swept) continue;
      for (int f : before.FiguresIn(ev.root)) {
        const model::Figure& fig = before.figures[f];
        if (mutant == kSweeperReturnsOnlyOwn && fig.owner == before.turn.player) continue;
        json fj = model::FeatureRefJson(before, fig.node);
        fj["owner"] = fig.owner;
        fj["kind"] = before.cfg().figure_kinds[fig.kind].name;
        position["figures"].push_back(fj);
        position["players"][fig.owner]["supply"][before.cfg().figure_kinds[fig.kind].name] =
            position["players"][fig.owner]["supply"][before.cfg().figure_kinds[fig.kind].name]
                .get<int>() -
            1;
      }
    }
  }
  out["scores"] = Scores(*pos);
  out["position"] = position;
  out["score_events"] = Events(*pos, r.scores);
  return out;
}

json FinalScore(const json& req, int mutant) {
  auto parsed = model::ParsePosition(req.value("position", json()), exp::Context("position"));
  if (!parsed.ok()) return Error(req, parsed.status().message());
  Position& pos = *parsed;
  std::vector<ScoreEvent> evs;
  if (!pos.turn.game_over) evs = model::ScoreFinal(pos);
  if (mutant >= 0) ApplyDeltas(pos, evs, mutant);
  std::set<std::string> rulings = {"BASE-END"};
  AddRulings(rulings, evs);
  return {{"id", req.value("id", json())},
          {"ok", true},
          {"scores", Scores(pos)},
          {"score_events", Events(pos, evs)},
          {"rulings", rulings}};
}

}  // namespace

json Answer(const json& req, int mutant) {
  try {
    if (!req.is_object() || !req.contains("cmd") || !req["cmd"].is_string())
      return Error(req.is_object() ? req : json::object(), "expected {\"id\", \"cmd\", ...}");
    const std::string cmd = req["cmd"];
    // Each request's fields (PROTOCOL.md), and nothing else: a surplus or misspelt one
    // ("positon", an action beside legal) is refused naming it, not answered as if absent.
    static const std::map<std::string, std::set<std::string>> kFields = {
        {"hello", {"id", "cmd", "protocol"}},
        {"legal", {"id", "cmd", "position"}},
        {"apply", {"id", "cmd", "position", "action"}},
        {"final_score", {"id", "cmd", "position"}},
        {"quit", {"id", "cmd"}}};
    if (auto known = kFields.find(cmd); known != kFields.end())
      for (auto it = req.begin(); it != req.end(); ++it)
        if (!known->second.count(it.key())) {
          std::string fields;
          for (const std::string& f : known->second) fields += (fields.empty() ? "" : ", ") + f;
          return Error(
              req, "/" + it.key().substr(0, 100) + ": not a field of " + cmd + " (" + fields + ")");
        }
    if (cmd == "hello") {
      json exps = json::array();
      for (const auto& id : exp::Ids()) exps.push_back(id);
      json deviations = json::array();
      std::string name = "carc reference model";
      if (mutant >= 0) {
        name += " (mutant " + Mutants()[mutant].name + ")";
      }
      return {{"id", req.value("id", json())},
              {"ok", true},
              {"protocol", kProtocolVersion},
              {"name", name},
              {"expansions", exps},
              {"options",
               {{"edition", {"C1", "C2", "C3"}},
                {"farm_scoring", {"per-farm", "c1-four-per-city", "c1-three-per-city-once"}}}},
              {"deviations", deviations}};
    }
    if (cmd == "legal") return Legal(req, mutant);
    if (cmd == "apply") return ApplyOne(req, mutant);
    if (cmd == "final_score") return FinalScore(req, mutant);
    if (cmd == "quit") return {{"id", req.value("id", json())}, {"ok", true}};
    return Error(req, "unknown command");
  } catch (const json::exception& e) {
    return Error(req.is_object() ? req : json::object(), e.what());
  }
}

// One request line, at most kMaxAnswerBytes (the checker's limit on an answer line, PROTOCOL.md
// Limits): a longer one is read to its end and dropped, never held. False at the end of input.
bool ReadRequestLine(std::istream& in, std::string& line, bool& too_long) {
  line.clear();
  too_long = false;
  std::streambuf* sb = in.rdbuf();
  for (;;) {
    const int c = sb->sbumpc();
    if (c == std::char_traits<char>::eof()) return !line.empty() || too_long;
    if (c == '\n') return true;
    if (line.size() < kMaxAnswerBytes)
      line.push_back(static_cast<char>(c));
    else
      too_long = true;
  }
}

int RunEngine(std::istream& in, std::ostream& out, int mutant) {
  std::string line;
  bool too_long = false;
  while (ReadRequestLine(in, line, too_long)) {
    if (too_long) {
      out << json({{"id", nullptr},
                   {"ok", false},
                   {"error", "a request line longer than " + std::to_string(kMaxAnswerBytes >> 20) +
                                 " MiB, the limit"}})
                 .dump()
          << std::endl;
      continue;
    }
    if (line.empty()) continue;
    // The project's one strict reader: a request with a repeated key is refused, not read as
    // its last value.
    auto parsed = model::ParseJsonText(line, "request");
    if (!parsed.ok()) {
      out << json({{"id", nullptr},
                   {"ok", false},
                   {"error", "not JSON: " + parsed.status().message()}})
                 .dump()
          << std::endl;
      continue;
    }
    const json& req = *parsed;
    // A request read from the protocol carries its number, and a hello the protocol version,
    // as integers, as the checker reads them in answers: 1.0 or "1" is another value, not read
    // as 1. (The checker's own calls of Answer send no id.)
    json answer;
    if (req.is_object() &&
        (!req.contains("id") || !req["id"].is_number_integer() || req["id"].get<int64_t>() < 0))
      answer = Error(req, "/id: expected the request's number (an integer, 0 or more)");
    else if (req.is_object() && req.value("cmd", json()) == json("hello") &&
             (!req.contains("protocol") || !req["protocol"].is_number_integer() ||
              req["protocol"] != json(kProtocolVersion)))
      answer = Error(req, "/protocol: this adapter speaks protocol " +
                              std::to_string(kProtocolVersion) + " (an integer)");
    else
      answer = Answer(req, mutant);
    out << answer.dump() << std::endl;
    // Compared, never read as a string: a request whose cmd is no string (5, null) has been
    // answered ok: false above, and the next request is read; so is a quit refused (a surplus
    // field), which ends nothing.
    if (req.is_object() && req.contains("cmd") && req["cmd"] == json("quit") &&
        answer.value("ok", false))
      break;
  }
  return 0;
}

}  // namespace carc::adjudicator::conform

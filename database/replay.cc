#include "database/replay.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::database {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::ErrorCode;
using model::Position;
using model::Status;
using nlohmann::json;

const char* GameVerdictName(GameVerdict v) {
  switch (v) {
    case GameVerdict::kConsistent:
      return "consistent";
    case GameVerdict::kIllegal:
      return "illegal";
    case GameVerdict::kScoreMismatch:
      return "score-mismatch";
  }
  return "?";
}

namespace {

std::vector<int> Scores(const Position& pos) {
  std::vector<int> out;
  for (const auto& p : pos.players) out.push_back(p.score);
  return out;
}

// Messages of the start position name the record's fields, not the position file's.
std::string RecordPointer(std::string msg) {
  for (auto [from, to] : {std::pair<std::string, std::string>{":/board", ":/start"},
                          {":/supply/draw_order", ":/draw_order"}}) {
    if (auto at = msg.find(from); at != std::string::npos) msg.replace(at, from.size(), to);
  }
  return msg;
}

class Replayer {
 public:
  // `explain` false: the lean path (Position::explain), for a verdict that is only
  // "consistent"; any other verdict is worked out again explained (Replay below).
  Replayer(const GameRecord& r, const std::string& source, bool with_log, int stop_before = 0,
           bool explain = true, const SourceMap* from = nullptr)
      : rec_(r),
        from_(from),
        source_(source),
        with_log_(with_log),
        explain_(explain || with_log),
        stop_before_(stop_before),
        ctx_(exp::Context(source)) {}

  model::StatusOr<ReplayResult> Run() {
    auto parsed = model::ParsePosition(StartPosition(rec_), ctx_);
    if (!parsed.ok())
      return Status(parsed.status().code(), RecordPointer(parsed.status().message()));
    pos_ = std::move(*parsed);
    pos_.explain = explain_;
    if (Status s = CheckSetup(); !s.ok()) return s;
    ApplyResult pre;
    model::Advance(pos_, pre);  // the first draw (and any unplaceable tile before it)
    for (size_t t = 0; t < rec_.turns.size(); ++t) {
      if (static_cast<int>(t) + 1 == stop_before_) return Stop();
      auto done = Turn(t);
      if (!done.ok()) return done.status();
      if (*done) return std::move(res_);
    }
    if (stop_before_ > 0) return Stop();  // after the last turn, before final claims
    res_.finished = pos_.turn.game_over;
    res_.final_model = Scores(pos_);
    if (rec_.final_scores) {
      if (!res_.finished) {
        // BASE-END: final scoring comes only when the last tile has been placed.
        Fail(GameVerdict::kScoreMismatch, 0, -1,
             "final scores claimed, but the game is not over: " +
                 std::to_string(pos_.supply.total()) + " tiles left to draw",
             {"BASE-END"});
      } else if (*rec_.final_scores != res_.final_model) {
        Fail(GameVerdict::kScoreMismatch, 0, -1,
             "final scores claimed " + json(*rec_.final_scores).dump() + ", the rules give " +
                 json(res_.final_model).dump() + Breakdown(final_events_),
             RulingsOf(final_events_));
      }
    }
    if (res_.verdict == GameVerdict::kConsistent)
      res_.text = "all " + std::to_string(rec_.turns.size()) + " turns legal" +
                  (AnyClaim() ? ", scores as claimed" : "") +
                  (res_.finished ? "; game over" : "; game not finished");
    return std::move(res_);
  }

 private:
  std::string ActionWhere(size_t t, size_t i) const {
    if (from_ && t < from_->actions.size() && i < from_->actions[t].size())
      return from_->actions[t][i];
    return "/turns/" + std::to_string(t) + "/actions/" + std::to_string(i);
  }
  const SourceMap::FigureId* FigureIdOf(size_t t, size_t i) const {
    if (!from_ || t >= from_->figure_ids.size() || i >= from_->figure_ids[t].size() ||
        from_->figure_ids[t][i].id.empty())
      return nullptr;
    return &from_->figure_ids[t][i];
  }
  static std::string Where(const std::vector<std::string>* mapped, size_t i,
                           const std::string& own) {
    return mapped && i < mapped->size() ? (*mapped)[i] : own + "/" + std::to_string(i);
  }

  // BASE-SETUP: the start tiles and every draw come from one tile set, so no tile appears more
  // often than the set has it; BASE-PLACE-EDGE, BASE-PLACE-ADJ: the start tiles match and touch
  // one another (model::Validate of the start position). A record that breaks either cannot
  // arise: it is refused where it first becomes impossible (a start tile, then a draw in order),
  // never replayed to a verdict. Tiles placed in turns meet the tile step's checks instead.
  Status CheckSetup() const {
    const model::TileCatalog& cat = *pos_.cfg().catalog;
    std::vector<int> used(cat.size(), 0);
    auto count = [&](model::TileType t, const std::string& where, const char* what) {
      if (++used[t] <= cat.def(t).count) return Status::Ok();
      return Status(ErrorCode::kMalformed,
                    source_ + ":" + where + ": tile " + cat.Name(t) + " " + what + ", its " +
                        std::to_string(used[t]) + Ordinal(used[t]) +
                        " in the game (start tiles and draws), but the set has " +
                        std::to_string(cat.def(t).count) + " (BASE-SETUP): no game can reach this");
    };
    const auto* start = from_ ? &from_->start : nullptr;
    const auto* draws = from_ ? &from_->draws : nullptr;
    // The start entry where the start first becomes impossible: a tile beyond the set's count,
    // or one that does not match or touch the others (Validate names the entry on the board).
    Status first = Status::Ok();
    size_t first_at = SIZE_MAX;
    for (int i = 0; i < pos_.board.size() && first.ok(); ++i) {
      first = count(pos_.board.tile(i).type, Where(start, i, "/start"), "on the table");
      if (!first.ok()) first_at = i;
    }
    for (const model::Violation& v : model::Validate(pos_)) {
      // The tile counts are checked here, naming the entry; one player is allowed (a solo
      // study, GAME_RECORD_FORMAT.md).
      if (v.ruling == "BASE-SETUP") continue;
      size_t at = 0;
      std::string where = v.where;
      if (where.rfind("/board/", 0) == 0 && where.size() > 7 &&
          std::isdigit(static_cast<unsigned char>(where[7]))) {
        // "/board/3" (or "/board/3/..."): start entry 3, by the record's or the file's pointer.
        char* rest = nullptr;
        at = std::strtoul(where.c_str() + 7, &rest, 10);
        where = Where(start, at, "/start") + rest;
      }
      if (at < first_at) {
        first_at = at;
        first = Status(ErrorCode::kMalformed, source_ + ":" + where + ": " + v.text + " (" +
                                                  v.ruling + "): no game can reach this start");
      }
    }
    if (!first.ok()) return first;
    for (size_t d = 0; d < pos_.supply.order.size(); ++d)
      if (Status s = count(pos_.supply.order[d], Where(draws, d, "/draw_order"), "drawn"); !s.ok())
        return s;
    return Status::Ok();
  }

  static std::string Ordinal(int n) {
    if (n % 100 >= 11 && n % 100 <= 13) return "th";
    return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  }

  // BASE-MEEPLE-SUPPLY: a figure is placed from its owner's supply, so a figure the file names
  // (a .jcz meeple id) cannot be deployed again while it stands on the board: it comes back only
  // when its feature is scored.
  Status CheckFigureFree(const SourceMap::FigureId& id) const {
    auto it = deployed_.find(id.id);
    if (it == deployed_.end()) return Status::Ok();
    const model::Figure& placed = it->second.first;
    for (const model::Figure& f : pos_.figures)
      if (f.node == placed.node && f.owner == placed.owner && f.kind == placed.kind) {
        const model::Coord c = pos_.board.tile(model::Board::TileOf(f.node)).pos;
        return Status(ErrorCode::kMalformed,
                      source_ + ":" + id.where + ": figure " + id.id +
                          " is on the board: deployed at " + it->second.second + ", it still " +
                          "stands on the tile at (" + std::to_string(c.x) + ", " +
                          std::to_string(c.y) + ") (BASE-MEEPLE-SUPPLY: a figure is placed " +
                          "from the supply and returns only when its feature is scored)");
      }
    return Status::Ok();
  }

  // The position reached, every turn before it legal and scored as claimed.
  ReplayResult Stop() {
    res_.position = model::DumpPosition(pos_);
    res_.finished = pos_.turn.game_over;
    res_.final_model = Scores(pos_);
    res_.text = "position before turn " + std::to_string(stop_before_) + ": " +
                std::to_string(stop_before_ - 1) + " turns replayed, all legal" +
                (AnyClaim() ? ", scores as claimed" : "");
    return std::move(res_);
  }

  // Replays turn t; true when the verdict is decided (the replay stops there).
  model::StatusOr<bool> Turn(size_t t) {
    const int turn_no = static_cast<int>(t) + 1;
    std::vector<model::ScoreEvent> events;
    // The player by the name the record gives (seat = index in the record's players).
    json entry;
    if (with_log_)
      entry = {{"turn", turn_no},
               {"player", pos_.players[pos_.turn.player].name},
               {"seat", pos_.turn.player},
               {"actions", json::array()},
               {"score_events", json::array()},
               {"notes", json::array()}};
    auto collect = [&](const ApplyResult& ar) {
      for (const auto& e : ar.scores) {
        events.push_back(e);
        if (e.cause.IsFinal()) final_events_.push_back(e);
        if (with_log_) entry["score_events"].push_back(model::DumpScoreEvent(pos_, e));
      }
      if (with_log_)
        for (const auto& n : ar.notes)
          entry["notes"].push_back({{"ruling", n.ruling}, {"text", n.text}});
    };
    if (pos_.turn.game_over) {
      // BASE-END: the game ends when the last tile has been placed (and scored).
      Fail(GameVerdict::kIllegal, turn_no, 0,
           "turn " + std::to_string(turn_no) + ": the game is already over (no tile left)",
           {"BASE-END"});
      return true;
    }
    const int player = pos_.turn.player;
    const auto& actions = rec_.turns[t].actions;
    for (size_t i = 0; i < actions.size(); ++i) {
      const std::string where = ActionWhere(t, i);
      auto a = model::ParseAction(actions[i], pos_, where, ctx_);
      if (!a.ok()) return a.status();
      if (i > 0 && !model::JudgeAfterDecision(pos_, *a)) {
        // The previous step is decided: run the steps that need no decision, as
        // `carc adjudicate` does, then read the action against the position reached.
        ApplyResult between;
        model::Advance(pos_, between);
        collect(between);
        if (pos_.turn.game_over || pos_.turn.player != player)
          return Status(ErrorCode::kMalformed, source_ + ":" + where +
                                                   ": the turn already ended after the previous " +
                                                   "action; this action belongs to the next turn");
        a = model::ParseAction(actions[i], pos_, where, ctx_);
        if (!a.ok()) return a.status();
      }
      // Read only by the log and an illegal action's verdict (both explained).
      const std::string described = explain_ ? model::Describe(pos_, *a) : std::string();
      const SourceMap::FigureId* id = FigureIdOf(t, i);
      if (id && a->type == ActionType::kPlaceFigure)
        if (Status s = CheckFigureFree(*id); !s.ok()) return s;
      ApplyResult ar = model::Apply(pos_, *a, /*finish_turn=*/false);
      if (!ar.input_error.empty())
        return Status(ErrorCode::kMalformed, source_ + ":" + where + ": " + ar.input_error);
      if (id && a->type == ActionType::kPlaceFigure && ar.verdict.legal &&
          !pos_.turn.figures_this_turn.empty())
        deployed_[id->id] = {pos_.figures[pos_.turn.figures_this_turn.back()], id->where};
      if (with_log_)
        entry["actions"].push_back(
            {{"action", actions[i]}, {"description", described}, {"legal", ar.verdict.legal}});
      collect(ar);
      if (!ar.verdict.legal) {
        std::vector<std::string> ids;
        std::string why;
        for (const auto& r : ar.verdict.reasons) {
          ids.push_back(r.ruling);
          why += (why.empty() ? "" : "; ") + r.ruling + ": " + r.text;
        }
        Fail(GameVerdict::kIllegal, turn_no, static_cast<int>(i),
             "turn " + std::to_string(turn_no) + ", action " + std::to_string(i) + " (" +
                 described + ") is illegal: " + why,
             ids);
        Log(entry);
        return true;
      }
    }
    ApplyResult end;
    model::Advance(pos_, end);
    collect(end);
    // Steps left undecided (a figure step after a tile) are passed, as a player ending the turn.
    while (!pos_.turn.game_over && pos_.turn.player == player) {
      ApplyResult ar = model::Apply(pos_, {.type = ActionType::kPass});
      if (!ar.input_error.empty() || !ar.verdict.legal) {
        std::vector<std::string> ids;
        for (const auto& r : ar.verdict.reasons) ids.push_back(r.ruling);
        Fail(GameVerdict::kIllegal, turn_no, -1,
             "turn " + std::to_string(turn_no) + " is incomplete: step " +
                 std::string(pos_.current_step().Name()) + " needs a decision" +
                 (ar.verdict.reasons.empty() ? "" : " (" + ar.verdict.reasons[0].text + ")"),
             ids);
        Log(entry);
        return true;
      }
      collect(ar);
    }
    const std::vector<int> now = Scores(pos_);
    res_.model_scores.push_back(now);
    entry["scores"] = now;
    Log(entry);
    const auto& claimed = rec_.turns[t].scores;
    if (claimed && *claimed != now) {
      Fail(GameVerdict::kScoreMismatch, turn_no, -1,
           "turn " + std::to_string(turn_no) + ": claimed scores " + json(*claimed).dump() +
               ", the rules give " + json(now).dump() + Breakdown(events),
           RulingsOf(events));
      return true;
    }
    return false;
  }

  void Fail(GameVerdict v, int turn, int action, std::string text,
            const std::vector<std::string>& ids) {
    res_.verdict = v;
    res_.turn = turn;
    res_.action = action;
    res_.text = std::move(text);
    std::set<std::string> seen;
    for (const auto& id : ids)
      if (!id.empty() && seen.insert(id).second) res_.cited.push_back(id);
    res_.finished = pos_.turn.game_over;
    res_.final_model = Scores(pos_);
  }

  void Log(json& entry) {
    if (with_log_) res_.log.push_back(std::move(entry));
  }

  bool AnyClaim() const {
    if (rec_.final_scores) return true;
    for (const auto& t : rec_.turns)
      if (t.scores) return true;
    return false;
  }

  static std::vector<std::string> RulingsOf(const std::vector<model::ScoreEvent>& evs) {
    std::vector<std::string> ids;
    for (const auto& e : evs) ids.insert(ids.end(), e.rulings.begin(), e.rulings.end());
    return ids;
  }

  // The score events, each winner by the name the record gives.
  std::string Breakdown(const std::vector<model::ScoreEvent>& evs) const {
    if (evs.empty()) return " (the rules score nothing here)";
    std::string out = " (";
    for (size_t i = 0; i < evs.size(); ++i) {
      const auto& e = evs[i];
      json winners = json::array();  // as `carc adjudicate` writes them: ["Anna"]
      for (auto p : e.winners)
        winners.push_back(static_cast<size_t>(p) < pos_.players.size() ? pos_.players[p].name
                                                                       : std::to_string(p));
      out += (i ? "; " : "") + std::string(model::FeatureKindName(e.kind)) + " " + e.formula +
             " = " + std::to_string(e.points) + " to " + winners.dump();
    }
    return out + ")";
  }

  const GameRecord& rec_;
  const SourceMap* from_;
  const std::string& source_;
  const bool with_log_;
  const bool explain_;
  const int stop_before_;  // ReplayToTurn's turn; 0: replay the whole record
  const model::IoContext ctx_;
  Position pos_;
  ReplayResult res_;
  std::vector<model::ScoreEvent> final_events_;
  // A figure id (SourceMap) -> its figure as deployed, and where in the file.
  std::map<std::string, std::pair<model::Figure, std::string>> deployed_;
};

}  // namespace

model::StatusOr<ReplayResult> Replay(const GameRecord& r, const std::string& source, bool with_log,
                                     const SourceMap* from) {
  if (with_log) return Replayer(r, source, true, 0, true, from).Run();
  // Most records are consistent: the lean path decides that (same legality and scores as the
  // explained path, property-tests/lean_explained.cc) without building reason or score text.
  // Any other outcome (an illegal action, a score that differs, bad input) is replayed
  // explained, so its verdict, breakdown and citations are the explained ones.
  auto lean = Replayer(r, source, false, 0, /*explain=*/false, from).Run();
  if (lean.ok() && lean->verdict == GameVerdict::kConsistent) return lean;
  return Replayer(r, source, false, 0, true, from).Run();
}

model::StatusOr<ReplayResult> ReplayToTurn(const GameRecord& r, const std::string& source,
                                           int turn) {
  const int last = static_cast<int>(r.turns.size()) + 1;
  if (turn < 1 || turn > last)
    return Status(ErrorCode::kUsage, source + ": --turn " + std::to_string(turn) +
                                         " is outside the record: turns 1.." +
                                         std::to_string(last) + " (" + std::to_string(last) +
                                         ": after the last turn)");
  return Replayer(r, source, /*with_log=*/false, turn).Run();
}

}  // namespace carc::database

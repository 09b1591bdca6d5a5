// Pictures of position files and of rulings: which position to draw, which square to outline,
// which features to highlight, and the caption.
#include <algorithm>

#include "model/core/json_reader.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "model/render/svg.h"

namespace carc::render {

using model::Position;
using nlohmann::json;

namespace {

Picture Basics(const Position& pos, const json& doc) {
  Picture pic;
  if (doc.contains("meta") && doc["meta"].is_object() &&
      doc["meta"].value("title", json()).is_string())
    pic.title = doc["meta"]["title"].get<std::string>();
  if (pos.turn.placed >= 0) {
    pic.square = pos.board.tile(pos.turn.placed).pos;
  } else if (doc.contains("question") && doc["question"].is_object() &&
             doc["question"].value("actions", json()).is_array()) {
    for (const json& a : doc["question"]["actions"])
      if (a.is_object() && a.value("type", json()) == "place_tile" &&
          a.value("x", json()).is_number_integer() && a.value("y", json()).is_number_integer()) {
        pic.square = model::Coord{a["x"].get<int>(), a["y"].get<int>()};
        break;
      }
  }
  return pic;
}

model::StatusOr<Position> Parse(const json& doc, const std::string& source) {
  try {
    return model::ParsePosition(doc, exp::Context(source));
  } catch (const json::exception& e) {
    return model::Status(model::ErrorCode::kMalformed, source + ":/: " + e.what());
  }
}

std::string EventLine(const json& e, int number) {
  std::string names;
  for (const json& n : e.value("winner_names", json::array()))
    names += (names.empty() ? "" : ", ") + n.get<std::string>();
  const std::string subject = e.contains("feature")
                                  ? e.value("feature", "") + " (" + e.value("cause", "") + ")"
                                  : e.value("cause", "");
  return "  (" + std::to_string(number) + ") score " + subject + ": " +
         std::to_string(e.value("points", 0)) + " to " + (names.empty() ? "nobody" : names) +
         " = " + e.value("formula", "");
}

// Highlights what the rules scored: the feature, numbered as in the caption, and for a farm
// the completed cities it touches; the incomplete ones are crossed out (BASE-END-FARM).
void MarkScored(const Position& pos, const std::vector<model::ScoreEvent>& events, Picture& pic) {
  const model::Board& b = pos.board;
  for (size_t i = 0; i < events.size(); ++i) {
    const model::ScoreEvent& e = events[i];
    if (e.root < 0) continue;
    const int root = b.Find(e.root);
    pic.features.emplace(root, Mark::kScored);
    pic.labels.emplace_back(static_cast<int>(i) + 1, e.root);
    if (b.Info(root).kind == model::FeatureKind::kField)
      for (int city : b.TouchedCityRoots(root)) {
        if (b.IsComplete(city))
          pic.features.emplace(city, Mark::kScored);
        else if (std::find(pic.crossed.begin(), pic.crossed.end(), city) == pic.crossed.end())
          pic.crossed.push_back(city);
      }
  }
}

}  // namespace

std::vector<std::string> CaptionLines(const json& r) {
  std::vector<std::string> out;
  int n = 0;  // score events are numbered as the picture labels them (RenderRuling)
  out.push_back("Verdict: " + r.value("verdict", "?") +
                "   (question: " + r.value("question", "?") + ")");
  if (r.contains("claim")) {
    out.push_back("Claim " + r["claim"].value("stated", json::object()).dump() +
                  (r["claim"].value("upheld", false) ? " upheld" : " rejected"));
    for (const json& d : r["claim"].value("differences", json::array()))
      out.push_back("  " + d.get<std::string>());
  }
  auto reasons = [&](const json& list) {
    for (const json& x : list)
      out.push_back("    [" + x.value("ruling", "") + "] " + x.value("text", ""));
  };
  if (r.contains("before_question")) {
    for (const json& x : r["before_question"].value("notes", json::array()))
      out.push_back("  before the question: [" + x.value("ruling", "") + "] " +
                    x.value("text", ""));
    for (const json& e : r["before_question"].value("score_events", json::array()))
      out.push_back(EventLine(e, ++n));
  }
  for (const json& v : r.value("violations", json::array()))
    out.push_back("  [" + v.value("ruling", "") + "] " + v.value("where", "") + ": " +
                  v.value("text", ""));
  for (const json& a : r.value("actions", json::array())) {
    if (!a.contains("legal")) continue;
    const bool legal = a["legal"].get<bool>();
    out.push_back((legal ? "  legal: " : "  ILLEGAL: ") + a.value("description", ""));
    reasons(a.value("reasons", json::array()));  // why it is legal, too
    for (const json& e : a.value("score_events", json::array())) out.push_back(EventLine(e, ++n));
  }
  for (const json& e : r.value("score_events", json::array())) out.push_back(EventLine(e, ++n));
  if (r.contains("scores_before") && r.contains("scores"))
    out.push_back("Scores: " + r["scores_before"].dump() + " -> " + r["scores"].dump());
  else if (r.contains("scores"))
    out.push_back("Scores: " + r["scores"].dump());
  return out;
}

model::StatusOr<std::string> RenderPositionFile(const json& doc, const std::string& source) {
  auto pos = Parse(doc, source);
  if (!pos.ok()) return pos.status();
  return RenderSvg(*pos, Basics(*pos, doc));
}

// Replays the question as `carc adjudicate` does (adjudicator/adjudicate.cc), collecting the
// score events with their feature roots; stops before the turn's automatic steps.
void MarkQuestion(Position& pos, const json& doc, const std::string& ask, const std::string& source,
                  Picture& pic) {
  const auto ctx = exp::Context(source);
  std::vector<model::ScoreEvent> events;
  auto keep = [&](const model::ApplyResult& r) {
    events.insert(events.end(), r.scores.begin(), r.scores.end());
  };
  if (ask == "final_score" && !pos.turn.game_over) {
    Position copy = pos;
    events = model::ScoreFinal(copy);
  } else if (ask == "apply" && doc.contains("question") && doc["question"].is_object() &&
             doc["question"].value("actions", json()).is_array()) {
    const json& actions = doc["question"]["actions"];
    model::ApplyResult pre;
    model::Advance(pos, pre);
    keep(pre);
    bool legal = true;
    for (size_t i = 0; i < actions.size() && legal; ++i) {
      const std::string where = "/question/actions/" + std::to_string(i);
      auto a = model::ParseAction(actions[i], pos, where, ctx);
      if (a.ok() && i > 0 && !model::JudgeAfterDecision(pos, *a)) {
        model::ApplyResult between;
        model::Advance(pos, between);
        keep(between);
        a = model::ParseAction(actions[i], pos, where, ctx);
      }
      if (!a.ok()) break;
      if (a->type == model::ActionType::kPlaceTile) pic.square = a->pos;
      model::ApplyResult ar = model::Apply(pos, *a, /*finish_turn=*/false);
      if (!ar.input_error.empty()) break;
      keep(ar);
      legal = ar.verdict.legal;
      if (legal) continue;
      pic.square_illegal = a->type == model::ActionType::kPlaceTile;
      if (a->type == model::ActionType::kPlaceFigure) {
        std::optional<int> tile =
            a->has_pos ? pos.board.At(a->pos) : std::optional<int>(pos.turn.placed);
        if (tile && *tile >= 0 && a->segment >= 0 &&
            a->segment < static_cast<int>(pos.board.rotated(*tile).segments.size()))
          pic.features[pos.board.Find(model::Board::Node(*tile, a->segment))] = Mark::kDisputed;
      } else if (a->type == model::ActionType::kExpansion) {
        // An expansion action that names a feature (a message carried out on a road, ...):
        // that feature is drawn red too.
        const json j = model::DumpAction(pos, *a);
        if (j.contains("x") && j.contains("y") && j.contains("feature")) {
          const json ref = {{"x", j["x"]}, {"y", j["y"]}, {"feature", j["feature"]}};
          auto node = model::ReadFeatureRef(ref, pos, where);
          if (node.ok()) pic.features[pos.board.Find(*node)] = Mark::kDisputed;
        }
      }
    }
    if (legal) {  // what the end of the turn scores, drawn on the position before it
      Position copy = pos;
      model::ApplyResult end;
      model::Advance(copy, end);
      keep(end);
    }
  }
  MarkScored(pos, events, pic);
}

model::StatusOr<std::string> RenderRuling(const json& doc, const json& ruling,
                                          const std::string& source) {
  auto parsed = Parse(doc, source);
  if (!parsed.ok()) return parsed.status();
  Position pos = std::move(*parsed);
  const std::vector<model::Figure> before_figures = pos.figures;
  std::vector<int> before_scores;
  for (const model::Player& p : pos.players) before_scores.push_back(p.score);
  Picture pic = Basics(pos, doc);
  pic.caption = CaptionLines(ruling);
  if (ruling.value("scores", json()).is_array())
    for (const json& s : ruling["scores"])
      pic.scores_after.push_back(s.is_number_integer() ? s.get<int>() : 0);
  if (!model::Validate(pos).empty()) return RenderSvg(pos, pic);

  const std::string ask = ruling.value("question", "");
  if (ask == "final_score" && !pos.turn.game_over)
    pic.step = "Final scoring (the question: final_score)";
  MarkQuestion(pos, doc, ask, source, pic);
  // Every figure the question had on the board, as it last stood (after the actions: a figure
  // laid down by then is drawn lying).
  std::vector<model::Figure> seen = pos.figures;
  for (const model::Figure& f : before_figures) seen.push_back(f);
  // A legal move: the picture is the position after the whole turn, as the ruling's "position"
  // is (BASE-RETURN: scored figures go home; supplies, scores and whose turn as then),
  // the features it scored marked on it (the board is the same, only figures left it).
  bool legal = ask == "apply" && ruling.value("verdict", "") != "impossible-position" &&
               doc.contains("question") && doc["question"].is_object() &&
               doc["question"].value("actions", json()).is_array();
  for (const json& a : ruling.value("actions", json::array()))
    if (a.is_object() && a.value("legal", json(true)) == false) legal = false;
  if (legal) {
    model::ApplyResult end;
    model::Advance(pos, end);
  }
  // The key shows each score as "before -> after" (scores_after): the scores the file states.
  for (size_t p = 0; p < pos.players.size() && p < before_scores.size(); ++p)
    pos.players[p].score = before_scores[p];
  // Figures the question took off the board (a completed feature scored, a card or message
  // that scores and returns them, XMAS-FN4/FN6, MSG-8): still drawn, faded, where they stood.
  for (const model::Figure& f : seen) {
    const auto same = [&](const model::Figure& g) {
      return g.node == f.node && g.owner == f.owner && g.kind == f.kind;
    };
    if (std::none_of(pos.figures.begin(), pos.figures.end(), same) &&
        std::none_of(pic.returned.begin(), pic.returned.end(), same))
      pic.returned.push_back(f);
  }
  return RenderSvg(pos, pic);
}

}  // namespace carc::render

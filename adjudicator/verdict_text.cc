#include "adjudicator/verdict_text.h"

#include <algorithm>

#include "adjudicator/adjudicate.h"
#include "adjudicator/rulings_catalog.h"
#include "model/core/feature_path.h"
#include "model/core/json_reader.h"
#include "model/core/position_io.h"
#include "model/core/scoring.h"

namespace carc::adjudicator {

using model::FeatureKind;
using model::Position;
using model::ScoreEvent;
using nlohmann::json;

namespace {

json CoordJson(model::Coord c) { return json::array({c.x, c.y}); }

json CoordsJson(const std::vector<model::Coord>& cs) {
  json out = json::array();
  for (model::Coord c : cs) out.push_back(CoordJson(c));
  return out;
}

// BASE-MAJORITY: the players with the most figures all score the full points; a tie shares
// nothing out.
std::string MajorityText(const Position& pos, const ScoreEvent& ev) {
  std::vector<std::string> counted, winners;
  for (size_t p = 0; p < ev.strength.size() && p < pos.players.size(); ++p)
    if (ev.strength[p] > 0)
      counted.push_back(pos.players[p].name + " " + std::to_string(ev.strength[p]));
  for (model::PlayerId p : ev.winners) winners.push_back(pos.players[p].name);
  const std::string pts = std::to_string(ev.points);
  if (winners.empty()) return "no figure counts here: nobody scores";
  if (winners.size() > 1 && ev.StatesShares()) {
    // An expansion splits the value (what each receives is stated per player).
    std::vector<std::string> each;
    for (size_t i = 0; i < ev.winners.size(); ++i)
      each.push_back(winners[i] + " " + std::to_string(ev.receives[i]));
    return model::ListAnd(counted) + ": " + model::ListAnd(winners) + " lead; the " + pts +
           " points are split between them: " + model::ListAnd(each);
  }
  if (winners.size() > 1)
    return model::ListAnd(counted) + ": a tie for the most figures, so " + model::ListAnd(winners) +
           " each score the full " + pts + " points (the points are not shared out)";
  // One winner: what the event pays them (a share where an expansion splits the value).
  const std::string paid =
      ev.receives.size() == 1 && ev.receives[0] != ev.points
          ? std::to_string(ev.receives[0]) + " of the " + pts + " points (a share)"
          : pts;
  if (counted.size() == 1)
    return "only " + winners[0] + " has figures here: " + winners[0] + " scores " + paid;
  // One of several tied leaders (BASE-END-FARM-C1-ONCE pays each in an event of their own; a
  // reading may pay only one, MSG-Q-8-TIED): the others are not losers.
  const model::PlayerId w = ev.winners[0];
  const int top = static_cast<size_t>(w) < ev.strength.size() ? ev.strength[w] : -1;
  std::vector<std::string> tied, losers;
  for (size_t p = 0; p < ev.strength.size() && p < pos.players.size(); ++p)
    if (ev.strength[p] > 0 && static_cast<int>(p) != w)
      (ev.strength[p] == top ? tied : losers).push_back(pos.players[p].name);
  const std::string nothing = losers.empty()
                                  ? ""
                                  : "; " + model::ListAnd(losers) +
                                        (losers.size() == 1 ? " scores" : " score") + " nothing";
  if (!tied.empty())
    return model::ListAnd(counted) + ": " + winners[0] + " is tied for the most figures with " +
           model::ListAnd(tied) + "; this event pays " + winners[0] + " " + paid + nothing;
  return model::ListAnd(counted) + ": " + winners[0] + " has the most figures and scores " + paid +
         nothing;
}

// The scored feature's tiles along it (a road from end to end, the others by adjacency), when
// the board still holds that feature as it was scored; else as the event lists them.
std::vector<model::Coord> TilesAlong(const Position& pos, const ScoreEvent& ev) {
  const model::Board& b = pos.board;
  if (ev.root < 0 || ev.root >= b.size() * model::kMaxSegments || ev.tiles.size() < 2 ||
      ev.kind == FeatureKind::kMonastery || b.Find(ev.root) != ev.root ||
      b.Info(ev.root).kind != ev.kind)
    return ev.tiles;
  std::vector<model::Coord> along = model::FeatureTilesAlong(pos, ev.root);
  if (along.size() != ev.tiles.size()) return ev.tiles;
  for (model::Coord c : ev.tiles)
    if (std::find(along.begin(), along.end(), c) == along.end()) return ev.tiles;
  return along;
}

// BASE-FEATURE-JOIN: how the figures of different players on the scored feature are joined,
// from the first figure to the first of each other player's ("" for none). The figures are
// named by the segments they stood on, so a feature completed this turn, whose figures have
// gone home, is joined as well as one scored at the end of the game.
std::vector<std::string> JoinedTexts(const Position& pos, const ScoreEvent& ev) {
  std::vector<std::string> out;
  const model::Board& b = pos.board;
  if (ev.figures.size() < 2 || ev.kind == FeatureKind::kMonastery || ev.root < 0 ||
      ev.root >= b.size() * model::kMaxSegments || b.Find(ev.root) != ev.root)
    return out;
  std::vector<const model::FigureSeen*> firsts;  // the first figure of each player on it
  for (const model::FigureSeen& f : ev.figures) {
    if (f.node < 0 || f.node >= b.size() * model::kMaxSegments || b.Find(f.node) != ev.root)
      continue;
    bool seen = false;
    for (const model::FigureSeen* k : firsts) seen |= k->owner == f.owner;
    if (!seen) firsts.push_back(&f);
  }
  for (size_t k = 1; k < firsts.size(); ++k) {
    const std::string text = model::ConnectionText(pos, firsts[0]->node, firsts[k]->node,
                                                   model::FigurePlaceText(pos, *firsts[0]),
                                                   model::FigurePlaceText(pos, *firsts[k]));
    if (!text.empty()) out.push_back("joined: " + text);
  }
  return out;
}

}  // namespace

json EventJson(const Position& pos, const ScoreEvent& ev) {
  json j = model::DumpScoreEvent(pos, ev);
  json lines = json::array();
  const std::vector<model::Coord> tiles = TilesAlong(pos, ev);
  if (j.contains("tiles")) j["tiles"] = CoordsJson(tiles);
  const bool feature = ev.root >= 0 || !ev.tiles.empty();
  if (feature && !ev.tiles.empty()) {
    if (ev.kind == FeatureKind::kMonastery) {
      // BASE-SCORE-MONASTERY: the tiles on the eight squares around it (N, NE, E, ... NW).
      const model::Coord m = ev.tiles.front();
      std::vector<model::Coord> around;
      static constexpr int kDx[8] = {0, 1, 1, 1, 0, -1, -1, -1};
      static constexpr int kDy[8] = {-1, -1, 0, 1, 1, 1, 0, -1};
      for (int k = 0; k < 8; ++k)
        if (pos.board.At({m.x + kDx[k], m.y + kDy[k]}))
          around.push_back({m.x + kDx[k], m.y + kDy[k]});
      j["neighbours"] = CoordsJson(around);
      lines.push_back("monastery at " + model::CoordText(m) + "; tiles around it: " +
                      (around.empty() ? "none" : model::CoordsText(around)));
    } else {
      lines.push_back("tiles: " + model::CoordsText(tiles));
    }
  }
  // BASE-FEATURE-JOIN: where a road or city ends. A completed one with no end is closed.
  if (feature && (ev.kind == FeatureKind::kRoad || ev.kind == FeatureKind::kCity)) {
    json ends = json::array();
    std::vector<std::string> texts;
    static constexpr const char* kSide[4] = {"N", "E", "S", "W"};
    for (const model::FeatureEnd& e : ev.ends) {
      json x = {{"what", e.what}, {"at", CoordJson(e.at)}};
      if (e.side >= 0) x["side"] = kSide[e.side & 3];
      ends.push_back(x);
      texts.push_back(model::EndText(e));
    }
    if (!ev.ends.empty()) {
      j["ends"] = ends;
      lines.push_back("ends at " + model::ListAnd(texts));
    } else if (ev.cause.IsCompleted()) {
      j["ends"] = ends;
      lines.push_back(ev.kind == FeatureKind::kRoad ? "ends nowhere: the road is a closed loop"
                                                    : "closed on every side");
    }
  }
  // BASE-END-FARM: a field is paid for each completed city it touches, not the others.
  if (feature && ev.kind == FeatureKind::kField && !ev.touched_cities.empty()) {
    json supplied = json::array(), left_out = json::array();
    for (const model::CitySeen& c : ev.touched_cities) {
      (c.completed ? supplied : left_out).push_back(CoordsJson(c.tiles));
      lines.push_back(c.completed ? "supplies the completed city on " + model::CoordsText(c.tiles)
                                  : "touches the city on " + model::CoordsText(c.tiles) +
                                        ", which is not completed: left out (BASE-END-FARM)");
    }
    j["cities_supplied"] = supplied;
    j["cities_left_out"] = left_out;
  } else if (feature && ev.kind == FeatureKind::kField && ev.cause.IsFinal()) {
    j["cities_supplied"] = json::array();
    j["cities_left_out"] = json::array();
    lines.push_back("touches no city: nothing to pay (BASE-END-FARM)");
  }
  if (!ev.figures.empty()) {
    json figs = json::array();
    std::vector<std::string> texts;
    for (const model::FigureSeen& f : ev.figures) {
      figs.push_back({{"owner", pos.players[f.owner].name},
                      {"kind", pos.cfg().figure_kinds[f.kind].name},
                      {"role", model::RoleName(ev.kind)},
                      {"at", CoordJson(f.at)}});
      texts.push_back(model::FigureTextAs(pos, f, ev.kind));
    }
    j["figures"] = figs;
    lines.push_back("figures: " + model::ListAnd(texts));
    for (const std::string& joined : JoinedTexts(pos, ev)) lines.push_back(joined);
  }
  if (!ev.strength.empty() && !ev.figures.empty()) {
    j["majority"] = MajorityText(pos, ev);
    lines.push_back("majority: " + j["majority"].get<std::string>());
  }
  j["evidence"] = lines;
  return j;
}

void QuoteRulings(json& ruling) {
  json out = json::object();
  for (const json& id : ruling.value("cited", json::array())) {
    // The build-time table first (start-up); the ruling texts for what it lacks.
    if (const auto q = FindEmbeddedQuote(id.get<std::string>())) {
      std::string source = q->page;
      if (q->section) source += std::string(", ") + q->section;
      if (q->footnote >= 0) source += ", footnote " + std::to_string(q->footnote);
      out[q->id] = {
          {"title", q->title}, {"summary", q->summary}, {"source", source}, {"status", q->status}};
      continue;
    }
    const RulingEntry* entry = EmbeddedRuling(id.get<std::string>());
    if (entry == nullptr) continue;
    const json& d = entry->data;
    std::string source;
    if (d.contains("source") && d["source"].is_object()) {
      const json& s = d["source"];
      source = s.value("page", "");
      if (s.contains("section") && s["section"].is_string())
        source += ", " + s["section"].get<std::string>();
      if (s.contains("footnote") && s["footnote"].is_number_integer())
        source += ", footnote " + std::to_string(s["footnote"].get<int>());
    }
    out[entry->id] = {{"title", entry->title},
                      {"summary", d.value("summary", "")},
                      {"source", source},
                      {"status", entry->status}};
  }
  ruling["rulings"] = out;
}

namespace {

bool IsWordChar(char c) {  // \w of std::regex in the classic locale
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

// Every "player N" of s (whole words, N decimal digits: the regex \bplayer ([0-9]+)\b) with
// names[N] in its place. Scanned by hand: compiling the std::regex was 5 % of an adjudication's
// instructions (start-up).
std::string NamedText(const std::string& s, const std::vector<std::string>& names) {
  std::string out;
  size_t last = 0;
  for (size_t i = s.find("player "); i != std::string::npos;) {
    const size_t digits = i + 7;
    size_t end = digits;
    while (end < s.size() && s[end] >= '0' && s[end] <= '9') ++end;
    if ((i == 0 || !IsWordChar(s[i - 1])) && end > digits &&
        (end == s.size() || !IsWordChar(s[end]))) {
      const size_t n = std::stoul(s.substr(digits, end - digits));
      out += s.substr(last, i - last);
      out += n < names.size() ? names[n] : s.substr(i, end - i);
      last = end;
      i = s.find("player ", end);
    } else {
      i = s.find("player ", i + 1);
    }
  }
  return out + s.substr(last);
}

void NameIn(json& j, const std::vector<std::string>& names) {
  if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    if (s.find("player ") == std::string::npos) return;
    j = NamedText(s, names);
    return;
  }
  if (j.is_array())
    for (json& x : j) NameIn(x, names);
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) {
      // The input as stated and the position are data, not texts.
      if (it.key() == "position" || it.key() == "action" || it.key() == "stated") continue;
      NameIn(it.value(), names);
    }
}

}  // namespace

void NamePlayers(json& ruling, const std::vector<std::string>& names) { NameIn(ruling, names); }

namespace {

// "city (completed)", or just the cause for points that belong to no feature.
std::string EventSubject(const json& e) {
  if (!e.contains("feature")) return e.value("cause", "");
  return e.value("feature", "") + " (" + e.value("cause", "") + ")";
}

// Word-wraps a paragraph at about 96 columns with the given indent.
std::string Wrap(const std::string& text, const std::string& indent) {
  std::string out, line;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t sp = text.find(' ', pos);
    std::string word = text.substr(pos, sp == std::string::npos ? std::string::npos : sp - pos);
    pos = sp == std::string::npos ? text.size() : sp + 1;
    if (word.empty()) continue;
    if (!line.empty() && indent.size() + line.size() + 1 + word.size() > 96) {
      out += indent + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

void EventLines(const json& e, const std::string& indent, std::string& out) {
  out += indent + "score " + EventSubject(e) + ": " + std::to_string(e.value("points", 0)) +
         " to " + e["winner_names"].dump() + " = " + e.value("formula", "") + "  " +
         e["rulings"].dump() + "\n";
  if (e.contains("receives")) {
    std::string each;
    for (const json& r : e["receives"])
      each += (each.empty() ? "" : ", ") + r.value("player", "") + " " +
              std::to_string(r.value("points", 0));
    out += indent + "    receives: " + each + "\n";
  }
  for (const json& x : e.value("evidence", json::array()))
    out += indent + "    " + x.get<std::string>() + "\n";
}

}  // namespace

std::string RulingText(const json& r) {
  std::string out;
  auto line = [&](const std::string& s) { out += s + "\n"; };
  line("File:     " + r.value("file", ""));
  line("Rules:    " + r.value("edition", "") +
       (r["expansions"].empty() ? "" : " + " + r["expansions"].dump()));
  line("Question: " + r.value("question", ""));
  line("Verdict:  " + r.value("verdict", ""));
  if (r.contains("before_question")) {
    for (const json& x : r["before_question"].value("notes", json::array()))
      line("  before the question [" + x.value("ruling", "") + "] " + x.value("text", ""));
    for (const json& e : r["before_question"].value("score_events", json::array()))
      EventLines(e, "  before the question: ", out);
  }
  for (const json& v : r.value("violations", json::array()))
    line("  [" + v.value("ruling", "") + "] " + v.value("where", "") + ": " + v.value("text", ""));
  for (const json& a : r.value("actions", json::array())) {
    if (a.contains("legal")) {
      line((a["legal"].get<bool>() ? "  legal:   " : "  ILLEGAL: ") + a.value("description", ""));
      for (const json& x : a.value("reasons", json::array()))
        line("      [" + x.value("ruling", "") + "] " + x.value("text", ""));
      for (const json& e : a.value("score_events", json::array())) EventLines(e, "      ", out);
      for (const json& x : a.value("notes", json::array()))
        line("      note [" + x.value("ruling", "") + "] " + x.value("text", ""));
    } else {
      line("  " + a.value("description", ""));
    }
  }
  if (r.contains("reasons") && !r.contains("actions"))
    for (const json& x : r["reasons"])
      line("  [" + x.value("ruling", "") + "] " + x.value("text", ""));
  for (const json& e : r.value("score_events", json::array())) EventLines(e, "  ", out);
  for (const json& d : r.value("divide", json::array()))
    line("  " + d["action"].dump() + ": " + std::to_string(d.value("count", 0)));
  if (r.contains("count")) line("Count:    " + r["count"].dump());
  if (r.contains("claim")) {
    const json& c = r["claim"];
    line(std::string("Claim:    ") + (c.value("upheld", false) ? "upheld" : "rejected"));
    for (const json& d : c.value("differences", json::array()))
      line("  claim: " + d.get<std::string>());
    for (const json& m : c.value("matched", json::array()))
      line("  claim: " + m.get<std::string>());
  }
  if (r.contains("pending"))
    line("Pending:  the turn stops at step " + r["pending"].value("step", "") +
         (r["pending"].contains("why") ? ": " + r["pending"].value("why", "")
                                       : " (the question states no choice for it)"));
  if (r.contains("scores")) line("Scores:   " + r["scores"].dump());
  if (r.contains("cited")) line("Cited:    " + r["cited"].dump());
  if (r.contains("rulings") && r["rulings"].is_object() && !r["rulings"].empty()) {
    line("Rulings:");
    for (const json& id : r.value("cited", json::array())) {
      const std::string k = id.get<std::string>();
      if (!r["rulings"].contains(k)) continue;
      const json& q = r["rulings"][k];
      line("  " + k + ": " + q.value("title", "") + " (" + q.value("status", "") + ")");
      out += Wrap(q.value("summary", ""), "      ");
      if (!q.value("source", "").empty()) line("      Source: " + q.value("source", ""));
    }
  }
  return out;
}

}  // namespace carc::adjudicator

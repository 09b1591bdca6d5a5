#include "database/text_out.h"

#include <sstream>

namespace carc::database {

using nlohmann::json;

namespace {

std::string S(const json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || j[key].is_null()) return "";
  return j[key].is_string() ? j[key].get<std::string>() : j[key].dump();
}

std::string Compact(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string Ids(const json& arr) {
  std::string out;
  if (!arr.is_array()) return out;
  for (const json& id : arr)
    out += (out.empty() ? "" : ", ") + (id.is_string() ? id.get<std::string>() : id.dump());
  return out;
}

// Scores by seat as "Ann 12, Ben 11" (the bare list when the names are missing).
std::string Named(const json& players, const json& scores) {
  if (!players.is_array() || !scores.is_array() || players.size() != scores.size())
    return Compact(scores);
  std::string out;
  for (size_t i = 0; i < scores.size(); ++i)
    out += (i ? ", " : "") + (players[i].is_string() ? players[i].get<std::string>() : "?") + " " +
           scores[i].dump();
  return out;
}

}  // namespace

std::string Pretty(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

std::string BuildText(const json& r) {
  std::ostringstream o;
  o << "wrote " << S(r, "db") << ": schema " << S(r, "schema_version") << ", " << S(r, "rulings")
    << " rulings (";
  bool first = true;
  for (const auto& [e, n] : r["per_expansion"].items()) {
    o << (first ? "" : ", ") << e << " " << n.dump();
    first = false;
  }
  o << "), " << S(r, "links") << " links, " << S(r, "fixtures") << " fixtures covering "
    << S(r, "covers") << " ruling IDs\n";
  if (!r["unknown_cover_ids"].empty())
    o << "  fixtures cite IDs not in the checklist: " << Ids(r["unknown_cover_ids"]) << "\n";
  return o.str();
}

std::string SearchText(const json& r) {
  std::ostringstream o;
  for (const json& h : r["hits"])
    o << S(h, "id") << "  " << S(h, "title") << "  [" << S(h, "expansion") << ", " << S(h, "status")
      << "]\n    " << S(h, "snippet") << "\n    matched: " << Ids(h.value("matched", json::array()))
      << "\n";
  o << r["hits"].size() << " rulings match \"" << S(r, "query") << "\"";
  if (const json ignored = r.value("ignored", json::array()); !ignored.empty())
    o << " (stop words left out: " << Ids(ignored) << ")";
  o << "\n";
  return o.str();
}

std::string RulingText(const json& r) {
  std::ostringstream o;
  o << S(r, "id") << "  " << S(r, "title") << "\n";
  o << "  expansion " << S(r, "expansion") << ", edition " << S(r, "edition") << ", status "
    << S(r, "status") << "\n";
  o << "  source: " << S(r["source"], "text") << "\n";
  if (!r["official_answer"].is_null())
    o << "  official answer: " << S(r["official_answer"], "cited") << " (ISO "
      << (S(r["official_answer"], "date").empty() ? "undated" : S(r["official_answer"], "date"))
      << ")\n";
  for (const json& a : r.value("additional_official_answers", json::array()))
    o << "  further answer: " << S(a, "cited") << "\n";
  o << "  " << S(r, "summary") << "\n";
  if (r.contains("question")) o << "  question: " << S(r, "question") << "\n";
  if (r.contains("readings")) {
    o << "  readings:\n";
    for (const json& rd : r["readings"])
      o << "    " << (rd.value("adopted", false) ? "* ADOPTED " : "  ") << S(rd, "name") << ": "
        << S(rd, "summary") << "\n";
  }
  if (r.contains("reasoning")) o << "  why adopted: " << S(r, "reasoning") << "\n";
  for (const auto& [kind, ids] : r["links"].items()) o << "  " << kind << ": " << Ids(ids) << "\n";
  for (const auto& [kind, ids] : r["linked_from"].items())
    o << "  named as " << kind << " by: " << Ids(ids) << "\n";
  if (!r["needs_expansion"].empty()) o << "  needs: " << Ids(r["needs_expansion"]) << "\n";
  if (r["fixtures"].empty()) o << "  fixtures: none\n";
  for (const json& f : r["fixtures"])
    o << "  fixture: " << S(f, "path") << "  (" << S(f, "mode") << ", expects "
      << (S(f, "expected_verdict").empty() ? "exit " + S(f, "expected_exit_code")
                                           : S(f, "expected_verdict"))
      << ")\n";
  return o.str();
}

std::string RulingListText(const json& list) {
  std::ostringstream o;
  for (const json& r : list) {
    o << S(r, "id") << "  [" << S(r, "status") << "]  " << S(r, "title") << "  ("
      << S(r, "fixtures") << " fixtures";
    if (r.contains("adopted_reading")) o << ", adopted: " << S(r, "adopted_reading");
    o << ")\n";
  }
  o << list.size() << " rulings\n";
  return o.str();
}

std::string ImportText(const json& r) {
  std::ostringstream o;
  for (const json& g : r["games"]) {
    if (g.contains("error")) {
      o << "BAD       " << S(g, "error") << "\n";
    } else if (g.value("duplicate", false)) {
      o << "duplicate game " << S(g, "game_id") << "  " << S(g, "source") << "\n";
    } else {
      o << "stored    game " << S(g, "game_id") << "  " << S(g, "source") << "  "
        << S(g, "verdict");
      if (S(g, "verdict") != "consistent")
        o << ": " << S(g, "verdict_text") << " [" << Ids(g["cited"]) << "]";
      o << "\n";
    }
  }
  o << S(r, "stored") << " stored, " << S(r, "duplicates") << " duplicates, " << S(r, "bad")
    << " bad; verdicts:";
  for (const auto& [v, n] : r["verdicts"].items()) o << " " << v << " " << n.dump();
  o << "\n";
  return o.str();
}

std::string GamesListText(const json& list) {
  std::ostringstream o;
  for (const json& g : list)
    o << "#" << S(g, "game_id") << "  " << S(g, "verdict") << "  " << S(g, "turns") << " turns  "
      << "final " << Named(g["players"], g["final_model"]) << "  " << S(g, "source")
      << (Ids(g["cited"]).empty() ? "" : "  [" + Ids(g["cited"]) + "]") << "\n";
  o << list.size() << " games\n";
  return o.str();
}

std::string GameShowText(const json& g) {
  std::ostringstream o;
  o << "game " << S(g, "game_id") << " (" << S(g, "origin") << ", " << S(g, "source") << ")\n"
    << "  players: " << Ids(g["players"]) << "; rules " << Compact(g["rules"]) << "\n"
    << "  " << S(g, "turns") << " turns; verdict " << S(g, "verdict") << ": "
    << S(g, "verdict_text") << "\n";
  if (!g["cited"].empty()) o << "  cites: " << Ids(g["cited"]) << "\n";
  o << "  final: claimed " << Named(g["players"], g["final_claimed"]) << "; model "
    << Named(g["players"], g["final_model"])
    << (g.value("finished", false) ? "" : " (game not finished)") << "\n"
    << "  imported " << S(g, "imported_at") << " with " << S(g, "model_version") << "\n";
  return o.str();
}

std::string ReplayText(const json& r) {
  std::ostringstream o;
  const json players = r.value("players", json::array());
  for (const json& t : r["turns"]) {
    o << "turn " << S(t, "turn") << " " << S(t, "player") << ":";
    for (const json& a : t["actions"])
      o << " " << S(a, "description") << (a.value("legal", true) ? "" : " [ILLEGAL]") << ";";
    for (const json& e : t["score_events"])
      o << " {" << S(e, "feature") << " " << S(e, "points") << " to "
        << Ids(e.value("winner_names", json::array())) << "}";
    if (t.contains("scores")) o << " -> " << Named(players, t["scores"]);
    o << "\n";
  }
  o << "verdict " << S(r, "verdict") << ": " << S(r, "verdict_text");
  if (!r["cited"].empty()) o << " [" << Ids(r["cited"]) << "]";
  o << "\n"
    << (r.value("same_as_stored", true)
            ? "same verdict as stored at import\n"
            : "VERDICT CHANGED since import: stored " + S(r, "stored_verdict") + "\n");
  return o.str();
}

std::string AdjudicationsText(const json& list) {
  std::ostringstream o;
  for (const json& a : list)
    o << "#" << S(a, "adjudication_id") << "  " << S(a, "at") << "  " << S(a, "verdict")
      << " (exit " << S(a, "exit_code") << ")  " << S(a, "file") << "  "
      << S(a, "input_sha256").substr(0, 12) << "  [" << Ids(a["cited"]) << "]\n";
  o << list.size() << " adjudications\n";
  return o.str();
}

}  // namespace carc::database

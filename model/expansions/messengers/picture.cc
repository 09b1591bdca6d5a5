// The Messengers' state beside the board (seed 003): both scoring figures of each player on the
// track (MSG-DARK), the stack of 8 messages face down (MSG-SETUP), the message drawn, the
// messages taken this turn part (only the active player takes one, MSG-ACTIVE) and points
// waiting for their figure (MSG-CHOOSE).
#include "model/expansions/messengers/picture.h"

#include <functional>
#include <nlohmann/json.hpp>

#include "model/core/json_reader.h"  // Plural
#include "model/expansions/messengers/state.h"

namespace carc::exp::messengers {

using model::Position;
using nlohmann::json;

namespace {

const model::CardLook kMessage = {"#fff6d6", "#8a6d1d"};

// The scoring track (MSG-DARK): spaces 0..49, the multiples of 5 dark, each player's dame (D)
// and meeple (M) on the space of its points mod 50.
model::PictureTrack Track(const Position& pos, const json& tracks) {
  model::PictureTrack t{.spaces = 50, .per_row = 10, .dark_every = 5};
  for (size_t p = 0; p < tracks.size(); ++p) {
    if (!tracks[p].is_object()) continue;
    int slot = 0;
    for (const char* kind : {"dame", "meeple"}) {
      const int k = slot++;
      if (!tracks[p].value(kind, json()).is_number_integer()) continue;
      const int points = tracks[p][kind].get<int>();
      const std::string name = p < pos.players.size() ? pos.players[p].name : "";
      t.markers.push_back({.player = static_cast<int>(p),
                           .points = points,
                           .place = static_cast<int>(p) * 2 + k,
                           .letter = k == 0 ? "D" : "M",
                           .tip = name + "'s " + kind + ": " + std::to_string(points) + " points"});
    }
  }
  return t;
}

// The players' figures on the track, then the track.
void Scores(const Position& pos, const json& s, model::StatePicture& out) {
  const json tracks = s.value("tracks", json());
  for (size_t p = 0; p < pos.players.size(); ++p) {
    const json t = p < tracks.size() ? tracks[p] : json{{"meeple", 0}, {"dame", 0}};
    out.Line(pos.players[p].name + ": dame " +
             (t.contains("dame") ? t["dame"].dump() + " points" : "off the track (final sum)") +
             ", meeple " + t.value("meeple", json(0)).dump() + " points");
  }
  out.Line("Scoring track (dark: multiples of 5; D dame, M meeple)");
  out.Track(Track(pos, tracks.is_array() ? tracks : json::array()));
}

// This turn part: the messages taken, the message held, points waiting, figures moved.
void ThisTurn(const Position& pos, const json& s, const std::string& who,
              const std::function<std::string(const json&)>& title, model::StatePicture& out) {
  const json part = s.value("turn_part", json::object());
  const int taken = part.value("messages_taken", 0);
  out.Line("Messages taken so far this turn" +
           std::string(part.contains("part") ? " part " + part["part"].dump() : "") + ": " + who +
           " (to play) " + std::to_string(taken) + ", the others none (MSG-ACTIVE)");
  if (s.contains("in_hand")) {
    out.Line(who + " holds, face up:");
    const std::string t = model::PictureTitle(title(s["in_hand"]));
    out.Cards({{.title = t, .look = kMessage, .tip = who + " holds, face up: " + t}});
  }
  for (const json& p : s.value("pending", json::array()))
    out.Line(model::PlayerNameOf(pos, p.value("player", json())) + ": " +
             p.value("points", json()).dump() + " points wait for a scoring figure" +
             (p.contains("source") ? " (" + p["source"].get<std::string>() + ")" : ""));
  // The active player's scoring figures moved this turn part (MSG-DARK counts only those).
  for (const auto& [k, what] : {std::pair{"moved", "moved by this part's scoring"},
                                {"dark_stops", "stopped on a dark space"},
                                {"message_moved", "moved by the last message's points"},
                                {"message_dark_stops", "stopped on a dark space by them"}})
    if (part.contains(k)) {
      std::string f;
      for (const json& e : part[k]) f += (f.empty() ? "" : " and ") + e.get<std::string>();
      out.Line(who + "'s " + f + ": " + what);
    }
  if (s.contains("turn_figures")) {
    std::string f;
    for (size_t p = 0; p < s["turn_figures"].size() && p < pos.players.size(); ++p)
      if (s["turn_figures"][p].is_string())
        f += (f.empty() ? "" : ", ") + pos.players[p].name + " " +
             s["turn_figures"][p].get<std::string>();
    out.Line("Figure moved this turn: " + (f.empty() ? "none" : f));
  }
}

}  // namespace

void DescribeState(const Position& pos, const json& section, model::StatePicture& out) {
  const json& s = section;
  out.Heading("The Messengers");
  const auto numbering = ParseNumbering(s.value("numbering", "hig")).value_or(Numbering::kHig);
  const auto title = [&](const json& m) {
    const auto msg = m.is_string() ? ParseMessageName(m.get<std::string>()) : std::nullopt;
    if (!msg) return m.is_string() ? m.get<std::string>() : m.dump();
    return "message " + std::to_string(MessageNumber(numbering, *msg)) + " (" +
           std::string(MessageTitle(*msg)) + ")";
  };
  Scores(pos, s, out);
  const json stack = s.value("stack", json());
  const int n = stack.is_array() ? static_cast<int>(stack.size())
                                 : kMessages - (s.contains("in_hand") ? 1 : 0);
  std::string about = "Messages: " + model::Plural(n, "message") + " face down";
  if (stack.is_array() && !stack.empty())
    about += "; order known to the judge, top: " + title(stack[0]);
  else if (!stack.is_array())
    about += ", order unknown (the question states each one drawn)";
  out.Pile(n, kMessage.stroke, about);
  if (s.contains("used")) {
    std::string u;
    for (const json& m : s["used"]) u += (u.empty() ? "" : ", ") + title(m);
    out.Line("Used, under the stack (cannot come up first): " + u);
  }
  const std::string who = pos.turn.player < static_cast<int>(pos.players.size())
                              ? pos.players[pos.turn.player].name
                              : "?";
  ThisTurn(pos, s, who, title, out);
  json rest = s;
  for (const char* k :
       {"tracks", "stack", "used", "in_hand", "turn_part", "pending", "turn_figures", "numbering"})
    rest.erase(k);
  model::FlattenInto(rest, "messengers", out);
}

}  // namespace carc::exp::messengers

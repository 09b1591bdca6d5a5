// The "expansions": {"messengers": {...}} section and the Messengers' actions in position-file
// form. Documented in README.md of this folder.
#include "model/expansions/messengers/io.h"

#include <nlohmann/json.hpp>

#include "model/core/json_reader.h"
#include "model/core/position.h"
#include "model/core/position_io.h"
#include "model/expansions/messengers/messages.h"
#include "model/expansions/messengers/messengers.h"

namespace carc::exp::messengers {

using model::Action;
using model::ActionType;
using model::ErrorCode;
using model::Position;
using model::Status;
using model::StatusOr;
using nlohmann::json;

namespace {

// One disputed item: its ruling ID, the adopted reading, the other reading, the flag.
struct ReadingDef {
  const char* ruling;
  const char* adopted;
  const char* other;
  bool Readings::*flag;
};

constexpr ReadingDef kReadings[] = {
    {"MSG-FN13", "final-position-after-scoring-round", "any-intermediate-stop",
     &Readings::any_intermediate_stop},
    {"MSG-FN15", "second-message-cap", "c1-unbounded-chain", &Readings::unbounded_chain},
    {"MSG-Q-MOVED", "moved-figure-only", "any-figure-on-dark", &Readings::any_figure_on_dark},
    {"MSG-Q-SMALLEST", "feature-value", "own-payout", &Readings::own_payout},
    {"MSG-Q-8-RETURN", "return-always", "return-only-with-majority",
     &Readings::return_only_with_majority},
    {"MSG-Q-8-TIED", "all-tied-leaders-score", "active-player-only", &Readings::active_player_only},
    {"MSG-Q-ALONE", "opponent-figure-blocks-only", "any-other-figure-blocks",
     &Readings::any_other_figure_blocks},
    {"MSG-Q-OUTSIDE", "whole-turn-counts", "step-3-only", &Readings::step3_only},
};

json FigureList(const std::array<bool, kFigures>& flags) {
  json out = json::array();
  for (int f = 0; f < kFigures; ++f)
    if (flags[f]) out.push_back(FigureName(static_cast<Figure>(f)));
  return out;
}

Status ParseFigureList(const json& j, const std::string& where, std::array<bool, kFigures>& out) {
  if (!j.is_array()) return model::JsonError(where, "expected a list of \"meeple\" / \"dame\"");
  for (size_t i = 0; i < j.size(); ++i) {
    auto f = j[i].is_string() ? ParseFigure(j[i].get<std::string>()) : std::nullopt;
    if (!f)
      return model::JsonError(where + "/" + std::to_string(i), "expected \"meeple\" or \"dame\"");
    if (out[static_cast<int>(*f)])
      return model::JsonError(where + "/" + std::to_string(i),
                              "\"" + j[i].get<std::string>() + "\" given twice");
    out[static_cast<int>(*f)] = true;
  }
  return Status::Ok();
}

// A message by name ("knights") or by its number in the position's printing (MSG-FN2).
Status ParseMessage(const json& j, const std::string& where, Numbering n, Message& out) {
  if (j.is_string()) {
    if (auto m = ParseMessageName(j.get<std::string>())) {
      out = *m;
      return Status::Ok();
    }
  } else if (model::JsonInt(j)) {
    if (auto m = MessageByNumber(n, *model::JsonInt(j))) {
      out = *m;
      return Status::Ok();
    }
  }
  return model::JsonError(
      where,
      "expected a message name (smallest-road, smallest-city, monastery, extra-tile, "
      "coats-of-arms, knights, farmers, score-and-return) or its number 1-8 in the "
      "numbering \"" +
          std::string(NumberingName(n)) + "\", got " + j.dump());
}

// Range-checked (model/core/input_file.h): a huge integer is refused, never truncated.
bool IsInt(const json& j) { return model::JsonInt(j).has_value(); }

// The core's key check, its message followed by the keys allowed ("unknown field (a, b)").
Status Keys(const json& j, const std::string& where, std::initializer_list<std::string_view> keys) {
  Status s = model::CheckKeys(j, where, keys);
  if (s.ok()) return s;
  std::string list;
  for (std::string_view k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
  return Status(s.code(), s.message() + " (" + list + ")");
}

// variant and numbering: unknown names are rule sets the model does not know (exit 69).
Status ParseVariantAndNumbering(const json& j, const std::string& where, State& s) {
  if (j.contains("variant")) {
    auto v =
        j["variant"].is_string() ? ParseVariant(j["variant"].get<std::string>()) : std::nullopt;
    if (!j["variant"].is_string())
      return model::JsonError(where + "/variant", "expected a variant name (a string)");
    // An unknown variant is a rule set the model does not know (exit 69, as in every module).
    if (!v)
      return Status(ErrorCode::kUnknownRules,
                    where + "/variant: unknown variant " + j["variant"].dump() +
                        " (known: c3, c2-printed-alone, original-unlimited-chain, revision-2025)");
    s.variant = *v;
    // MSG-FN15: the C1 rule set is the unbounded chain; the capped reading stated beside it
    // would be silently overruled (State::Chain), so the two together are refused.
    if (s.variant == Variant::kOriginalUnlimitedChain && s.chain_reading_stated &&
        !s.readings.unbounded_chain)
      return model::JsonError(where + "/variants/MSG-FN15",
                              "the variant original-unlimited-chain is the C1 chain of messages "
                              "(MSG-FN15 c1-unbounded-chain): another reading contradicts it");
  }
  // Readings that answer one question two ways: one would be overruled without a word
  // (MSG-Q-MOVED decides a due message before MSG-FN13 is looked at).
  if (s.readings.any_figure_on_dark && s.readings.any_intermediate_stop)
    return model::JsonError(where + "/variants/MSG-Q-MOVED",
                            "any-figure-on-dark and MSG-FN13 any-intermediate-stop both say when "
                            "a message is due: state one");
  if (j.contains("numbering")) {
    auto n = j["numbering"].is_string() ? ParseNumbering(j["numbering"].get<std::string>())
                                        : std::nullopt;
    if (!j["numbering"].is_string())
      return model::JsonError(where + "/numbering", "expected a numbering name (a string)");
    if (!n)
      return Status(ErrorCode::kUnknownRules, where + "/numbering: unknown numbering " +
                                                  j["numbering"].dump() +
                                                  " (known: hig, mindok-bb6; MSG-FN2)");
    s.numbering = *n;
  }
  return Status::Ok();
}

Status ParseTracks(const json& jt, const std::string& where, int players, State& s) {
  if (!jt.is_array() || static_cast<int>(jt.size()) != players)
    return model::JsonError(where + "/tracks",
                            "expected one {\"meeple\": n, \"dame\": n} per player");
  s.tracks.assign(players, Track{});
  for (int p = 0; p < players; ++p) {
    std::string w = where + "/tracks/" + std::to_string(p);
    const json& t = jt[p];
    if (!t.is_object() || !t.contains("meeple") || !IsInt(t["meeple"]))
      return model::JsonError(
          w, "expected {\"meeple\": n, \"dame\": n} (points of each scoring figure)");
    if (Status st = Keys(t, w, {"meeple", "dame"}); !st.ok()) return st;
    s.tracks[p].points[0] = *model::JsonInt(t["meeple"]);
    if (t.contains("dame")) {
      if (!IsInt(t["dame"])) return model::JsonError(w + "/dame", "expected an integer");
      s.tracks[p].points[1] = *model::JsonInt(t["dame"]);
    } else {
      s.tracks[p].dame_returned = true;  // MSG-FINAL: summed onto the scoring meeple
    }
  }
  return Status::Ok();
}

// A list of messages (stack: top first; used: oldest first), `what` naming it in the message.
Status ParseMessages(const json& ja, const std::string& w, const char* what, Numbering n,
                     std::vector<Message>& out) {
  if (!ja.is_array()) return model::JsonError(w, what);
  for (size_t i = 0; i < ja.size(); ++i) {
    Message m;
    Status st = ParseMessage(ja[i], w + "/" + std::to_string(i), n, m);
    if (!st.ok()) return st;
    out.push_back(m);
  }
  return Status::Ok();
}

Status ParsePending(const json& jp, const std::string& where, int players, State& s) {
  if (!jp.is_array()) return model::JsonError(where + "/pending", "expected a list");
  for (size_t i = 0; i < jp.size(); ++i) {
    std::string w = where + "/pending/" + std::to_string(i);
    const json& e = jp[i];
    if (!e.is_object() || !e.contains("player") || !IsInt(e["player"]) || !e.contains("points") ||
        !IsInt(e["points"]))
      return model::JsonError(w, "expected {\"player\", \"points\", \"origin\", \"source\"}");
    // A misspelt key ("orgin") would leave its default standing: refused, as every object is.
    if (Status st = Keys(e, w, {"player", "points", "origin", "source"}); !st.ok()) return st;
    Pending p;
    p.player = *model::JsonInt(e["player"]);
    if (p.player < 0 || p.player >= players)
      return model::JsonError(w + "/player", "no such player");
    p.points = *model::JsonInt(e["points"]);
    if (e.contains("origin")) {
      auto o = e["origin"].is_string() ? ParseOrigin(e["origin"].get<std::string>()) : std::nullopt;
      if (!o) return model::JsonError(w + "/origin", "expected scoring, message or outside");
      p.origin = *o;
    }
    if (e.contains("source")) {
      if (!e["source"].is_string()) return model::JsonError(w + "/source", "expected a string");
      p.source = e["source"].get<std::string>();
    }
    s.pending.push_back(p);
  }
  return Status::Ok();
}

Status ParseTurnPart(const json& jt, const std::string& where, State& s) {
  std::string w = where + "/turn_part";
  if (!jt.is_object()) return model::JsonError(w, "expected an object");
  if (Status st = Keys(jt, w,
                       {"part", "moved", "dark_stops", "message_moved", "message_dark_stops",
                        "moved_any", "messages_taken"});
      !st.ok())
    return st;
  for (auto it = jt.begin(); it != jt.end(); ++it) {
    const std::string& k = it.key();
    Status st = Status::Ok();
    if (k == "part" || k == "messages_taken") {
      if (!IsInt(it.value()) || *model::JsonInt(it.value()) < (k == "part" ? 1 : 0))
        return model::JsonError(w + "/" + k, "expected a non-negative integer (part: 1 or more)");
      (k == "part" ? s.part.part : s.part.taken) = *model::JsonInt(it.value());
    } else if (k == "moved") {
      st = ParseFigureList(it.value(), w + "/" + k, s.part.moved);
    } else if (k == "dark_stops") {
      st = ParseFigureList(it.value(), w + "/" + k, s.part.dark_stop);
    } else if (k == "message_moved") {
      st = ParseFigureList(it.value(), w + "/" + k, s.part.msg_moved);
    } else if (k == "message_dark_stops") {
      st = ParseFigureList(it.value(), w + "/" + k, s.part.msg_dark_stop);
    } else {  // moved_any (Keys above)
      st = ParseFigureList(it.value(), w + "/" + k, s.part.moved_any);
    }
    if (!st.ok()) return st;
  }
  // A dark stop is a stop of a move in that list; moved_any always includes the figures moved
  // and message_moved. A list that says otherwise states two turn parts at once.
  for (int g = 0; g < kFigures; ++g) {
    const std::string name(FigureName(static_cast<Figure>(g)));
    if (s.part.dark_stop[g] && !s.part.moved[g])
      return model::JsonError(w + "/dark_stops",
                              name + " stopped on a dark space but is not in moved");
    if (s.part.msg_dark_stop[g] && !s.part.msg_moved[g])
      return model::JsonError(w + "/message_dark_stops",
                              name + " stopped on a dark space but is not in message_moved");
    if (jt.contains("moved_any") && !s.part.moved_any[g] &&
        (s.part.moved[g] || s.part.msg_moved[g]))
      return model::JsonError(w + "/moved_any", name +
                                                    " moved this part (moved or message_moved) "
                                                    "but is not in moved_any, which includes them");
    s.part.moved_any[g] = s.part.moved_any[g] || s.part.moved[g] || s.part.msg_moved[g];
  }
  return Status::Ok();
}

Status ParseTurnFigures(const json& jf, const std::string& where, int players, State& s) {
  if (!jf.is_array() || static_cast<int>(jf.size()) != players)
    return model::JsonError(where + "/turn_figures",
                            "expected one entry per player: meeple, dame or null");
  s.turn_figure.assign(players, -1);
  for (int p = 0; p < players; ++p) {
    if (jf[p].is_null()) continue;
    auto f = jf[p].is_string() ? ParseFigure(jf[p].get<std::string>()) : std::nullopt;
    if (!f)
      return model::JsonError(where + "/turn_figures/" + std::to_string(p),
                              "expected meeple, dame or null");
    s.turn_figure[p] = static_cast<int>(*f);
  }
  return Status::Ok();
}

// MSG-SETUP, MSG-CHOOSE: the section of the position file (README.md of this folder).
Status ParseState(const json& j, const std::string& where, Position& pos) {
  State& s = Slice(pos);
  if (!j.is_object()) return model::JsonError(where, "expected an object");
  if (Status st = Keys(j, where,
                       {"variant", "readings", "numbering", "tracks", "stack", "used", "in_hand",
                        "pending", "turn_part", "turn_figures"});
      !st.ok())
    return st;
  const int players = static_cast<int>(pos.players.size());
  if (Status st = ParseVariantAndNumbering(j, where, s); !st.ok()) return st;
  // The readings of the disputed items are the core's "variants" (DeclareVariants).
  if (j.contains("readings"))
    return Status(ErrorCode::kUnknownRules,
                  where +
                      "/readings: no longer read: give the readings under \"variants\" "
                      "{\"<RULING-ID>\": \"<reading>\"}, e.g. {\"MSG-Q-8-RETURN\": "
                      "\"return-only-with-majority\"}");
  if (j.contains("tracks"))
    if (Status st = ParseTracks(j["tracks"], where, players, s); !st.ok()) return st;
  if (j.contains("stack")) {
    s.stack_known = true;
    if (Status st = ParseMessages(j["stack"], where + "/stack", "expected the messages, top first",
                                  s.numbering, s.stack);
        !st.ok())
      return st;
  }
  // MSG-RESOLVE: the messages used under an unknown stack (checked by Validate).
  if (j.contains("used"))
    if (Status st = ParseMessages(j["used"], where + "/used",
                                  "expected the messages used since the stack order became "
                                  "unknown, oldest first",
                                  s.numbering, s.used);
        !st.ok())
      return st;
  if (j.contains("in_hand")) {
    Message m;
    Status st = ParseMessage(j["in_hand"], where + "/in_hand", s.numbering, m);
    if (!st.ok()) return st;
    s.in_hand = m;
  }
  if (j.contains("pending"))
    if (Status st = ParsePending(j["pending"], where, players, s); !st.ok()) return st;
  if (j.contains("turn_part"))
    if (Status st = ParseTurnPart(j["turn_part"], where, s); !st.ok()) return st;
  if (j.contains("turn_figures"))
    if (Status st = ParseTurnFigures(j["turn_figures"], where, players, s); !st.ok()) return st;
  // MSG-4, MSG-FN6: the turn part is the core's too (TurnState::part), so that other modules
  // know a tile was placed in an earlier part of this turn.
  pos.turn.part = s.part.part;
  return Status::Ok();
}

void DumpState(const Position& pos, json& j) {
  const State& s = Slice(pos);
  if (s.variant != Variant::kC3) j["variant"] = VariantName(s.variant);
  // The readings are written by the core as "variants" (DeclareVariants).
  if (s.numbering != Numbering::kHig) j["numbering"] = NumberingName(s.numbering);
  bool any = false;
  for (const Track& t : s.tracks) any |= !(t == Track{});
  if (any) {
    json tr = json::array();
    for (size_t p = 0; p < pos.players.size(); ++p) {
      const Track t = p < s.tracks.size() ? s.tracks[p] : Track{};
      json e = {{"meeple", t.points[0]}};
      if (!t.dame_returned) e["dame"] = t.points[1];
      tr.push_back(e);
    }
    j["tracks"] = tr;
  }
  if (s.stack_known) {
    json st = json::array();
    for (Message m : s.stack) st.push_back(MessageName(m));
    j["stack"] = st;
  }
  if (!s.used.empty()) {
    json u = json::array();
    for (Message m : s.used) u.push_back(MessageName(m));
    j["used"] = u;
  }
  if (s.in_hand) j["in_hand"] = MessageName(*s.in_hand);
  if (!s.pending.empty()) {
    json pe = json::array();
    for (const Pending& p : s.pending) {
      json e = {{"player", p.player}, {"points", p.points}, {"origin", OriginName(p.origin)}};
      if (!p.source.empty()) e["source"] = p.source;
      pe.push_back(e);
    }
    j["pending"] = pe;
  }
  if (!(s.part == TurnPart{})) {
    json tp = json::object();
    if (s.part.part != 1) tp["part"] = s.part.part;
    if (s.part.moved != TurnPart{}.moved) tp["moved"] = FigureList(s.part.moved);
    if (s.part.dark_stop != TurnPart{}.dark_stop) tp["dark_stops"] = FigureList(s.part.dark_stop);
    if (s.part.msg_moved != TurnPart{}.msg_moved)
      tp["message_moved"] = FigureList(s.part.msg_moved);
    if (s.part.msg_dark_stop != TurnPart{}.msg_dark_stop)
      tp["message_dark_stops"] = FigureList(s.part.msg_dark_stop);
    std::array<bool, kFigures> implied = {false, false};
    for (int g = 0; g < kFigures; ++g) implied[g] = s.part.moved[g] || s.part.msg_moved[g];
    if (s.part.moved_any != implied) tp["moved_any"] = FigureList(s.part.moved_any);
    if (s.part.taken != 0) tp["messages_taken"] = s.part.taken;
    j["turn_part"] = tp;
  }
  bool figs = false;
  for (int f : s.turn_figure) figs |= f >= 0;
  if (figs) {
    json tf = json::array();
    for (size_t p = 0; p < pos.players.size(); ++p) {
      int f = p < s.turn_figure.size() ? s.turn_figure[p] : -1;
      tf.push_back(f < 0 ? json(nullptr) : json(FigureName(static_cast<Figure>(f))));
    }
    j["turn_figures"] = tf;
  }
}

Action MessengersAction(Code code, model::ActionArgs args) {
  return {
      .type = ActionType::kExpansion, .expansion = &Get(), .code = code, .args = std::move(args)};
}

// "kind": a message by name or printed number (MSG-FN2); absent: -1, or an error if `required`.
StatusOr<int> MessageArg(const json& j, const Position& pos, const std::string& where,
                         bool required) {
  if (!j.contains("kind")) {
    if (required) return model::JsonError(where + "/kind", "missing: the message drawn");
    return -1;
  }
  Message m;
  if (Status st = ParseMessage(j["kind"], where + "/kind", Slice(pos).numbering, m); !st.ok())
    return st;
  return static_cast<int>(m);
}

// MSG-CHOOSE: "kind" names the scoring figure that takes the points.
StatusOr<Action> ParseAssign(const json& j, const Position&, const std::string& where) {
  if (Status s = model::CheckKeys(j, where, {"kind"}, /*of_type=*/true); !s.ok()) return s;
  if (!j.contains("kind"))
    return model::JsonError(
        where + "/kind",
        "missing: which scoring figure takes the points, meeple or dame (MSG-CHOOSE)");
  auto f = j["kind"].is_string() ? ParseFigure(j["kind"].get<std::string>()) : std::nullopt;
  if (!f)
    return model::JsonError(where + "/kind",
                            "expected \"meeple\" or \"dame\" (the scoring figure)");
  Action a = MessengersAction(kAssign, {});
  kFigureArg.Set(a, *f);
  return a;
}

// draw_message (the message is required) and take_seal (optional: the one in hand).
StatusOr<Action> ParseMessageAction(const json& j, const Position& pos, const std::string& where,
                                    Code code) {
  if (Status s = model::CheckKeys(j, where, {"kind"}, /*of_type=*/true); !s.ok()) return s;
  auto m = MessageArg(j, pos, where, /*required=*/code == kDrawMessage);
  if (!m.ok()) return m.status();
  Action a = MessengersAction(code, {});
  if (*m >= 0) kMessageArg.Set(a, static_cast<Message>(*m));  // else absent: reads -1
  return a;
}

// carry_out_message: "kind" the message (optional), x, y, feature the feature of 1-3 or the
// figure of 8 (optional), "figure" the kind of the figure that returns (MSG-8: needed when two
// of the player's kinds share the named segment).
StatusOr<Action> ParseCarryOut(const json& j, const Position& pos, const std::string& where) {
  if (Status s = model::CheckKeys(j, where, {"kind", "x", "y", "feature", "figure"},
                                  /*of_type=*/true);
      !s.ok())
    return s;
  auto m = MessageArg(j, pos, where, /*required=*/false);
  if (!m.ok()) return m.status();
  int node = -1;
  if (j.contains("x") || j.contains("y") || j.contains("feature")) {
    auto n = model::ReadFeatureRef(j, pos, where);
    if (!n.ok()) return n.status();
    node = *n;
  }
  int figure = -1;
  if (j.contains("figure")) {
    const json& jf = j["figure"];
    if (node < 0)
      return model::JsonError(where + "/figure", "give the figure's tile and feature with it");
    if (!jf.is_string()) return model::JsonError(where + "/figure", "expected a figure kind name");
    figure = pos.cfg().FigureKind(jf.get<std::string>());
    if (figure < 0)
      return model::JsonError(where + "/figure", "unknown figure kind \"" + jf.get<std::string>() +
                                                     "\" for these rules");
  }
  Action a = MessengersAction(kCarryOut, {});
  if (*m >= 0) kMessageArg.Set(a, static_cast<Message>(*m));  // else absent: reads -1
  kNodeArg.Set(a, node);
  kKindArg.Set(a, figure);
  return a;
}

void DumpMessage(const Action& a, json& j) {
  if (kMessageArg.Has(a)) j["kind"] = MessageName(kMessageArg(a));
}

// "message 6 (2 points per knight)": the message named, else the one in hand or on top.
std::string Label(const State& s, const Action& a) {
  if (kMessageArg.Has(a)) return MessageLabel(s, kMessageArg(a));
  if (s.in_hand) return MessageLabel(s, *s.in_hand);
  if (s.stack_known && !s.stack.empty()) return MessageLabel(s, s.stack.front());
  return "the message drawn";
}

std::string DescribeAssign(const Position& pos, const Action& a) {
  const State& s = Slice(pos);
  const std::string figure(FigureName(kFigureArg(a)));
  if (s.pending.empty()) return "assign points to the " + figure;
  const Pending& e = s.pending.front();
  return "move " + pos.players[e.player].name + "'s " + figure + " by the " +
         std::to_string(e.points) + " points of " + e.source;
}

std::string DescribeCarryOut(const Position& pos, const Action& a) {
  std::string d = "carry out " + Label(Slice(pos), a);
  if (kNodeArg.Has(a)) d += " on " + model::FeatureAt(pos, kNodeArg(a));
  if (kKindArg.Has(a)) d += " (the " + pos.cfg().figure_kinds[kKindArg(a)].name + ")";
  return d;
}

}  // namespace

void DeclareState(model::ModuleLoader& loader) {
  loader.SetState({[] { return std::make_unique<State>(); }, ParseState, DumpState});
}

// The names of the figures and messages by value, as the actions write them.
std::vector<std::string_view> FigureNames() {
  return model::EnumNames<Figure>(kFigures, FigureName);
}
std::vector<std::string_view> MessageNames() {
  return model::EnumNames<Message>(kMessages, MessageName);
}

// The core reads only its own actions' keys; each of these checks its own (model::CheckKeys).
void DeclareActions(model::ModuleLoader& loader) {
  using model::ArgType;
  loader.AddAction({.type = "assign_points",
                    .code = kAssign,
                    .args = {{"kind", ArgType::kEnum, false, FigureNames()}},
                    .summary = "move a scoring figure by the points waiting (MSG-CHOOSE)",
                    .parse = ParseAssign,
                    .dump = [](const Position&, const Action& a,
                               json& j) { j["kind"] = FigureName(kFigureArg(a)); },
                    .describe = DescribeAssign});
  loader.AddAction({.type = "draw_message",
                    .code = kDrawMessage,
                    .args = {{"kind", ArgType::kEnum, false, MessageNames()}},
                    .summary = "draw the top message (MSG-DARK, MSG-SECOND)",
                    .parse =
                        [](const json& j, const Position& pos, const std::string& where) {
                          return ParseMessageAction(j, pos, where, kDrawMessage);
                        },
                    .dump = [](const Position&, const Action& a, json& j) { DumpMessage(a, j); },
                    .describe = [](const Position& pos,
                                   const Action& a) { return "draw " + Label(Slice(pos), a); }});
  loader.AddAction(
      {.type = "take_seal",
       .code = kSeal,
       .args = {{"kind", ArgType::kEnum, /*optional=*/true, MessageNames()}},
       .summary = "take the message's 2-point seal instead (MSG-RESOLVE)",
       .parse = [](const json& j, const Position& pos,
                   const std::string& where) { return ParseMessageAction(j, pos, where, kSeal); },
       .dump = [](const Position&, const Action& a, json& j) { DumpMessage(a, j); },
       .describe =
           [](const Position& pos, const Action& a) {
             return "take the 2-point seal of " + Label(Slice(pos), a);
           }});
  loader.AddAction({.type = "carry_out_message",
                    .code = kCarryOut,
                    // "figure" only with message 8 (shape 1; the message in hand may be it).
                    .args = {{"kind", ArgType::kEnum, /*optional=*/true, MessageNames()},
                             {"", ArgType::kFeature, /*optional=*/true},
                             {.key = "figure",
                              .type = ArgType::kFigureKind,
                              .optional = true,
                              .shapes = 1u << 1,
                              .needs = 1}},
                    .summary = "carry out the message drawn (MSG-1 .. MSG-8)",
                    .parse = ParseCarryOut,
                    .dump =
                        [](const Position& pos, const Action& a, json& j) {
                          DumpMessage(a, j);
                          if (kNodeArg.Has(a)) j.update(model::FeatureRefJson(pos, kNodeArg(a)));
                          if (kKindArg.Has(a))
                            j["figure"] = pos.cfg().figure_kinds[kKindArg(a)].name;
                        },
                    .describe = DescribeCarryOut,
                    .shape_of =
                        [](const Action& a) {
                          return !kMessageArg.Has(a) || kMessageArg(a) == Message::kScoreAndReturn
                                     ? 1
                                     : 0;
                        }});
}

// The core reads and writes them as "variants": {"<RULING-ID>": "<reading>"} (exit 69 for an
// unknown ID or reading); the retired spelling "readings" exits 69 naming "variants".
void DeclareVariants(model::ModuleLoader& loader) {
  for (const ReadingDef& d : kReadings)
    loader.AddVariant(
        {d.ruling,
         {d.adopted, d.other},
         0,
         [flag = d.flag](Position& pos, int r) {
           Slice(pos).readings.*flag = r == 1;
           if (flag == &Readings::unbounded_chain) Slice(pos).chain_reading_stated = true;
         },
         [flag = d.flag](const Position& pos) { return Slice(pos).readings.*flag ? 1 : 0; }});
}

}  // namespace carc::exp::messengers

#include "database/jcz_record.h"

#include <filesystem>
#include <map>

#include "model/core/input_file.h"
#include "model/core/notation_text.h"

namespace carc::database {

using model::ErrorCode;
using model::Status;
using nlohmann::json;

const std::map<std::string, std::string>& JczTileIds() {
  static const std::map<std::string, std::string> ids = {
      {"BA/LR", "A"},   {"BA/L", "B"},     {"BA/Cccc+", "C"}, {"BA/RCr", "D"},   {"BA/C", "E"},
      {"BA/CFc+", "F"}, {"BA/CFc.1", "G"}, {"BA/CFC.2", "H"}, {"BA/CC.2", "I"},  {"BA/CRr", "J"},
      {"BA/RrC", "K"},  {"BA/CRRR", "L"},  {"BA/Cc+", "M"},   {"BA/Cc.1", "N"},  {"BA/CcRr+", "O"},
      {"BA/CcRr", "P"}, {"BA/Ccc+", "Q"},  {"BA/Ccc", "R"},   {"BA/CccR+", "S"}, {"BA/CccR", "T"},
      {"BA/RFr", "U"},  {"BA/Rr", "V"},    {"BA/RRR", "W"},   {"BA/RRRR", "X"}};
  return ids;
}

std::optional<int> JczRotation(const std::string& r) {
  if (r == "R0") return 0;
  if (r == "R90") return 90;
  if (r == "R180") return 180;
  if (r == "R270") return 270;
  return std::nullopt;
}

std::string JczFeatureName(const std::string& feature, std::string loc) {
  if (feature == "Monastery") return "monastery";
  if (feature == "Field") return "field:" + loc;
  if (loc.size() == 2 && loc[0] == '_') {
    std::string all = "NESW";
    if (auto at = all.find(loc[1]); at != std::string::npos) all.erase(at, 1);
    loc = all;
  }
  return (feature == "Road" ? "road:" : "city:") + loc;
}

std::optional<std::pair<int, int>> JczPosition(const json& p) {
  if (!p.is_array() || p.size() != 2) return std::nullopt;
  auto x = model::JsonInt(p[0]), y = model::JsonInt(p[1]);
  if (!x || !y) return std::nullopt;
  return std::make_pair(*x, *y);
}

std::optional<std::vector<int>> JczScores(const json& s) {
  if (!s.is_array() || s.size() > 6) return std::nullopt;
  std::vector<int> out;
  for (const json& v : s) {
    auto i = model::JsonInt(v);
    if (!i) return std::nullopt;
    out.push_back(*i);
  }
  return out;
}

namespace {

// Typed access by JSON pointer: every failure is a Status naming the file and the pointer, and
// says what was expected and what was found (never a library's exception text).
struct Reader {
  const std::string& source;
  Status error;

  bool Fail(const std::string& where, const std::string& what,
            ErrorCode code = ErrorCode::kMalformed) {
    if (error.ok())
      error = Status(code, source + ":" + (where.empty() ? "/" : where) + ": " + what);
    return false;
  }
  static std::string Found(const json& j) {
    std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
    return s.size() > 40 ? std::string(j.type_name()) : s;
  }
  // obj[key] of an object: nullptr (and the error) when obj is not an object or has no key.
  const json* Field(const json& obj, const std::string& where, const char* key) {
    if (!obj.is_object()) {
      Fail(where, std::string("expected an object, got ") + obj.type_name());
      return nullptr;
    }
    auto it = obj.find(key);
    if (it == obj.end()) {
      Fail(where, std::string("missing field \"") + key + "\"");
      return nullptr;
    }
    return &*it;
  }
  const json* Array(const json& obj, const std::string& where, const char* key) {
    const json* v = Field(obj, where, key);
    if (v && !v->is_array()) {
      Fail(where + "/" + key, std::string("expected an array, got ") + v->type_name());
      return nullptr;
    }
    return v;
  }
  const json* Object(const json& obj, const std::string& where, const char* key) {
    const json* v = Field(obj, where, key);
    if (v && !v->is_object()) {
      Fail(where + "/" + key, std::string("expected an object, got ") + v->type_name());
      return nullptr;
    }
    return v;
  }
  // Every key of `obj` is one of `keys`: a key the reader does not know is refused by name, not
  // skipped (it could change the game the file means).
  bool Keys(const json& obj, const std::string& where,
            std::initializer_list<std::string_view> keys) {
    for (const auto& [key, value] : obj.items()) {
      bool known = false;
      for (std::string_view k : keys) known |= key == k;
      if (!known)
        return Fail(where + "/" + key.substr(0, 100),
                    "unknown field \"" + key.substr(0, 100) + "\"");
    }
    return true;
  }
  const std::string* String(const json& obj, const std::string& where, const char* key) {
    const json* v = Field(obj, where, key);
    if (v && !v->is_string()) {
      Fail(where + "/" + key, "expected a string, got " + Found(*v));
      return nullptr;
    }
    return v ? &v->get_ref<const std::string&>() : nullptr;
  }
};

// JCZ's rule settings (setup.rules): the value each must have for the model's game, or, for a
// rule of an expansion the model refuses (so it cannot act), the JSON type of its value.
struct JczRule {
  const char* key;
  json::value_t type;       // string or boolean
  const char* model_value;  // the one value the model plays, or nullptr: any value of `type`
};

// BASE-SCORE-CITY, BASE-SCORE-CITY-C1-SMALL: a completed city of two tiles scores 4 (the model
// replays .jcz games as C3), JCZ's tiny-city-scoring "4".
// The others belong to expansions the model does not have (setup.sets and setup.elements refuse
// those expansions), so their settings cannot change a base game.
constexpr JczRule kJczRules[] = {
    {"tiny-city-scoring", json::value_t::string, "4"},
    {"princess-action", json::value_t::string, nullptr},
    {"fairy-placement", json::value_t::string, nullptr},
    {"dragon-move", json::value_t::string, nullptr},
    {"barn-placement", json::value_t::string, nullptr},
    {"wagon-move", json::value_t::string, nullptr},
    {"bazaar-no-auction", json::value_t::boolean, nullptr},
    {"hill-tiebreaker", json::value_t::string, nullptr},
    {"espace-variant", json::value_t::string, nullptr},
    {"gq11-pig-herd", json::value_t::string, nullptr},
    {"tunnelize-other-expansions", json::value_t::boolean, nullptr},
    {"more-tunnel-tokens", json::value_t::string, nullptr},
    {"festival-return", json::value_t::string, nullptr},
    {"keep-monasteries", json::value_t::string, nullptr},
    {"labyrinth-variant", json::value_t::string, nullptr},
    {"coc-final-scoring", json::value_t::string, nullptr},
    {"count-move", json::value_t::string, nullptr},
    {"little-buildings-scoring", json::value_t::string, nullptr},
    {"king-and-robber-scoring", json::value_t::string, nullptr},
};

// setup.rules: a rule JCZ has whose setting the model does not play is kUnknownRules (69); a key
// that is no JCZ rule, or a value of the wrong type, is malformed (65).
bool ReadRules(Reader& rd, const json& rules) {
  if (!rules.is_object())
    return rd.Fail("/setup/rules", std::string("expected an object, got ") + rules.type_name());
  for (const auto& [key, value] : rules.items()) {
    const std::string where = "/setup/rules/" + key.substr(0, 100);
    const JczRule* rule = nullptr;
    for (const JczRule& r : kJczRules)
      if (key == r.key) rule = &r;
    if (!rule) return rd.Fail(where, "unknown rule \"" + key.substr(0, 100) + "\"");
    if (value.type() != rule->type)
      return rd.Fail(where, std::string("expected a ") +
                                (rule->type == json::value_t::string ? "string" : "boolean") +
                                ", got " + Reader::Found(value));
    if (rule->model_value && value != rule->model_value)
      return rd.Fail(where,
                     "rule " + key + " " + Reader::Found(value) +
                         ", which the model does not have (it plays \"" + rule->model_value + "\")",
                     ErrorCode::kUnknownRules);
  }
  return true;
}

// BASE-SETUP: the model has the base game and, of JCZ's elements, Phantom. A tile set or an
// element it does not have is refused by name (kUnknownRules), so that no such game is replayed
// as a base game and reported as agreeing.
bool ReadSetup(Reader& rd, const json& setup, GameRecord& r, SourceMap& from) {
  // The keys JCloisterZone writes (every file of fixtures/peer-games has these); any other is
  // refused by name: it could mean a game the model would not play.
  if (!rd.Keys(setup, "/setup",
               {"sets", "elements", "rules", "start", "gameId", "players", "initialRandom",
                "gameAnnotations"}))
    return false;
  if (auto it = setup.find("gameId"); it != setup.end() && !it->is_string())
    return rd.Fail("/setup/gameId", "expected a string, got " + Reader::Found(*it));
  if (auto it = setup.find("initialRandom"); it != setup.end() && !it->is_number())
    return rd.Fail("/setup/initialRandom", "expected a number, got " + Reader::Found(*it));
  if (auto it = setup.find("gameAnnotations"); it != setup.end() && !it->is_object())
    return rd.Fail("/setup/gameAnnotations", "expected an object, got " + Reader::Found(*it));
  const json* sets = rd.Object(setup, "/setup", "sets");
  if (!sets) return false;
  if (sets->empty()) return rd.Fail("/setup/sets", "no tile set (expected {\"basic:1\": 1})");
  for (const auto& [key, value] : sets->items()) {
    if (key != "basic:1")
      return rd.Fail("/setup/sets/" + key,
                     "tile set \"" + key + "\", which the model does not have (it has basic:1)",
                     ErrorCode::kUnknownRules);
    if (value != 1)
      return rd.Fail("/setup/sets/basic:1",
                     "expected one copy of the base set, got " + Reader::Found(value),
                     ErrorCode::kUnknownRules);
  }
  const json* elements = rd.Object(setup, "/setup", "elements");
  if (!elements) return false;
  bool followers = false, farmers = false;
  for (const auto& [key, value] : elements->items()) {
    const std::string where = "/setup/elements/" + key;
    // A value of the wrong type is a malformed file (65), not rules the model lacks (69): "7"
    // or 7.0 meeples, "true" farmers are no count and no switch JCloisterZone writes.
    const bool counted = key == "small-follower" || key == "phantom";
    if (counted && !value.is_number_integer())
      return rd.Fail(where, "expected a whole number of figures each, got " + Reader::Found(value));
    if (key == "farmers" && !value.is_boolean())
      return rd.Fail(where, "expected true or false, got " + Reader::Found(value));
    if (key == "small-follower") {
      if (value != 7)
        return rd.Fail(where, Reader::Found(value) + " meeples each; the model's base game has 7",
                       ErrorCode::kUnknownRules);
      followers = true;
    } else if (key == "farmers") {
      if (value != true)
        return rd.Fail(where, "a game without farmers, which the model does not have",
                       ErrorCode::kUnknownRules);
      farmers = true;
    } else if (key == "phantom") {
      if (value != 1)
        return rd.Fail(where, "expected one phantom each, got " + Reader::Found(value),
                       ErrorCode::kUnknownRules);
      r.expansions.push_back("phantom");
    } else {
      return rd.Fail(where,
                     "element \"" + key +
                         "\", which the model does not have (it has small-follower, farmers, "
                         "phantom)",
                     ErrorCode::kUnknownRules);
    }
  }
  if (!followers || !farmers)
    return rd.Fail("/setup/elements",
                   std::string("no \"") + (followers ? "farmers" : "small-follower") +
                       "\": a game without them, which the model does not have",
                   ErrorCode::kUnknownRules);
  if (setup.contains("rules") && !ReadRules(rd, setup["rules"])) return false;
  const json* start = rd.Array(setup, "/setup", "start");
  if (!start) return false;
  if (start->empty()) return rd.Fail("/setup/start", "expected at least the start tile");
  r.start = json::array();
  for (size_t i = 0; i < start->size(); ++i) {
    const std::string w = "/setup/start/" + std::to_string(i);
    const json& s = (*start)[i];
    if (!rd.Keys(s, w, {"tile", "x", "y", "rotation"})) return false;
    const std::string* tile = rd.String(s, w, "tile");
    if (!tile) return false;
    auto it = JczTileIds().find(*tile);
    if (it == JczTileIds().end())
      return rd.Fail(w + "/tile", "unknown tile " + Reader::Found(s["tile"]));
    json entry = {{"tile", it->second}, {"rotation", 0}};
    for (const char* k : {"x", "y"}) {
      const json* v = rd.Field(s, w, k);
      if (!v) return false;
      auto n = model::JsonInt(*v);
      if (!n) return rd.Fail(w + "/" + k, model::JsonIntError(*v));
      entry[k] = *n;
    }
    if (auto rot = s.find("rotation"); rot != s.end()) {
      std::optional<int> deg =
          rot->is_string() ? JczRotation(rot->get<std::string>()) : model::JsonInt(*rot);
      if (!deg || (*deg != 0 && *deg != 90 && *deg != 180 && *deg != 270))
        return rd.Fail(w + "/rotation", "expected 0, 90, 180, 270 or R0, R90, R180, R270, got " +
                                            Reader::Found(*rot));
      entry["rotation"] = *deg;
    }
    r.start.push_back(entry);
    from.start.push_back(w);
  }
  return true;
}

// setup.players, when given, is the number of players the game was set up for: the list of
// players must have that many (BASE-SETUP), or the file's scores and turns mean another game.
bool ReadSetupPlayers(Reader& rd, const json& setup, size_t players) {
  auto it = setup.find("players");
  if (it == setup.end()) return true;
  const auto n = model::JsonInt(*it);
  if (!n)
    return rd.Fail("/setup/players", "expected the number of players, got " + Reader::Found(*it));
  if (*n != static_cast<int>(players))
    return rd.Fail("/setup/players", "a game set up for " + std::to_string(*n) +
                                         " players, but /players lists " + std::to_string(players));
  return true;
}

bool ReadScores(Reader& rd, const json& j, const std::string& where, size_t players,
                std::vector<int>& out) {
  auto s = JczScores(j);
  if (!s || s->size() != players)
    return rd.Fail(where, "expected a list of " + std::to_string(players) +
                              " integer scores, got " + Reader::Found(j));
  out = std::move(*s);
  return true;
}

// One DEPLOY_MEEPLE. The figure is the player's whose turn it is (turns go round in seat order:
// the supported subset has no extra turn): "1.small.3" in player 0's turn is refused. Its id
// goes to the replay (SourceMap), which refuses it while that figure stands on the board.
bool ReadDeploy(Reader& rd, const json& payload, const std::string& where, size_t player,
                bool phantom, json& action, SourceMap::FigureId& figure) {
  const std::string* id = rd.String(payload, where, "meepleId");
  if (!id) return false;
  const std::string wid = where + "/meepleId";
  const size_t dot = id->find('.'), dot2 = dot == std::string::npos ? dot : id->find('.', dot + 1);
  // The player is one digit (seats 0 to 5), as the figure's number is: "00.small.1" is not
  // read as player 0, nor "0.small.01" as meeple 1.
  if (dot != 1 || dot2 == std::string::npos || id->find_first_not_of("0123456789") != dot)
    return rd.Fail(wid, "expected PLAYER.KIND.N (e.g. \"0.small.1\"), got " + Reader::Found(*id));
  const size_t owner = std::stoul(id->substr(0, dot));
  const std::string kind = id->substr(dot + 1, dot2 - dot - 1);
  if (owner != player)
    return rd.Fail(wid, "a figure of player " + std::to_string(owner) + ", but it is player " +
                            std::to_string(player) + "'s turn");
  if (kind != "small" && !(kind == "phantom" && phantom))
    return rd.Fail(wid,
                   "unknown figure \"" + kind + "\" (small" + (phantom ? ", phantom" : "") + ")");
  // BASE-MEEPLE-SUPPLY: 7 meeples each, numbered 1 to 7 (PH-SETUP: one phantom, numbered 1).
  const std::string number = id->substr(dot2 + 1);
  const int count = kind == "small" ? 7 : 1;
  if (number.size() != 1 || number[0] < '1' || number[0] > '0' + count)
    return rd.Fail(wid, "figure number " + Reader::Found(number) + " of kind " + kind +
                            ": expected 1 to " + std::to_string(count) + " (" +
                            std::to_string(count) + (kind == "small" ? " meeples" : " phantom") +
                            " each)");
  if (!rd.Keys(payload, where, {"meepleId", "pointer"})) return false;
  const json* ptr = rd.Object(payload, where, "pointer");
  if (!ptr) return false;
  const std::string wp = where + "/pointer";
  if (!rd.Keys(*ptr, wp, {"position", "feature", "location"})) return false;
  const json* pos = rd.Field(*ptr, wp, "position");
  if (!pos) return false;
  auto xy = JczPosition(*pos);
  if (!xy) return rd.Fail(wp + "/position", "expected [x, y], two integers");
  const std::string* feature = rd.String(*ptr, wp, "feature");
  if (!feature) return false;
  if (*feature != "Road" && *feature != "City" && *feature != "Field" && *feature != "Monastery")
    return rd.Fail(wp + "/feature",
                   "expected Road, City, Field or Monastery, got " + Reader::Found(*feature));
  std::string location;
  if (*feature != "Monastery") {
    const std::string* loc = rd.String(*ptr, wp, "location");
    if (!loc) return false;
    location = *loc;
  }
  action = {{"type", "place_figure"},
            {"kind", kind == "phantom" ? "phantom" : "meeple"},
            {"x", xy->first},
            {"y", xy->second},
            {"feature", JczFeatureName(*feature, location)}};
  figure = {*id, wid};
  return true;
}

// One PLACE_TILE: {tileId, rotation, position}.
bool ReadPlaceTile(Reader& rd, const json& p, const std::string& wpay, json& action) {
  if (!rd.Keys(p, wpay, {"tileId", "rotation", "position"})) return false;
  const std::string* tile = rd.String(p, wpay, "tileId");
  if (!tile) return false;
  auto it = JczTileIds().find(*tile);
  if (it == JczTileIds().end())
    return rd.Fail(wpay + "/tileId", "unknown tile " + Reader::Found(*tile));
  const json* pos = rd.Field(p, wpay, "position");
  if (!pos) return false;
  auto xy = JczPosition(*pos);
  if (!xy) return rd.Fail(wpay + "/position", "expected [x, y], two integers");
  const std::string* rot = rd.String(p, wpay, "rotation");
  if (!rot) return false;
  auto deg = JczRotation(*rot);
  if (!deg)
    return rd.Fail(wpay + "/rotation",
                   "expected R0, R90, R180 or R270, got " + Reader::Found(*rot));
  action = {{"type", "place_tile"},
            {"tile", it->second},
            {"x", xy->first},
            {"y", xy->second},
            {"rotation", *deg}};
  return true;
}

// /players: {name, slot} each. The model plays the seats in the order of the list, and JCZ in
// the order of the slots, so the slots must rise along the list: each a seat 0 to 5, given once.
bool ReadPlayers(Reader& rd, const json& players, GameRecord& r) {
  int last_slot = -1;
  for (size_t i = 0; i < players.size(); ++i) {
    const std::string w = "/players/" + std::to_string(i);
    const json& pl = players[i];
    const std::string* name = rd.String(pl, w, "name");
    if (!name) return false;
    if (std::string why = model::NameProblem(*name); !why.empty())
      return rd.Fail(w + "/name", "a player's name: " + why);
    if (!rd.Keys(pl, w, {"name", "slot"})) return false;
    const json* slot = rd.Field(pl, w, "slot");
    if (!slot) return false;
    const auto seat = model::JsonInt(*slot);
    if (!seat || *seat < 0 || *seat > 5)
      return rd.Fail(w + "/slot", "expected a seat from 0 to 5, got " + Reader::Found(*slot));
    for (size_t k = 0; k < i; ++k)
      if (players[k]["slot"] == *slot)
        return rd.Fail(w + "/slot", "seat " + std::to_string(*seat) +
                                        " given twice (first at /players/" + std::to_string(k) +
                                        "/slot)");
    if (*seat < last_slot)
      return rd.Fail(w + "/slot", "seat " + std::to_string(*seat) + " after seat " +
                                      std::to_string(last_slot) +
                                      ": the players are listed in the order of their seats");
    last_slot = *seat;
    r.players.push_back(*name);
  }
  return true;
}

}  // namespace

model::StatusOr<JczGame> ReadJcz(const json& d, const std::string& source) {
  Reader rd{source, Status::Ok()};
  JczGame g;
  GameRecord& r = g.record;
  if (!d.is_object())
    return Status(ErrorCode::kMalformed,
                  source + ":/: a .jcz game is a JSON object, got " + d.type_name());
  r.meta = {{"origin", "jcz"}, {"file", std::filesystem::path(source).filename().string()}};
  for (const char* k : {"gameId", "appVersion"}) {
    std::string v;
    if (auto it = d.find(k); it != d.end()) {
      if (!it->is_string())
        return Status(ErrorCode::kMalformed,
                      source + ":/" + k + ": expected a string, got " + Reader::Found(*it));
      v = it->get<std::string>();
    }
    r.meta[k == std::string("gameId") ? "jcz_game_id" : "jcz_app_version"] = v;
  }
  // The top-level keys JCloisterZone writes (every file of fixtures/peer-games has these).
  if (!rd.Keys(d, "",
               {"appVersion", "gameId", "name", "initialRandom", "created", "clock", "setup",
                "players", "replay", "finalPoints", "pointsAfterEachTurn"}))
    return rd.error;
  SourceMap& from = g.from;
  const json* setup = rd.Object(d, "", "setup");
  if (!setup || !ReadSetup(rd, *setup, r, from)) return rd.error;
  const bool phantom = !r.expansions.empty();
  const json* players = rd.Array(d, "", "players");
  if (!players) return rd.error;
  if (players->empty() || players->size() > 6)
    return Status(ErrorCode::kMalformed, source + ":/players: expected 1 to 6 players, got " +
                                             std::to_string(players->size()));
  if (!ReadPlayers(rd, *players, r) || !ReadSetupPlayers(rd, *setup, r.players.size()))
    return rd.error;
  const json* replay = rd.Array(d, "", "replay");
  const json* points = replay ? rd.Array(d, "", "pointsAfterEachTurn") : nullptr;
  if (!points) return rd.error;
  const size_t n = r.players.size();
  TurnRecord turn;
  std::vector<std::string> turn_where;
  std::vector<SourceMap::FigureId> turn_figures;
  for (size_t i = 0; i < replay->size(); ++i) {
    const json& m = (*replay)[i];
    const std::string where = "/replay/" + std::to_string(i);
    const std::string* type = rd.String(m, where, "type");
    if (!type) return rd.error;
    const std::string wpay = where + "/payload";
    if (!rd.Keys(m, where, {"type", "payload"})) return rd.error;
    // Every message has a payload (PASS an empty one); its keys are the message's own.
    const json* p = rd.Object(m, where, "payload");
    if (!p) return rd.error;
    SourceMap::FigureId figure;  // a DEPLOY_MEEPLE's meeple
    if (*type == "PLACE_TILE") {
      json action;
      if (!ReadPlaceTile(rd, *p, wpay, action)) return rd.error;
      r.draw_order.push_back(action["tile"].get<std::string>());
      from.draws.push_back(wpay + "/tileId");
      turn.actions.push_back(std::move(action));
    } else if (*type == "DEPLOY_MEEPLE") {
      json action;
      if (!ReadDeploy(rd, *p, wpay, r.turns.size() % n, phantom, action, figure)) return rd.error;
      turn.actions.push_back(std::move(action));
    } else if (*type == "PASS") {
      if (!rd.Keys(*p, wpay, {})) return rd.error;
      turn.actions.push_back({{"type", "pass"}});
    } else if (*type == "COMMIT") {
      if (!rd.Keys(*p, wpay, {"random"})) return rd.error;
      // JCZ's random draw for the next turn, a number in [0, 1): not used by the replay, but a
      // value of another type is a file that is not what it claims.
      if (const auto rnd = p->find("random");
          rnd != p->end() &&
          !(rnd->is_number_float() && rnd->get<double>() >= 0 && rnd->get<double>() < 1))
        return rd.Fail(wpay + "/random",
                       "expected a number from 0 to below 1, got " + Reader::Found(*rnd)),
               rd.error;
      const size_t t = r.turns.size();
      if (turn.actions.empty())
        return Status(ErrorCode::kMalformed, source + ":" + where + ": a turn without actions");
      if (t >= points->size())
        return Status(ErrorCode::kMalformed, source + ":/pointsAfterEachTurn: fewer entries (" +
                                                 std::to_string(points->size()) + ") than turns");
      std::vector<int> scores;
      if (!ReadScores(rd, (*points)[t], "/pointsAfterEachTurn/" + std::to_string(t), n, scores))
        return rd.error;
      turn.scores = std::move(scores);
      r.turns.push_back(std::move(turn));
      from.actions.push_back(std::move(turn_where));
      from.figure_ids.push_back(std::move(turn_figures));
      from.turn_ends.push_back(where);
      turn = TurnRecord();
      turn_where.clear();
      turn_figures.clear();
      continue;
    } else {
      return Status(ErrorCode::kMalformed, source + ":" + where + "/type: unsupported message " +
                                               Reader::Found(*type) +
                                               " (PLACE_TILE, DEPLOY_MEEPLE, PASS, COMMIT)");
    }
    turn_where.push_back(where);
    turn_figures.push_back(std::move(figure));
  }
  if (!turn.actions.empty())
    return Status(ErrorCode::kMalformed, source + ":/replay: the last turn has no COMMIT");
  if (points->size() != r.turns.size())
    return Status(ErrorCode::kMalformed,
                  source + ":/pointsAfterEachTurn: " + std::to_string(points->size()) +
                      " entries for " + std::to_string(r.turns.size()) + " turns");
  const json* final_points = rd.Field(d, "", "finalPoints");
  std::vector<int> final_scores;
  if (!final_points || !ReadScores(rd, *final_points, "/finalPoints", n, final_scores))
    return rd.error;
  r.final_scores = std::move(final_scores);
  return g;
}

model::StatusOr<GameRecord> JczToRecord(const json& jcz, const std::string& source) {
  auto g = ReadJcz(jcz, source);
  if (!g.ok()) return g.status();
  return std::move(g->record);
}

}  // namespace carc::database

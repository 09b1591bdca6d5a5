// Writing positions without writing JSON: `carc convert` (one-line notation <-> JSON),
// `carc tiles` (every tile's edges and feature names per rotation; --svg draws the sheet),
// `carc new` (a start position) and `carc play` (apply legal actions, write the next position).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "adjudicator/adjudicate.h"
#include "adjudicator/cmd_tiles.h"
#include "adjudicator/commands.h"
#include "adjudicator/exit_codes.h"
#include "model/core/input_file.h"
#include "model/core/notation.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator {

namespace {

using nlohmann::json;

int Fail(const model::Status& s) {
  std::cerr << "carc: " << s.message() << "\n";
  return static_cast<int>(s.code());
}

// A position file, a notation file, a line given as the argument, or "-" (stdin). `was_line`
// tells which form it was, so that `play` answers in the same form.
model::StatusOr<json> ReadDoc(const std::string& path, bool& was_line) {
  std::error_code ec;
  if (path != "-" && !std::filesystem::exists(path, ec) && model::LooksLikeLine(path)) {
    was_line = true;
    return model::LineToJson(path, "line");
  }
  auto text = model::ReadInputFile(path);
  if (!text.ok()) return text.status();
  was_line = model::LooksLikeLine(*text);
  if (was_line) return model::LineToJson(*text, model::DisplayName(path));
  return model::ParseJsonText(*text, model::DisplayName(path));
}

// A line given as the argument is named "line" in messages, with the column of the part a
// message is about (a later message would otherwise start with the whole line).
model::Status Located(const model::Status& s, const std::string& path) {
  if (s.ok() || !model::IsLineArgument(path)) return s;
  return model::Status(s.code(), model::LocateInLine(path, "line", s.message()));
}

// The document as a line (short form unless exact) or as JSON.
model::StatusOr<std::string> Render(const json& doc, const std::string& to, bool exact,
                                    const std::string& source) {
  json d = exact ? doc : model::MinimalJson(doc, exp::Context(source));
  if (to == "json") return d.dump(2) + "\n";
  auto line = model::JsonToLine(d);
  if (!line.ok()) return line.status();
  return *line + "\n";
}

int Write(const std::string& text, const std::string& path) {
  if (path.empty() || path == "-") {
    std::cout << text;
    return kExitUpheld;
  }
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f) {
    std::cerr << "carc: " << path << ": cannot write the file\n";
    return kExitIo;
  }
  return kExitUpheld;
}

struct State {
  std::string file, to, out;
  bool exact = false;
  bool svg = false;
  std::string players, expansions, edition = "C3", farm;
  std::vector<std::string> actions;
};

int Convert(const State& st) {
  bool was_line = false;
  auto doc = ReadDoc(st.file, was_line);
  if (!doc.ok()) return Fail(doc.status());
  const std::string source = model::SourceName(st.file);
  if (auto s = Located(CheckPositionJson(*doc, source), st.file); !s.ok()) return Fail(s);
  auto text = Render(*doc, st.to, st.exact || st.to == "json", source);
  if (!text.ok()) return Fail(text.status());
  return Write(*text, st.out);
}

int New(const State& st) {
  // Each item a name: "A,,B" or "A,B," would seat a player with no name (the position file
  // calls nobody "").
  json players = json::array();
  for (size_t start = 0, item = 1;; ++item) {
    const size_t comma = st.players.find(',', start);
    const std::string name = st.players.substr(start, comma - start);
    if (name.find_first_not_of(" \t") == std::string::npos)
      return Fail(model::Status(model::ErrorCode::kMalformed,
                                "--players: item " + std::to_string(item) +
                                    " is empty; give names separated by commas (Anna,Ben)"));
    players.push_back({{"name", name}});
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  // The same for expansions: "phantom,,gifts" or "phantom," is refused, not read as a list
  // without the empty item (no --expansions, or "", is none).
  json exps = json::array();
  for (size_t start = 0, item = 1; !st.expansions.empty(); ++item) {
    const size_t comma = st.expansions.find(',', start);
    const std::string id = st.expansions.substr(start, comma - start);
    if (id.empty())
      return Fail(model::Status(model::ErrorCode::kMalformed,
                                "--expansions: item " + std::to_string(item) +
                                    " is empty; give expansion ids separated by commas "
                                    "(phantom,gifts)"));
    exps.push_back(id);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  json rules = {{"edition", st.edition}, {"expansions", exps}};
  if (!st.farm.empty()) rules["options"]["farm_scoring"] = st.farm;
  // BASE-SETUP: the start tile D at (0, 0), the other 71 tiles face down, the first player to
  // draw; the draw is stated by the players (`carc play FILE "draw U"`).
  json doc = {{"rules", rules},
              {"players", players},
              {"board", json::array({{{"tile", "D"}, {"x", 0}, {"y", 0}}})},
              {"supply", {{"remaining", "rest"}}},
              {"turn", {{"player", 0}, {"step", "draw"}}}};
  if (auto s = CheckPositionJson(doc, "new position"); !s.ok()) return Fail(s);
  // "rest" is kept: the short form of a start position.
  auto text = Render(doc, st.to, /*exact=*/true, "new position");
  if (!text.ok()) return Fail(text.status());
  return Write(*text, st.out);
}

// An action that starts with '[' is read as a JSON array of action objects (the form of a
// question's "actions"). Anything else in brackets is refused, not guessed at: brackets are no
// part of the notation.
model::Status AddBracketedActions(const std::string& a, const std::string& where, json& actions) {
  auto j = model::ParseJsonText(a, where);
  bool objects = j.ok() && j->is_array() && !j->empty();
  if (objects)
    for (const json& x : *j) objects &= x.is_object();
  if (!objects)
    return model::Status(
        model::ErrorCode::kMalformed,
        where + " `" + a.substr(a.find('[')) +
            "`: an action in brackets is read as a JSON array of action objects, and this is not "
            "one; brackets are no part of the notation: give each action as its own argument "
            "without them (e.g. \"place_tile 1,0 0\")");
  for (const json& x : *j) actions.push_back(x);
  return model::Status::Ok();
}

int Play(const State& st, const OutputFormat& fmt) {
  bool was_line = false;
  auto doc = ReadDoc(st.file, was_line);
  if (!doc.ok()) return Fail(doc.status());
  json actions = json::array();
  for (size_t i = 0; i < st.actions.size(); ++i) {
    const std::string& a = st.actions[i];
    std::string where = "action " + std::to_string(i + 1);
    const size_t first = a.find_first_not_of(" \t");
    if (first != std::string::npos && a[first] == '[') {
      if (auto s = AddBracketedActions(a, where, actions); !s.ok()) return Fail(s);
    } else if (first != std::string::npos && a[first] == '{') {
      auto j = model::ParseJsonText(a, where);
      if (!j.ok()) return Fail(j.status());
      actions.push_back(*j);
    } else {
      auto j = model::LineActionsToJson(a, where);
      if (!j.ok()) return Fail(j.status());
      for (const json& x : *j) actions.push_back(x);
    }
  }
  if (actions.empty()) {
    std::cerr << "carc: play needs at least one action (e.g. \"draw U\")\n";
    return kExitUsage;
  }
  const std::string source = model::SourceName(st.file);
  // The file's own question is replaced by the actions, but it is read first: a malformed one
  // is refused, not dropped unread.
  if (doc->contains("question"))
    if (auto s = Located(CheckPositionJson(*doc, source), st.file); !s.ok()) return Fail(s);
  json q = *doc;
  q["question"] = {{"ask", "apply"}, {"actions", actions}};
  Outcome o = RunJson(q, source, {Mode::kAdjudicate, 0});
  if (!o.error.empty() && model::IsLineArgument(st.file))
    o.error = model::LocateInLine(st.file, source, o.error);
  if (!o.error.empty()) return Emit(o, fmt);
  if (o.exit_code != kExitUpheld) {
    // An illegal action is refused with its ruling (exit 1); an impossible position exits 2.
    std::cerr << RulingText(o.ruling);
    return o.exit_code;
  }
  if (fmt.format == "text") std::cerr << RulingText(o.ruling);
  json next = o.ruling["position"];
  if (doc->contains("meta")) next["meta"] = (*doc)["meta"];
  std::string to = st.to.empty() ? (was_line ? "line" : "json") : st.to;
  auto text = Render(next, to, /*exact=*/false, source);
  if (!text.ok()) return Fail(text.status());
  return Write(*text, st.out);
}

}  // namespace

void RegisterAuthoringCommands(Registry& reg) {
  static State st;
  OutputFormat& fmt = *reg.format;
  CLI::App& app = *reg.root;
  auto to_opt = [](CLI::App* c, std::string& to, const char* help) {
    c->add_option("--to", to, help)->check(CLI::IsMember({"line", "json"}));
  };

  if (reg.Wants("convert")) {
    auto* convert = app.add_subcommand(
        "convert", "Write a position as a one-line notation or as JSON (POSITION_FORMAT.md)");
    convert->add_option("file", st.file, "Position: JSON file, notation file, a line, or - (stdin)")
        ->required();
    to_opt(convert, st.to, "line or json");
    convert->get_option("--to")->required();
    convert->add_flag("--exact", st.exact,
                      "Keep every field (default: drop what the model fills in itself)");
    convert->add_option("-o,--output", st.out, "File to write (default: stdout)");
    reg.commands.push_back({convert, [] { return Convert(st); }});
  }

  if (reg.Wants("tiles")) {
    auto* tiles = app.add_subcommand(
        "tiles", "Every tile with its edges and the names of its features at each rotation");
    tiles->add_flag("--svg", st.svg, "Draw the tile sheet (SVG) with the names on the features");
    tiles->add_option("-o,--output", st.out, "File to write (default: stdout)");
    AddFormatOption(tiles, fmt);
    // The sheet is a picture: a --format beside --svg would be silently dropped.
    tiles->get_option("--svg")->excludes(tiles->get_option("--format"));
    reg.commands.push_back({tiles, [&fmt] {
                              if (st.svg) return Write(TileSheetSvg(), st.out);
                              return Write(fmt.format == "text" ? TileSheetText()
                                                                : TileSheetJson().dump(2) + "\n",
                                           st.out);
                            }});
  }

  if (reg.Wants("new")) {
    auto* created = app.add_subcommand("new", "Write a start position (start tile, 71 to draw)");
    created->add_option("--players", st.players, "Names, separated by commas (e.g. Anna,Ben)")
        ->required();
    created->add_option("--expansions", st.expansions,
                        "Expansion ids, separated by commas (phantom, messengers, gifts, "
                        "christmas_present)");
    created->add_option("--edition", st.edition, "C1, C2 or C3 (default C3)");
    created->add_option("--farm-scoring", st.farm, "farm_scoring option (required under C1)");
    to_opt(created, st.to, "line or json (default json)");
    created->add_option("-o,--output", st.out, "File to write (default: stdout)");
    reg.commands.push_back({created, [] {
                              if (st.to.empty()) st.to = "json";
                              return New(st);
                            }});
  }

  if (reg.Wants("play")) {
    auto* play =
        app.add_subcommand("play", "Apply legal actions to a position and write the next position");
    play->add_option("file", st.file, "Position: JSON file, notation file, a line, or - (stdin)")
        ->required();
    play->add_option("actions", st.actions,
                     "Actions as in the notation (\"draw U\", \"place_tile 1,0 90\", "
                     "\"place_figure road\", \"pass\"), JSON objects, or a JSON array of them")
        ->required();
    to_opt(play, st.to, "line or json (default: the form of the input)");
    play->add_option("-o,--output", st.out, "File to write (default: stdout)");
    AddFormatOption(play, fmt);
    reg.commands.push_back({play, [&fmt] { return Play(st, fmt); }});
  }
}

}  // namespace carc::adjudicator

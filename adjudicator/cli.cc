#include "adjudicator/cli.h"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

#include "adjudicator/commands.h"
#include "adjudicator/exit_codes.h"
#include "model/core/input_file.h"

namespace carc::adjudicator {

void AddFormatOption(CLI::App* app, OutputFormat& f) {
  app->add_option("--format", f.format,
                  "Output: json or text (default: text on a terminal, json when piped)")
      ->check(CLI::IsMember({"json", "text"}));
}

int Emit(const Outcome& o, const OutputFormat& f) {
  if (!o.error.empty()) {
    std::cerr << "carc: " << o.error << "\n";
    return o.exit_code;
  }
  if (f.format == "text")
    std::cout << RulingText(o.ruling);
  else
    // replace: a file name that is not UTF-8 must not make the dump throw.
    std::cout << o.ruling.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return o.exit_code;
}

std::string FileNamedTwice(const std::vector<std::string>& files) {
  namespace fs = std::filesystem;
  for (size_t i = 1; i < files.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      std::error_code ec;
      const bool same = fs::equivalent(files[i], files[j], ec) ||
                        fs::absolute(files[i], ec).lexically_normal() ==
                            fs::absolute(files[j], ec).lexically_normal();
      if (same)
        return "file " + std::to_string(i + 1) + " (" + files[i] + ") is file " +
               std::to_string(j + 1) + " (" + files[j] + ") again: name each file once";
    }
  return "";
}

namespace {

constexpr const char* kDescription =
    "carc: the Carcassonne rules adjudicator (base game + Phantom, The Messengers, "
    "The Gifts, Christmas Present). Exit codes: 0 upheld/legal, 1 rejected/illegal, "
    "2 impossible position, 64 usage, 65 malformed, 66 no input, 69 unknown rules, "
    "70 internal, 74 I/O or database.";

// A number on the command line is written in decimal: CLI11 on its own reads "010" as octal 8
// and "0x1" as 1, so `--depth 010` would count depth 8, and a float option takes "nan", which
// passes every range check. Integers are -?digits; floats add a fraction and an exponent.
bool DecimalNumber(const std::string& s, bool fraction) {
  size_t i = s[0] == '-' ? 1 : 0;
  const size_t digits = i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == digits || (s[digits] == '0' && i - digits > 1)) return false;
  if (!fraction) return i == s.size();
  if (i < s.size() && s[i] == '.') {
    const size_t start = ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == start) return false;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    if (++i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == start) return false;
  }
  return i == s.size();
}

// CLI11 reads a 64-bit number with strtoll/strtoull and keeps what they return: a value beyond
// the type saturates (`--games 99999999999999999999` ran for ever as LONG_MAX games) and an
// unsigned one takes a minus sign as a wrap (`--seed -1` played seed 2^64 - 1, as did
// `--seed 2^64`). So a whole number must fit a signed (INT) or unsigned (UINT) 64-bit integer
// as written; narrower options keep CLI11's own range checks.
bool FitsWholeNumber(const std::string& s, bool is_unsigned) {
  if (is_unsigned && s[0] == '-') return false;
  errno = 0;
  if (is_unsigned)
    (void)std::strtoull(s.c_str(), nullptr, 10);
  else
    (void)std::strtoll(s.c_str(), nullptr, 10);
  return errno != ERANGE;
}

// Every option and positional of every subcommand that takes a number gets the check above.
void StrictNumbers(CLI::App* app) {
  for (CLI::Option* opt : app->get_options()) {
    // The type name is followed by the descriptions of the option's checks ("INT:INT in ...").
    const std::string full = opt->get_type_name();
    const std::string type = full.substr(0, full.find(':'));
    const bool integer = type == "INT" || type == "UINT";
    if (!integer && type != "FLOAT") continue;
    // Inserted before the option's own checks (transform puts it first), so "1.0" is named as
    // not a whole number rather than as out of a range.
    opt->transform(CLI::Validator(
        [integer](std::string& s) -> std::string {
          if (!s.empty() && DecimalNumber(s, !integer)) return "";
          return std::string("expected a ") + (integer ? "whole " : "") +
                 "decimal number (no leading zeros, hex, inf or nan), got " + model::DisplayName(s);
        },
        ""));
    if (!integer) continue;
    const bool is_unsigned = type == "UINT";
    // After the option's own checks (a range, a game number), which name its bounds better;
    // this one catches what would pass them only by saturating or wrapping.
    opt->check(CLI::Validator(
        [is_unsigned](std::string& s) -> std::string {
          if (FitsWholeNumber(s, is_unsigned)) return "";
          return std::string("expected a whole number from ") +
                 (is_unsigned ? "0 to 18446744073709551615"
                              : "-9223372036854775808 to 9223372036854775807") +
                 ", got " + model::DisplayName(s);
        },
        ""));
  }
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) StrictNumbers(sub);
}

// An option given an empty value was read as not given: `-o ''` wrote to stdout, `--png ''`
// drew nothing and exited 0, `fuzz --out ''` kept no counterexample, `--root ''` searched the
// working folder, `rulings list --status ''` listed every ruling, `engine --mutant ''` ran the
// reference, `new --farm-scoring ''` took the default. Every option that takes a text value
// refuses an empty one, after its own checks (whose messages, e.g. `--db`'s and `--sha256`'s,
// stay); positionals keep theirs (`rulings search ''`).
void NonEmptyValues(CLI::App* app) {
  static const char* const kPathOptions[] = {"--output", "--png",   "--svg",   "--out", "--report",
                                             "--root",   "--trace", "--rerun", "--jcz"};
  for (CLI::Option* opt : app->get_options()) {
    const std::string type = opt->get_type_name();
    if (!opt->nonpositional() || opt->get_type_size() == 0 || type.rfind("TEXT", 0) != 0) continue;
    bool path = false;
    for (const char* name : kPathOptions) path |= opt->check_lname(name + 2);
    const std::string what = path ? "an empty file name: name a file, or leave the option out"
                                  : "an empty value: give one, or leave the option out";
    opt->check(CLI::Validator(
        [what](std::string& s) -> std::string { return s.empty() ? what : std::string(); }, ""));
  }
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) NonEmptyValues(sub);
}

// The subcommand groups, one line each. With reg.only set, each group registers only the
// top-level subcommand of that name (and the options it adds to `adjudicate`).
void RegisterAll(Registry& reg) {
  RegisterModelCommands(reg);
  RegisterDatabaseCommands(reg);
  RegisterRenderCommands(reg);
  RegisterPropertyCommands(reg);
  RegisterConformCommands(reg);
  RegisterAuthoringCommands(reg);
  RegisterServeCommands(reg);
  StrictNumbers(reg.root);
  NonEmptyValues(reg.root);
}

// Runs the deepest parsed subcommand of a parsed command line.
int RunParsed(const CLI::App& app, const Registry& reg, OutputFormat& format, int argc,
              char** argv) {
  // People first: text when stdout is a terminal and --format is not given, JSON when piped or
  // redirected (as gh and ls do), so scripts keep reading JSON.
  bool format_given = false;
  for (int i = 1; i < argc; ++i) format_given |= std::string(argv[i]).rfind("--format", 0) == 0;
  if (!format_given && isatty(STDOUT_FILENO)) format.format = "text";
  // The deepest parsed subcommand runs.
  const Command* chosen = nullptr;
  for (const Command& c : reg.commands)
    if (c.app->parsed() && (!chosen || c.app->get_parent() == chosen->app)) chosen = &c;
  if (!chosen) {
    std::cerr << app.help();
    return kExitUsage;
  }
  const int code = chosen->run();
  // A full or closed stdout (> /dev/full) loses the answer: an I/O failure, not success.
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "carc: cannot write the output to stdout\n";
    return kExitIo;
  }
  return code;
}

// CLI11 reads an item of a list option (a vector: play's actions, the files of games import,
// games check-jcz and conform merge, conform --jcz) that starts with '[' and ends with ']' as a
// list written in brackets, and splits it at its commas and drops the brackets: the action
// '[place_tile 1,0 0]' would be the two actions "place_tile 1" and "0 0", and the file "[g]"
// would be read as the file "g". Before parsing, each such item gets a prefix that CLI11 leaves
// alone and that does not change what it names: a file "./" (the same file), an action a
// leading space (which the action reader skips; play then reads or refuses the brackets).
void KeepListItemsWhole(const CLI::App& root, std::vector<std::string>& words) {
  const CLI::App* cmd = &root;
  size_t i = 1;
  for (; i < words.size(); ++i) {  // the subcommands named
    auto sub = cmd->get_subcommands([&](const CLI::App* s) { return s->get_name() == words[i]; });
    if (sub.empty()) break;
    cmd = sub.front();
  }
  auto keep_whole = [](const CLI::Option* o, std::string& w) {
    if (o == nullptr || !o->get_allow_extra_args() || w.size() < 2 || w.front() != '[' ||
        w.back() != ']')
      return;
    w.insert(0, o->get_name() == "actions" ? " " : "./");
  };
  const std::vector<const CLI::Option*> positionals =
      cmd->get_options([](const CLI::Option* o) { return o->get_positional(); });
  size_t next_positional = 0;
  const CLI::Option* taking = nullptr;  // the option whose values the next words are
  bool options_end = false;
  for (; i < words.size(); ++i) {
    std::string& w = words[i];
    if (!options_end && w == "--") {
      options_end = true, taking = nullptr;
      continue;
    }
    if (!options_end && w.size() > 1 && w.front() == '-') {
      const CLI::Option* o = cmd->get_option_no_throw(w.substr(0, w.find('=')));
      taking = o != nullptr && o->get_type_size_max() > 0 && w.find('=') == std::string::npos
                   ? o
                   : nullptr;
      continue;
    }
    if (taking != nullptr) {
      keep_whole(taking, w);
      if (!taking->get_allow_extra_args()) taking = nullptr;  // one value taken
      continue;
    }
    if (next_positional >= positionals.size()) continue;
    keep_whole(positionals[next_positional], w);
    if (!positionals[next_positional]->get_allow_extra_args()) ++next_positional;
  }
}

}  // namespace

int Run(int argc, char** argv) {
  std::vector<std::string> words(argv, argv + argc);
  std::vector<char*> word_ptrs;
  // The words as given, except that a list item in brackets is kept whole (KeepListItemsWhole).
  auto parse = [&](CLI::App& app) {
    KeepListItemsWhole(app, words);
    word_ptrs.clear();
    for (std::string& w : words) word_ptrs.push_back(w.data());
    word_ptrs.push_back(nullptr);
    argv = word_ptrs.data();
    app.parse(argc, argv);
  };
  // Start-up: building all 33 subcommands and their options cost about 2 million
  // instructions and 200 KB of heap at every start. When argv[1] names a subcommand, only that
  // one is built and parsed. Its tree is the same as in the full command line, and the root
  // accepts one subcommand, so a line it parses is parsed the same way by the full one; for help,
  // any error or an unknown name, the full command line parses again and answers as before.
  if (argc > 1 && argv[1][0] != '-') {
    CLI::App app{kDescription};
    app.require_subcommand(1);
    OutputFormat format;
    Registry reg;
    reg.only = argv[1];
    reg.root = &app;
    reg.format = &format;
    RegisterAll(reg);
    if (!reg.commands.empty()) {  // argv[1] names a subcommand
      bool parsed = true;
      try {
        parse(app);
      } catch (const CLI::Error&) {
        parsed = false;
      }
      if (parsed) return RunParsed(app, reg, format, argc, argv);
    }
  }

  CLI::App app{kDescription};
  app.require_subcommand(1);
  OutputFormat format;
  Registry reg;
  reg.root = &app;
  reg.format = &format;
  RegisterAll(reg);
  try {
    parse(app);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  }
  return RunParsed(app, reg, format, argc, argv);
}

}  // namespace carc::adjudicator

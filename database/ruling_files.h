#pragma once
// The shapes of the files `carc db build` reads: the ruling files (database/rulings/*.json), the
// Czech players' questions beside them (questions_cs.json) and the fixtures' ruling files
// (fixtures/**/*.ruling.json). Each is checked whole before anything of it is used: every key is
// one the format has, every value of its type and in its range, no list names a value twice. A file
// that fails is kMalformed (65), "<file>:<JSON pointer>: <what>", never read in part.

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/core/status.h"

namespace carc::database {

// The file of Czech questions among the ruling files (not a file of rulings).
inline constexpr const char* kCzechQuestionsFile = "questions_cs.json";

// A file of rulings:
//   {"expansion": "base" or a modelled expansion,
//    "source": {"seed": string or null, "title", "edition"},
//    "rulings": [ruling, ...]}
// and each ruling (id, title, status and summary required; the rest optional):
//   id: upper-case words joined by "-" (BASE-SETUP); title, summary: text;
//   status: current, variant, disputed, superseded or needs-expansion:<expansion name>;
//   edition: "all", or C1, C2, C3 and 2025 (the C3.1 revision), each once, joined by ",";
//   source: {page, section (or null), footnote (a number from 1, or null), paragraph_hint};
//   official_answer: null or {cited, date (YYYY-MM or null)};
//   additional_official_answers: [{cited, date}, ...];
//   questions, examples: lists of texts (questions each once);
//   links: {supersedes, superseded_by, variant_of, conflicts_with, see_also}: lists of other
//     rulings' IDs, each once;
//   needs_expansion: expansion names, each once;
//   variant_name: a variant's only; question, reasoning and readings
//     ([{name, adopted, summary, support}, ...], names once, at most one adopted): a dispute's
//     only; card ({deck, timing, symbol, copies}): a Christmas Present ruling's only.
// Links to rulings of other files, and IDs repeated across files, are the caller's to check.
model::Status CheckRulingFile(const nlohmann::json& doc, const std::string& file);

// questions_cs.json: {"about": text, "rulings": [] (none: it holds questions only),
// "questions": {ID: {"questions": [texts, each once], "answer": text}, ...}}.
model::Status CheckCzechQuestionsFile(const nlohmann::json& doc, const std::string& file);

// A fixture's <slug>.ruling.json (fixtures/README.md):
//   {"covers": [ruling IDs, at least one, each once],
//    "mode": adjudicate, validate, legal or score,
//    "depth": 1 to 8 (mode legal only), "why": text,
//    "expect": {exit_code (an exit code of the README's table), verdict (one carc gives),
//               cites, not_cites, violations (IDs, each once), scores (integers), count,
//               score_events, actions_contain, actions_exclude (lists of objects),
//               position (an object), pending (an object or null),
//               error ({exit_code: an error's exit code, message_contains}, alone)}}.
// covers and expect are required. What the fixture runner compares inside score_events,
// actions_*, position and pending is left to it (fixtures/fixture_runner.cc).
model::Status CheckFixtureRulingFile(const nlohmann::json& doc, const std::string& file);

// The fixtures' ruling files under root/fixtures (none when it is no folder), sorted by path so
// every reader meets them, and reports the first bad one, in one order.
std::vector<std::filesystem::path> FixtureRulingFiles(const std::filesystem::path& root);

}  // namespace carc::database

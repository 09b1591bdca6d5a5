#include "database/ruling_files.h"

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <map>
#include <span>
#include <string_view>

#include "database/rulings_store.h"
#include "model/core/input_file.h"
#include "model/core/json_reader.h"
#include "model/expansions/registry.h"

namespace carc::database {

using model::Status;
using nlohmann::json;

namespace {

// The link kinds of a ruling (the rows of ruling_links).
constexpr std::string_view kLinkKinds[] = {"supersedes", "superseded_by", "variant_of",
                                           "conflicts_with", "see_also"};

// The editions a ruling is written for: C1, C2, C3 and the 2025 revision (C3.1, MSG-C31).
constexpr std::string_view kEditions[] = {"C1", "C2", "C3", "2025"};

// The exit codes of carc (README "Exit codes"); an error's are those from 64 on.
constexpr int kExitCodes[] = {0, 1, 2, 64, 65, 66, 69, 70, 74};
constexpr int kFirstErrorExitCode = 64;

// The verdicts carc gives (adjudicator/adjudicate.cc), one per question asked.
constexpr std::string_view kVerdicts[] = {"legal",    "illegal",  "upheld",
                                          "rejected", "possible", "impossible-position",
                                          "scored",   "listed"};

constexpr std::string_view kModes[] = {"adjudicate", "validate", "legal", "score"};

using NameList = std::span<const std::string_view>;

// "a, b and c" of a list of names.
std::string Names(NameList names) {
  std::string out;
  size_t i = 0;
  for (std::string_view n : names) {
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + std::string(n);
    ++i;
  }
  return out;
}

bool Contains(NameList names, std::string_view name) {
  for (std::string_view n : names)
    if (n == name) return true;
  return false;
}

bool IsUpperOrDigit(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool IsLowerOrDigit(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// Words of `word` characters joined by single `joins` characters, neither first nor last.
bool Words(std::string_view s, bool (*word)(char), std::string_view joins) {
  if (s.empty() || s.size() > 100) return false;
  bool after_join = true;
  for (char c : s) {
    if (joins.find(c) != std::string_view::npos) {
      if (after_join) return false;
      after_join = true;
    } else if (word(c)) {
      after_join = false;
    } else {
      return false;
    }
  }
  return !after_join;
}

// BASE-SETUP, XMAS-CARD-3-POINTS: upper-case letters and digits in words joined by "-", a
// letter first (IDs are looked up without regard to case, so one spelling only).
bool IsRulingId(std::string_view s) {
  return !s.empty() && s[0] >= 'A' && s[0] <= 'Z' && Words(s, IsUpperOrDigit, "-");
}

// traders-and-builders, christmas_present.
bool IsExpansionName(std::string_view s) { return Words(s, IsLowerOrDigit, "-_"); }

// 2022-04.
bool IsYearMonth(std::string_view s) {
  if (s.size() != 7 || s[4] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6})
    if (s[i] < '0' || s[i] > '9') return false;
  const int month = (s[5] - '0') * 10 + (s[6] - '0');
  return month >= 1 && month <= 12;
}

// A value as a message quotes it, shortened when long.
std::string Shown(const json& j) {
  std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

// A key as a JSON pointer token, shortened when long.
std::string Token(const std::string& key) { return model::JsonPointerToken(key.substr(0, 100)); }

// The checks of one file: every error names the file and the JSON pointer.
class FileCheck {
 public:
  explicit FileCheck(const std::string& file) : file_(file) {}

  Status Error(const std::string& at, const std::string& what) const {
    return model::JsonError(file_, at, what);
  }

  // An object whose keys are all among `keys` and hold each of `required`.
  Status Object(const json& j, const std::string& at, std::initializer_list<std::string_view> keys,
                std::initializer_list<std::string_view> required = {}) const {
    return Object(j, at, NameList(keys.begin(), keys.size()),
                  NameList(required.begin(), required.size()));
  }
  Status Object(const json& j, const std::string& at, NameList keys, NameList required) const {
    if (!j.is_object()) return Error(at, std::string("expected an object, got ") + j.type_name());
    for (auto it = j.begin(); it != j.end(); ++it)
      if (!Contains(keys, it.key()))
        return Error(at + "/" + Token(it.key()), "unknown field (known: " + Names(keys) + ")");
    for (std::string_view k : required)
      if (!j.contains(k)) return Error(at + "/" + std::string(k), "missing");
    return Status::Ok();
  }

  // A text: a string, not empty.
  Status Text(const json& j, const std::string& at) const {
    if (!j.is_string()) return Error(at, std::string("expected a text, got ") + j.type_name());
    if (j.get_ref<const std::string&>().empty()) return Error(at, "an empty text");
    return Status::Ok();
  }

  Status TextOrNull(const json& j, const std::string& at) const {
    return j.is_null() ? Status::Ok() : Text(j, at);
  }

  // One of `names`, `what` saying what they are ("mode").
  Status OneOf(const json& j, const std::string& at, std::initializer_list<std::string_view> names,
               const std::string& what) const {
    return OneOf(j, at, NameList(names.begin(), names.size()), what);
  }
  Status OneOf(const json& j, const std::string& at, NameList names,
               const std::string& what) const {
    if (!j.is_string())
      return Error(at, "expected a " + what + " (" + Names(names) + "), got " + j.type_name());
    if (!Contains(names, j.get_ref<const std::string&>()))
      return Error(at, "unknown " + what + " " + Shown(j) + " (" + Names(names) + ")");
    return Status::Ok();
  }

  // An integer from lo to hi (a float, 7.0 included, or a string is not one).
  Status Int(const json& j, const std::string& at, int64_t lo, int64_t hi) const {
    if (!model::JsonInt(j, lo, hi)) return Error(at, model::JsonIntError(j, lo, hi));
    return Status::Ok();
  }

  Status RulingId(const json& j, const std::string& at) const {
    if (!j.is_string()) return Error(at, std::string("expected a ruling ID, got ") + j.type_name());
    if (!IsRulingId(j.get_ref<const std::string&>()))
      return Error(at,
                   "expected a ruling ID (upper-case letters and digits in words joined by "
                   "\"-\", as BASE-SETUP), got " +
                       Shown(j));
    return Status::Ok();
  }

  // A list whose elements pass `each`; with `once`, no element is given twice.
  Status List(const json& j, const std::string& at, const std::string& of, bool once,
              const std::function<Status(const json&, const std::string&)>& each) const {
    if (!j.is_array())
      return Error(at, "expected a list of " + of + ", got " + std::string(j.type_name()));
    std::map<std::string, size_t> seen;  // element as JSON text -> its index
    for (size_t i = 0; i < j.size(); ++i) {
      const std::string at_i = at + "/" + std::to_string(i);
      if (Status s = each(j[i], at_i); !s.ok()) return s;
      if (!once) continue;
      const auto [first, fresh] = seen.emplace(j[i].dump(), i);
      if (!fresh)
        return Error(at_i, Shown(j[i]) + " given twice (also at " + at + "/" +
                               std::to_string(first->second) + ")");
    }
    return Status::Ok();
  }

  Status Texts(const json& j, const std::string& at, bool once) const {
    return List(j, at, "texts", once,
                [this](const json& e, const std::string& a) { return Text(e, a); });
  }

  Status RulingIds(const json& j, const std::string& at) const {
    return List(j, at, "ruling IDs", /*once=*/true,
                [this](const json& e, const std::string& a) { return RulingId(e, a); });
  }

 private:
  const std::string& file_;
};

// "all", or editions each once joined by "," (C2,C3).
Status CheckEdition(const FileCheck& c, const json& j, const std::string& at) {
  const std::string what = "\"all\", or " + Names(kEditions) + " each once joined by \",\"";
  if (!j.is_string())
    return c.Error(at, "expected an edition (" + what + "), got " + j.type_name());
  const std::string& s = j.get_ref<const std::string&>();
  if (s == "all") return Status::Ok();
  std::map<std::string, int> seen;
  size_t from = 0;
  for (;;) {
    const size_t comma = s.find(',', from);
    const std::string one = s.substr(from, comma == std::string::npos ? comma : comma - from);
    if (!Contains(kEditions, one))
      return c.Error(at, "unknown edition " + json(one).dump() +
                             (one == s ? "" : " in " + Shown(j)) + " (" + what + ")");
    if (++seen[one] > 1) return c.Error(at, "edition " + one + " given twice in " + Shown(j));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return Status::Ok();
}

// {cited, date}: an official answer.
Status CheckAnswer(const FileCheck& c, const json& j, const std::string& at) {
  if (Status s = c.Object(j, at, {"cited", "date"}, {"cited"}); !s.ok()) return s;
  if (Status s = c.Text(j["cited"], at + "/cited"); !s.ok()) return s;
  if (j.contains("date") && !j["date"].is_null() &&
      !(j["date"].is_string() && IsYearMonth(j["date"].get_ref<const std::string&>())))
    return c.Error(at + "/date",
                   "expected a month as YYYY-MM (2022-04) or null, got " + Shown(j["date"]));
  return Status::Ok();
}

Status CheckSource(const FileCheck& c, const json& j, const std::string& at) {
  if (Status s = c.Object(j, at, {"page", "section", "footnote", "paragraph_hint"}); !s.ok())
    return s;
  if (j.contains("page"))
    if (Status s = c.Text(j["page"], at + "/page"); !s.ok()) return s;
  if (j.contains("section"))
    if (Status s = c.TextOrNull(j["section"], at + "/section"); !s.ok()) return s;
  if (j.contains("footnote") && !j["footnote"].is_null())
    if (Status s = c.Int(j["footnote"], at + "/footnote", 1, model::kMaxJsonInt); !s.ok()) return s;
  if (j.contains("paragraph_hint"))
    if (Status s = c.Text(j["paragraph_hint"], at + "/paragraph_hint"); !s.ok()) return s;
  return Status::Ok();
}

Status CheckReadings(const FileCheck& c, const json& j, const std::string& at) {
  std::string adopted;  // the pointer of the adopted reading
  std::map<std::string, size_t> names;
  return c.List(j, at, "readings", /*once=*/false, [&](const json& rd, const std::string& a) {
    if (Status s = c.Object(rd, a, {"name", "adopted", "summary", "support"}, {"name", "summary"});
        !s.ok())
      return s;
    if (Status s = c.Text(rd["name"], a + "/name"); !s.ok()) return s;
    if (Status s = c.Text(rd["summary"], a + "/summary"); !s.ok()) return s;
    if (rd.contains("support"))
      if (Status s = c.Text(rd["support"], a + "/support"); !s.ok()) return s;
    if (rd.contains("adopted")) {
      if (!rd["adopted"].is_boolean())
        return c.Error(a + "/adopted",
                       std::string("expected true or false, got ") + rd["adopted"].type_name());
      if (rd["adopted"].get<bool>()) {
        if (!adopted.empty())
          return c.Error(a + "/adopted", "a second adopted reading (the first: " + adopted + ")");
        adopted = a;
      }
    }
    if (const auto [first, fresh] = names.emplace(rd["name"].get<std::string>(), 0); !fresh)
      return c.Error(a + "/name", "reading " + Shown(rd["name"]) + " named twice");
    return Status::Ok();
  });
}

// A Christmas Present card: {deck, timing, symbol, copies}.
Status CheckCard(const FileCheck& c, const json& j, const std::string& at) {
  if (Status s = c.Object(j, at, {"deck", "timing", "symbol", "copies"},
                          {"deck", "timing", "symbol", "copies"});
      !s.ok())
    return s;
  if (Status s = c.OneOf(j["deck"], at + "/deck", {"monastery", "road"}, "deck"); !s.ok()) return s;
  if (Status s = c.OneOf(j["timing"], at + "/timing", {"immediate", "any-time", "end"}, "timing");
      !s.ok())
    return s;
  if (Status s =
          c.OneOf(j["symbol"], at + "/symbol", {"lightning", "none", "carcassonne"}, "symbol");
      !s.ok())
    return s;
  return c.Int(j["copies"], at + "/copies", 1, model::kMaxJsonInt);
}

Status CheckRuling(const FileCheck& c, const json& r, const std::string& at,
                   const std::string& expansion) {
  if (Status s =
          c.Object(r, at,
                   {"id", "title", "status", "edition", "source", "official_answer",
                    "additional_official_answers", "summary", "questions", "examples", "links",
                    "needs_expansion", "variant_name", "question", "reasoning", "readings", "card"},
                   {"id", "title", "status", "summary"});
      !s.ok())
    return s;
  if (Status s = c.RulingId(r["id"], at + "/id"); !s.ok()) return s;
  const std::string& id = r["id"].get_ref<const std::string&>();
  if (Status s = c.Text(r["title"], at + "/title"); !s.ok()) return s;
  if (Status s = c.Text(r["summary"], at + "/summary"); !s.ok()) return s;
  const json& st = r["status"];
  const std::string status = st.is_string() ? st.get<std::string>() : "";
  const std::string needs_prefix = "needs-expansion:";
  if (!ValidStatus(status) ||
      (status.rfind(needs_prefix, 0) == 0 && !IsExpansionName(status.substr(needs_prefix.size()))))
    return c.Error(at + "/status", "unknown status " + Shown(st) +
                                       " (current, variant, disputed, superseded, "
                                       "needs-expansion:<name>)");
  if (r.contains("edition"))
    if (Status s = CheckEdition(c, r["edition"], at + "/edition"); !s.ok()) return s;
  if (r.contains("source"))
    if (Status s = CheckSource(c, r["source"], at + "/source"); !s.ok()) return s;
  if (r.contains("official_answer") && !r["official_answer"].is_null())
    if (Status s = CheckAnswer(c, r["official_answer"], at + "/official_answer"); !s.ok()) return s;
  if (r.contains("additional_official_answers"))
    if (Status s =
            c.List(r["additional_official_answers"], at + "/additional_official_answers",
                   "official answers", /*once=*/true,
                   [&](const json& a, const std::string& w) { return CheckAnswer(c, a, w); });
        !s.ok())
      return s;
  if (r.contains("questions"))
    if (Status s = c.Texts(r["questions"], at + "/questions", /*once=*/true); !s.ok()) return s;
  if (r.contains("examples"))
    if (Status s = c.Texts(r["examples"], at + "/examples", /*once=*/true); !s.ok()) return s;
  if (r.contains("links")) {
    const json& links = r["links"];
    if (Status s = c.Object(links, at + "/links", kLinkKinds, {}); !s.ok()) return s;
    for (const auto& [kind, ids] : links.items()) {
      const std::string w = at + "/links/" + kind;
      if (Status s = c.RulingIds(ids, w); !s.ok()) return s;
      for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] == id)
          return c.Error(w + "/" + std::to_string(i), "a ruling does not link to itself");
    }
  }
  if (r.contains("needs_expansion"))
    if (Status s = c.List(r["needs_expansion"], at + "/needs_expansion", "expansion names",
                          /*once=*/true,
                          [&](const json& e, const std::string& w) {
                            if (e.is_string() && IsExpansionName(e.get_ref<const std::string&>()))
                              return Status::Ok();
                            return c.Error(w,
                                           "expected an expansion name (lower-case words, as "
                                           "traders-and-builders), got " +
                                               Shown(e));
                          });
        !s.ok())
      return s;
  // What belongs to one kind of ruling only.
  for (const char* key : {"question", "reasoning", "readings"})
    if (r.contains(key) && status != "disputed")
      return c.Error(at + "/" + key,
                     "only a dispute has a " + std::string(key) + " (status is " + Shown(st) + ")");
  if (r.contains("variant_name") && status != "variant")
    return c.Error(at + "/variant_name",
                   "only a variant has a variant name (status is " + Shown(st) + ")");
  for (const char* key : {"question", "reasoning", "variant_name"})
    if (r.contains(key))
      if (Status s = c.Text(r[key], at + "/" + key); !s.ok()) return s;
  if (r.contains("readings"))
    if (Status s = CheckReadings(c, r["readings"], at + "/readings"); !s.ok()) return s;
  if (r.contains("card")) {
    if (expansion != "christmas_present")
      return c.Error(at + "/card", "only a ruling of christmas_present describes a card");
    if (Status s = CheckCard(c, r["card"], at + "/card"); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace

Status CheckRulingFile(const json& doc, const std::string& file) {
  const FileCheck c(file);
  if (Status s = c.Object(doc, "", {"expansion", "source", "rulings"}, {"expansion", "rulings"});
      !s.ok())
    return s;
  const json& exp = doc["expansion"];
  if (!exp.is_string())
    return c.Error("/expansion", std::string("expected the expansion id, got ") + exp.type_name());
  const std::string expansion = exp.get<std::string>();
  if (expansion != "base" && exp::ByName(expansion) == nullptr) {
    std::string known = "base";
    for (const std::string& id : exp::Ids()) known += ", " + id;
    return c.Error("/expansion", "unknown expansion " + Shown(exp) + " (" + known + ")");
  }
  if (doc.contains("source")) {
    const json& src = doc["source"];
    if (Status s = c.Object(src, "/source", {"seed", "title", "edition"}); !s.ok()) return s;
    if (src.contains("seed"))
      if (Status s = c.TextOrNull(src["seed"], "/source/seed"); !s.ok()) return s;
    for (const char* key : {"title", "edition"})
      if (src.contains(key))
        if (Status s = c.Text(src[key], std::string("/source/") + key); !s.ok()) return s;
  }
  return c.List(
      doc["rulings"], "/rulings", "rulings", /*once=*/false,
      [&](const json& r, const std::string& at) { return CheckRuling(c, r, at, expansion); });
}

Status CheckCzechQuestionsFile(const json& doc, const std::string& file) {
  const FileCheck c(file);
  if (Status s = c.Object(doc, "", {"about", "rulings", "questions"}, {"questions"}); !s.ok())
    return s;
  if (doc.contains("about"))
    if (Status s = c.Text(doc["about"], "/about"); !s.ok()) return s;
  if (doc.contains("rulings")) {
    const json& rs = doc["rulings"];
    if (!rs.is_array())
      return c.Error("/rulings", std::string("expected an empty list, got ") + rs.type_name());
    if (!rs.empty())
      return c.Error("/rulings/0",
                     "the file of Czech questions holds no rulings (they belong "
                     "in the file of their expansion)");
  }
  const json& qs = doc["questions"];
  if (!qs.is_object())
    return c.Error("/questions",
                   std::string("expected an object keyed by ruling ID, got ") + qs.type_name());
  for (const auto& [id, e] : qs.items()) {
    const std::string at = "/questions/" + Token(id);
    if (!IsRulingId(id)) return c.Error(at, "expected a ruling ID as the key");
    if (Status s = c.Object(e, at, {"questions", "answer"}, {"questions"}); !s.ok()) return s;
    if (Status s = c.Texts(e["questions"], at + "/questions", /*once=*/true); !s.ok()) return s;
    if (e.contains("answer"))
      if (Status s = c.Text(e["answer"], at + "/answer"); !s.ok()) return s;
  }
  return Status::Ok();
}

namespace {

// An exit code of carc (of a failure: from 64 on), as an integer.
Status CheckExitCode(const FileCheck& c, const json& j, const std::string& at, bool failure) {
  std::string codes;
  bool known = false;
  for (int k : kExitCodes) {
    if (failure && k < kFirstErrorExitCode) continue;
    codes += (codes.empty() ? "" : ", ") + std::to_string(k);
    known |= j.is_number_integer() && j.get<int64_t>() == k;
  }
  if (known) return Status::Ok();
  return c.Error(at, std::string("expected an exit code of ") + (failure ? "a failure" : "carc") +
                         " (README \"Exit codes\": " + codes + "), got " + Shown(j));
}

}  // namespace

Status CheckFixtureRulingFile(const json& doc, const std::string& file) {
  const FileCheck c(file);
  if (Status s =
          c.Object(doc, "", {"covers", "mode", "depth", "why", "expect"}, {"covers", "expect"});
      !s.ok())
    return s;
  if (Status s = c.RulingIds(doc["covers"], "/covers"); !s.ok()) return s;
  if (doc["covers"].empty()) return c.Error("/covers", "no ruling covered (name at least one)");
  if (doc.contains("mode"))
    if (Status s = c.OneOf(doc["mode"], "/mode", kModes, "mode"); !s.ok()) return s;
  if (doc.contains("depth")) {
    if (doc.value("mode", "") != "legal")
      return c.Error("/depth", "a depth counts the action sequences of mode legal only");
    if (Status s = c.Int(doc["depth"], "/depth", 1, 8); !s.ok()) return s;
  }
  if (doc.contains("why"))
    if (Status s = c.Text(doc["why"], "/why"); !s.ok()) return s;
  const json& x = doc["expect"];
  if (Status s = c.Object(
          x, "/expect",
          {"exit_code", "verdict", "cites", "not_cites", "scores", "score_events", "violations",
           "count", "actions_contain", "actions_exclude", "error", "position", "pending"});
      !s.ok())
    return s;
  if (x.contains("error")) {
    // carc failed: nothing else is compared.
    for (auto it = x.begin(); it != x.end(); ++it)
      if (it.key() != "error")
        return c.Error("/expect/" + it.key(),
                       "an expected error is expected alone (nothing else is compared when carc "
                       "fails)");
    const json& e = x["error"];
    if (Status s = c.Object(e, "/expect/error", {"exit_code", "message_contains"}, {"exit_code"});
        !s.ok())
      return s;
    if (Status s = CheckExitCode(c, e["exit_code"], "/expect/error/exit_code", /*failure=*/true);
        !s.ok())
      return s;
    if (e.contains("message_contains"))
      if (Status s = c.Text(e["message_contains"], "/expect/error/message_contains"); !s.ok())
        return s;
    return Status::Ok();
  }
  if (x.contains("exit_code"))
    if (Status s = CheckExitCode(c, x["exit_code"], "/expect/exit_code", /*failure=*/false);
        !s.ok())
      return s;
  if (x.contains("verdict"))
    if (Status s = c.OneOf(x["verdict"], "/expect/verdict", kVerdicts, "verdict"); !s.ok())
      return s;
  for (const char* key : {"cites", "not_cites", "violations"})
    if (x.contains(key))
      if (Status s = c.RulingIds(x[key], std::string("/expect/") + key); !s.ok()) return s;
  if (x.contains("scores"))
    if (Status s = c.List(x["scores"], "/expect/scores", "scores", /*once=*/false,
                          [&](const json& v, const std::string& w) {
                            return c.Int(v, w, -model::kMaxJsonInt, model::kMaxJsonInt);
                          });
        !s.ok())
      return s;
  if (x.contains("count"))
    if (Status s = c.Int(x["count"], "/expect/count", 0, model::kMaxJsonInt); !s.ok()) return s;
  // Objects the runner compares key by key with what carc gives: an expected score event may
  // stand twice (two equal events), an action is listed once.
  for (const char* key : {"score_events", "actions_contain", "actions_exclude"})
    if (x.contains(key))
      if (Status s = c.List(x[key], std::string("/expect/") + key, "objects",
                            /*once=*/std::string_view(key) != "score_events",
                            [&](const json& v, const std::string& w) {
                              if (v.is_object()) return Status::Ok();
                              return c.Error(
                                  w, std::string("expected an object, got ") + v.type_name());
                            });
          !s.ok())
        return s;
  if (x.contains("position") && !x["position"].is_object())
    return c.Error("/expect/position",
                   std::string("expected an object, got ") + x["position"].type_name());
  if (x.contains("pending") && !x["pending"].is_null() && !x["pending"].is_object())
    return c.Error("/expect/pending",
                   std::string("expected an object or null, got ") + x["pending"].type_name());
  return Status::Ok();
}

std::vector<std::filesystem::path> FixtureRulingFiles(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  std::error_code ec;
  const fs::path dir = root / "fixtures";
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() > 12 && name.substr(name.size() - 12) == ".ruling.json")
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace carc::database

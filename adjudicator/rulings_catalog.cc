#include "adjudicator/rulings_catalog.h"

#include <string.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>
#include <string_view>

#include "database/ruling_files.h"
#include "model/core/json_reader.h"
#include "model/core/position_io.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator {

namespace fs = std::filesystem;
using nlohmann::json;

model::StatusOr<Catalog> LoadCatalog(const std::string& root) {
  // The files are read as `carc db build` reads them (database/ruling_files.h): a misspelt key
  // or a repeated value is 65 naming the file and the pointer, not a ruling or cover dropped.
  Catalog cat;
  fs::path rdir = fs::path(root) / "database" / "rulings";
  std::error_code ec;
  if (!fs::is_directory(rdir, ec))
    return model::Status(model::ErrorCode::kNoInput,
                         rdir.string() + ": no rulings folder (use --root)");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(rdir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::set<std::string> ids;
  for (const fs::path& f : files) {
    auto doc = model::ReadJsonFile(f.string());
    if (!doc.ok()) return doc.status();
    const json& d = *doc;
    if (f.filename() == database::kCzechQuestionsFile) {
      if (model::Status s = database::CheckCzechQuestionsFile(d, f.string()); !s.ok()) return s;
      continue;
    }
    if (model::Status s = database::CheckRulingFile(d, f.string()); !s.ok()) return s;
    const std::string expansion = d["expansion"];
    for (size_t i = 0; i < d["rulings"].size(); ++i) {
      const json& r = d["rulings"][i];
      if (!ids.insert(r["id"].get<std::string>()).second)
        return model::JsonError(f.string(), "/rulings/" + std::to_string(i) + "/id",
                                "duplicate ruling ID " + r["id"].get<std::string>());
      cat.rulings.push_back({r["id"], expansion, r["status"], r["title"], r});
    }
  }
  for (const fs::path& f : database::FixtureRulingFiles(root)) {
    auto doc = model::ReadJsonFile(f.string());
    if (!doc.ok()) return doc.status();
    if (model::Status s = database::CheckFixtureRulingFile(*doc, f.string()); !s.ok()) return s;
    for (const json& id : (*doc)["covers"])
      cat.fixtures_by_id[id.get<std::string>()].insert(fs::relative(f, fs::path(root)).string());
  }
  return cat;
}

namespace {
// The rulings of one compiled-in file, by ID (a later file's entry replaces an earlier one's).
void ParseEmbedded(const EmbeddedFile& f, std::map<std::string, RulingEntry>& out) {
  json d = json::parse(f.text, nullptr, /*allow_exceptions=*/false);
  if (!d.is_object() || !d.contains("rulings") || !d["rulings"].is_array()) return;
  std::string expansion = d.value("expansion", "");
  for (const json& r : d["rulings"])
    if (r.is_object() && r.contains("id") && r["id"].is_string())
      out[r["id"]] = {r["id"], expansion, r.value("status", ""), r.value("title", ""), r};
}
}  // namespace

const std::map<std::string, RulingEntry>& EmbeddedRulings() {
  static const std::map<std::string, RulingEntry>* rulings = [] {
    auto* out = new std::map<std::string, RulingEntry>();
    for (const EmbeddedFile& f : EmbeddedRulingFiles()) ParseEmbedded(f, *out);
    return out;
  }();
  return *rulings;
}

namespace {

// The JSON text of one embedded file, scanned without parsing it (start-up: parsing a
// 28 KB ruling file to quote one ruling was most of an adjudication's time).
class Scanner {
 public:
  explicit Scanner(const char* text) : t_(text) {}  // NUL-terminated

  // A ruling object (depth 3: file object, "rulings" array, ruling object) and its "id".
  struct Hit {
    std::string id;
    size_t begin, end;  // the ruling object, braces included
  };
  // Every ruling object of the file with a plain string "id", and the file's top-level
  // "expansion" string. False when the text is not shaped as expected (the caller then parses
  // the whole file, as before).
  bool Scan(std::vector<Hit>& hits, std::string& expansion) const {
    std::vector<size_t> open;  // offsets of the open brackets
    // The embedded texts end with a NUL (C string literals), so strcspn jumps over the blanks,
    // colons, commas, numbers and literals between the characters that matter.
    for (size_t i = std::strcspn(t_.data(), "\"{}[]"); i < t_.size();
         i += 1 + std::strcspn(t_.data() + i + 1, "\"{}[]")) {
      switch (t_[i]) {
        case '{':
        case '[':
          open.push_back(i);
          break;
        case '}':
        case ']':
          if (open.empty()) return false;
          if (open.size() == 3 && !hits.empty() && hits.back().begin == open[2])
            hits.back().end = i + 1;
          open.pop_back();
          break;
        case '"': {
          const size_t start = i;
          if (!SkipString(i)) return false;
          const std::string_view str = t_.substr(start + 1, i - start - 1);
          const size_t depth = open.size();
          if (depth == 1 && str == "expansion" && IsKey(i)) {
            size_t v = ValueStart(i), e = v;
            if (v >= t_.size() || t_[v] != '"' || !SkipString(e)) return false;
            expansion = std::string(t_.substr(v + 1, e - v - 1));
            if (expansion.find('\\') != std::string::npos) return false;
            i = e;
          } else if (depth == 3 && str == "id" && IsKey(i) && t_[open[0]] == '{' &&
                     t_[open[1]] == '[' && t_[open[2]] == '{') {
            size_t v = ValueStart(i), e = v;
            if (v >= t_.size() || t_[v] != '"') break;  // not a string: not an ID
            if (!SkipString(e)) return false;
            const std::string_view id = t_.substr(v + 1, e - v - 1);
            if (id.find('\\') != std::string_view::npos) return false;
            hits.push_back({std::string(id), open[2], std::string_view::npos});
            i = e;
          }
          break;
        }
        default:
          break;
      }
    }
    return open.empty();
  }

 private:
  // i at an opening quote; leaves i at the closing quote (found with memchr: most of a ruling
  // file is text inside strings). False when the string never ends.
  bool SkipString(size_t& i) const {
    for (size_t from = i + 1; from < t_.size();) {
      const void* q = std::memchr(t_.data() + from, '"', t_.size() - from);
      if (!q) return false;
      const size_t at = static_cast<const char*>(q) - t_.data();
      size_t slashes = 0;
      while (at - slashes > i + 1 && t_[at - slashes - 1] == '\\') ++slashes;
      if (slashes % 2 == 0) {
        i = at;
        return true;
      }
      from = at + 1;
    }
    return false;
  }
  // The first non-blank offset after i.
  size_t NextToken(size_t i) const {
    while (++i < t_.size() && (t_[i] == ' ' || t_[i] == '\n' || t_[i] == '\r' || t_[i] == '\t')) {
    }
    return i;
  }
  // True when the string closed at i is an object key (a colon follows).
  bool IsKey(size_t i) const {
    const size_t n = NextToken(i);
    return n < t_.size() && t_[n] == ':';
  }
  size_t ValueStart(size_t i) const { return NextToken(NextToken(i)); }

  std::string_view t_;
};

struct FileIndex {
  bool scanned = false;
  bool ok = false;  // the text has the expected shape; otherwise the file is parsed whole
  std::string expansion;
  std::map<std::string, std::pair<size_t, size_t>> objects;  // id -> extent (the last one wins)
};

bool Mentions(const char* text, const std::string& quoted) {
  return memmem(text, std::strlen(text), quoted.data(), quoted.size()) != nullptr;
}

}  // namespace

const RulingEntry* EmbeddedRuling(const std::string& id) {
  static std::mutex mu;
  static std::vector<std::map<std::string, RulingEntry>> by_file;  // parsed on demand
  static std::vector<bool> parsed;
  static std::vector<FileIndex> index;
  std::lock_guard<std::mutex> lock(mu);
  const auto& files = EmbeddedRulingFiles();
  by_file.resize(files.size());
  parsed.resize(files.size());
  index.resize(files.size());
  const std::string quoted = "\"" + id + "\"";
  // The last file that defines the ID wins, as in EmbeddedRulings.
  for (size_t i = files.size(); i-- > 0;) {
    FileIndex& fi = index[i];
    if (!fi.scanned) {
      // Where each ruling object is, without building any JSON value.
      fi.scanned = true;
      std::vector<Scanner::Hit> hits;
      fi.ok = Scanner(files[i].text).Scan(hits, fi.expansion);
      for (const auto& h : hits) {
        if (h.end == std::string_view::npos) fi.ok = false;
        fi.objects[h.id] = {h.begin, h.end};
      }
    }
    if (!fi.ok && !parsed[i] && !Mentions(files[i].text, quoted)) continue;
    if (fi.ok && !parsed[i]) {
      auto at = fi.objects.find(id);
      if (at == fi.objects.end()) continue;  // mentioned, not defined here
      auto cached = by_file[i].find(id);
      if (cached != by_file[i].end()) return &cached->second;
      // Only the ruling's own object is parsed; it must give the same ID, else the whole file is.
      const auto [begin, end] = at->second;
      json r = json::parse(std::string_view(files[i].text).substr(begin, end - begin), nullptr,
                           /*allow_exceptions=*/false);
      if (r.is_object() && r.contains("id") && r["id"].is_string() && r["id"] == id) {
        RulingEntry& e = by_file[i][id];
        e = {id, fi.expansion, r.value("status", ""), r.value("title", ""), std::move(r)};
        return &e;
      }
    }
    if (!parsed[i]) {
      // Entries already handed out keep their address (the map assigns in place).
      ParseEmbedded(files[i], by_file[i]);
      parsed[i] = true;
    }
    auto it = by_file[i].find(id);
    if (it != by_file[i].end()) return &it->second;
  }
  return nullptr;
}

EmbeddedQuote EmbeddedQuoteAt(size_t i) {
  const char* t = EmbeddedQuoteText();
  const EmbeddedQuoteRow& r = EmbeddedQuoteRows()[i];
  return {t + r.id,
          t + r.expansion,
          t + r.status,
          t + r.title,
          t + r.summary,
          t + r.page,
          r.section == EmbeddedQuoteRow::kNoSection ? nullptr : t + r.section,
          r.footnote};
}

std::optional<EmbeddedQuote> FindEmbeddedQuote(std::string_view id) {
  const char* t = EmbeddedQuoteText();
  const auto rows = EmbeddedQuoteRows();
  auto it = std::lower_bound(rows.begin(), rows.end(), id,
                             [t](const EmbeddedQuoteRow& r, std::string_view k) {
                               return std::string_view(t + r.id) < k;
                             });
  if (it == rows.end() || std::string_view(t + it->id) != id) return std::nullopt;
  return EmbeddedQuoteAt(it - rows.begin());
}

bool InScope(const RulingEntry& r) {
  if (r.status.rfind("needs-expansion", 0) == 0) return false;
  if (r.expansion == "base") return true;
  return exp::ByName(r.expansion) != nullptr;
}

}  // namespace carc::adjudicator

#include "adjudicator/rulings_catalog.h"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <string_view>

#include "model/core/position_io.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator {

namespace fs = std::filesystem;
using nlohmann::json;

model::StatusOr<Catalog> LoadCatalog(const std::string& root) {
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
  for (const fs::path& f : files) {
    auto doc = model::ReadJsonFile(f.string());
    if (!doc.ok()) return doc.status();
    const json& d = *doc;
    if (!d.contains("rulings") || !d["rulings"].is_array())
      return model::Status(model::ErrorCode::kMalformed,
                           f.string() + ":/rulings: expected an array");
    std::string expansion = d.value("expansion", "");
    for (size_t i = 0; i < d["rulings"].size(); ++i) {
      const json& r = d["rulings"][i];
      if (!r.is_object() || !r.contains("id") || !r["id"].is_string())
        return model::Status(model::ErrorCode::kMalformed,
                             f.string() + ":/rulings/" + std::to_string(i) + "/id: missing");
      cat.rulings.push_back({r["id"], expansion, r.value("status", ""), r.value("title", ""), r});
    }
  }
  fs::path fdir = fs::path(root) / "fixtures";
  if (fs::is_directory(fdir, ec)) {
    for (const auto& e : fs::recursive_directory_iterator(fdir, ec)) {
      std::string name = e.path().filename().string();
      if (name.size() < 12 || name.substr(name.size() - 12) != ".ruling.json") continue;
      auto doc = model::ReadJsonFile(e.path().string());
      if (!doc.ok()) return doc.status();
      for (const json& id : doc->value("covers", json::array()))
        if (id.is_string())
          cat.fixtures_by_id[id.get<std::string>()].insert(
              fs::relative(e.path(), fs::path(root)).string());
    }
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

const RulingEntry* EmbeddedRuling(const std::string& id) {
  static std::mutex mu;
  static std::vector<std::map<std::string, RulingEntry>> by_file;  // parsed on demand
  static std::vector<bool> parsed;
  std::lock_guard<std::mutex> lock(mu);
  const auto& files = EmbeddedRulingFiles();
  by_file.resize(files.size());
  parsed.resize(files.size());
  // The last file that defines the ID wins, as in EmbeddedRulings. First the files that hold
  // it as written by the project ("id": "ID"), then any file that mentions it (other spacing).
  for (const std::string& needle : {"\"id\": \"" + id + "\"", "\"" + id + "\""})
    for (size_t i = files.size(); i-- > 0;) {
      if (std::string_view(files[i].text).find(needle) == std::string_view::npos) continue;
      if (!parsed[i]) {
        ParseEmbedded(files[i], by_file[i]);
        parsed[i] = true;
      }
      auto it = by_file[i].find(id);
      if (it != by_file[i].end()) return &it->second;
    }
  return nullptr;
}

bool InScope(const RulingEntry& r) {
  if (r.status.rfind("needs-expansion", 0) == 0) return false;
  if (r.expansion == "base") return true;
  return exp::ByName(r.expansion) != nullptr;
}

}  // namespace carc::adjudicator

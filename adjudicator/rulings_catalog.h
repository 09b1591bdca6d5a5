#pragma once
// The ruling files (database/rulings/*.json) and the fixtures that cover them.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/status.h"

namespace carc::adjudicator {

struct RulingEntry {
  std::string id;
  std::string expansion;
  std::string status;
  std::string title;
  nlohmann::json data;
};

struct Catalog {
  std::vector<RulingEntry> rulings;
  std::map<std::string, std::set<std::string>> fixtures_by_id;  // id -> fixture paths
};

// Reads ROOT/database/rulings/*.json and ROOT/fixtures/**/*.ruling.json.
model::StatusOr<Catalog> LoadCatalog(const std::string& root);

// The ruling files as they were at build time (database/rulings/*.json, compiled in by
// adjudicator/CMakeLists.txt), so that a verdict quotes its rulings from any working folder.
struct EmbeddedFile {
  const char* name;
  const char* text;
};
const std::vector<EmbeddedFile>& EmbeddedRulingFiles();
// The compiled-in rulings by ID (parsed once); a file that does not parse is skipped.
const std::map<std::string, RulingEntry>& EmbeddedRulings();
// One compiled-in ruling (as EmbeddedRulings().find(id)), parsing only the file that holds it:
// a verdict quotes a few rulings, and parsing all 270 KB was most of an adjudication's time.
const RulingEntry* EmbeddedRuling(const std::string& id);

// What a verdict quotes of one compiled-in ruling, tabled at build time
// (rulings_index_gen.cc): the fields of EmbeddedRuling(id) that QuoteRulings reads.
struct EmbeddedQuote {
  const char* id;
  const char* expansion;
  const char* status;
  const char* title;
  const char* summary;  // "" when absent
  const char* page;     // source.page, "" when absent
  const char* section;  // source.section when a string, else nullptr
  int footnote;         // source.footnote when an integer, else -1
};
// The generated table: offsets into EmbeddedQuoteText() (no pointers: nothing to relocate).
struct EmbeddedQuoteRow {
  static constexpr uint32_t kNoSection = 0xffffffffu;
  uint32_t id, expansion, status, title, summary, page, section;
  int footnote;
};
const char* EmbeddedQuoteText();
// Every compiled-in ruling whose fields have the types QuoteRulings reads, sorted by ID.
std::span<const EmbeddedQuoteRow> EmbeddedQuoteRows();
EmbeddedQuote EmbeddedQuoteAt(size_t i);  // i < EmbeddedQuoteRows().size()
// The quote of a ruling (start-up: a binary search instead of scanning and parsing
// the ruling texts); nullopt when the table lacks it (then ask EmbeddedRuling).
std::optional<EmbeddedQuote> FindEmbeddedQuote(std::string_view id);

// In scope: the base game and every registered (modelled) expansion, and not needs-expansion.
bool InScope(const RulingEntry& r);

}  // namespace carc::adjudicator

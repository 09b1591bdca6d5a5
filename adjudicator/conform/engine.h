#pragma once
// The reference adapter: answers conformance-protocol requests (PROTOCOL.md) with the
// reference model, optionally with one deliberately wrong rule (a mutant) to prove that the
// checker catches such mistakes.

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace carc::adjudicator::conform {

inline constexpr int kProtocolVersion = 1;

struct MutantInfo {
  std::string name;
  std::string ruling;  // the ruling it breaks
  std::string description;
};
// Test names and failure messages show the mutant's name.
inline void PrintTo(const MutantInfo& m, std::ostream* os) { *os << m.name; }

// The mutants, by name; "none" is the faithful reference.
const std::vector<MutantInfo>& Mutants();
std::optional<int> FindMutant(const std::string& name);  // index into Mutants()

// Answers one request (the object of one protocol line). mutant < 0: the reference model.
nlohmann::json Answer(const nlohmann::json& request, int mutant);

// Reads requests from `in` until quit or end of input, answers each on its own line.
int RunEngine(std::istream& in, std::ostream& out, int mutant);

}  // namespace carc::adjudicator::conform

#pragma once
// Shared by the libFuzzer targets (property-tests/README.md "libFuzzer targets"): bytes are read the way the product
// reads a file (model::ParseJsonText: nesting cap, duplicate keys, numbers out of range), and
// rulings are serialised as the CLI prints them, so that an exception the CLI would hit is hit
// here too. Exceptions stay enabled, as in the product.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "model/core/input_file.h"

namespace carc::fuzz {

inline std::optional<nlohmann::json> ReadLikeAFile(const uint8_t* data, size_t size,
                                                   const char* source) {
  auto doc = model::ParseJsonText(std::string(reinterpret_cast<const char*>(data), size), source);
  if (!doc.ok()) return std::nullopt;
  return std::move(*doc);
}

// What adjudicator/cli.cc Emit prints (JSON form).
inline size_t PrintLikeTheCli(const nlohmann::json& ruling) {
  return ruling.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).size();
}

}  // namespace carc::fuzz

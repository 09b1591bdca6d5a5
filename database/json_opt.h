#pragma once
// std::optional -> JSON (null when empty); nlohmann 3.11.2 has no conversion of its own.

#include <nlohmann/json.hpp>
#include <optional>

namespace carc::database {

template <typename T>
nlohmann::json J(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

}  // namespace carc::database

#pragma once
// `--format text` renderings of the JSON that the database commands print. Each takes the
// exact JSON the command prints by default, so both forms always say the same.

#include <nlohmann/json.hpp>
#include <string>

namespace carc::database {

std::string BuildText(const nlohmann::json& report);
std::string SearchText(const nlohmann::json& result);
std::string RulingText(const nlohmann::json& ruling);
std::string RulingListText(const nlohmann::json& list);
std::string ImportText(const nlohmann::json& report);
std::string GamesListText(const nlohmann::json& list);
std::string GameShowText(const nlohmann::json& game);
std::string ReplayText(const nlohmann::json& replay);
std::string AdjudicationsText(const nlohmann::json& list);

// JSON for stdout: 2-space indent, invalid UTF-8 replaced rather than thrown.
std::string Pretty(const nlohmann::json& j);

}  // namespace carc::database

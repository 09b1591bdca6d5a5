#pragma once
// Routes of the page besides api.cc's: the one-line notation (notation_api.cc) and what each
// module declares, for the page's pickers (modules_api.cc). Each returns nothing for a request
// it does not answer, so Api::Handle registers them with one line.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "adjudicator/serve/api.h"

namespace carc::serve {

// POST /api/line: a position file (JSON) -> {"line": its one-line notation, short form}.
// POST /api/position: a line (the body, plain text) -> {"position": the JSON it stands for}.
// Errors are the notation's own messages (column and section), exit 65.
std::optional<Response> NotationRoute(const std::string& method, const std::string& path,
                                      const std::string& body);

// GET /api/modules: per registered module, its figure kinds, its actions with the names their
// enumerated arguments take (cards, messages), and its variants.
std::optional<Response> ModulesRoute(const std::string& method, const std::string& path);
nlohmann::json ModulesJson();

}  // namespace carc::serve

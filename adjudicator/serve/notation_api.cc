// The page's one-line notation box and readable share links: position <-> line through the
// model's notation reader and writer (model/core/notation.h), the same as `carc convert`.
#include "adjudicator/adjudicate.h"
#include "adjudicator/exit_codes.h"
#include "adjudicator/serve/page_routes.h"
#include "model/core/input_file.h"
#include "model/core/notation.h"
#include "model/core/position_io.h"
#include "model/expansions/registry.h"

namespace carc::serve {

using nlohmann::json;

namespace {

Response Fail(int exit_code, const std::string& message) {
  return {exit_code == adjudicator::kExitInternal ? 500 : 400, "application/json",
          json({{"error", message}, {"exit_code", exit_code}}).dump()};
}

}  // namespace

std::optional<Response> NotationRoute(const std::string& method, const std::string& path,
                                      const std::string& body) {
  if (method != "POST" || (path != "/api/line" && path != "/api/position")) return std::nullopt;
  if (path == "/api/line") {
    // The CLI's reader: duplicate keys, nesting, numbers beyond a double and bytes that are not
    // UTF-8 are refused with its message (nlohmann's own parse took the last of two keys).
    auto parsed = model::ParseJsonText(body, "position.json");
    if (!parsed.ok())
      return Fail(static_cast<int>(parsed.status().code()), parsed.status().message());
    const json doc = std::move(*parsed);
    if (!doc.is_object())
      return Fail(adjudicator::kExitMalformed, "position.json:/: expected a JSON object");
    if (auto s = adjudicator::CheckPositionJson(doc, "position.json"); !s.ok())
      return Fail(static_cast<int>(s.code()), s.message());
    // The short form a person would type: what the model fills in by itself left out.
    const json minimal = model::MinimalJson(doc, exp::Context("position.json"));
    auto line = model::JsonToLine(minimal);
    if (!line.ok()) return Fail(static_cast<int>(line.status().code()), line.status().message());
    return Response{200, "application/json", json({{"line", *line}}).dump()};
  }
  // The line's length limit is the notation reader's (kMaxLineBytes), as on the command line.
  auto doc = model::LineToJson(body, "line");
  if (!doc.ok()) return Fail(static_cast<int>(doc.status().code()), doc.status().message());
  // Pointed at the line's column, as the CLI's message is.
  if (auto s = adjudicator::CheckPositionJson(*doc, "line"); !s.ok())
    return Fail(static_cast<int>(s.code()), model::LocateInLine(body, "line", s.message()));
  return Response{200, "application/json", json({{"position", *doc}}).dump()};
}

}  // namespace carc::serve

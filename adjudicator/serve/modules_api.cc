// What every registered module declares (model/core/module_loader.h), as data for the page's
// pickers: a judge chooses a card, a message or a figure kind from the module's own names
// instead of spelling them.
#include "adjudicator/serve/page_routes.h"
#include "model/core/module_loader.h"
#include "model/core/position.h"
#include "model/expansions/registry.h"

namespace carc::serve {

using nlohmann::json;

namespace {

const char* ArgTypeName(model::ArgType t) {
  switch (t) {
    case model::ArgType::kInt:
      return "int";
    case model::ArgType::kEnum:
      return "enum";
    case model::ArgType::kFeature:
      return "feature";
    case model::ArgType::kFigureAt:
      return "figure_at";
    case model::ArgType::kFigureKind:
      return "figure_kind";
    case model::ArgType::kPlayer:
      return "player";
    case model::ArgType::kTile:
      return "tile";
    case model::ArgType::kSquare:
      return "square";
  }
  return "?";
}

}  // namespace

json ModulesJson() {
  const auto cfg = model::MakeConfig({}, exp::All());
  json out = json::object();
  for (const model::ModuleDecl& m : cfg->modules) {
    const std::string id(m.module->Id());
    json kinds = json::array();
    for (const model::FigureKindDef& k : cfg->figure_kinds)
      if (k.owner == m.module) kinds.push_back({{"name", k.name}, {"per_player", k.per_player}});
    json actions = json::array();
    for (const auto& [owner, d] : cfg->actions) {
      if (owner != m.module) continue;
      json args = json::array();
      for (const model::ArgDecl& a : d.args) {
        json ja = {{"key", std::string(a.key)}, {"type", ArgTypeName(a.type)}};
        if (a.optional) ja["optional"] = true;
        if (!a.names.empty()) {
          json names = json::array();
          for (std::string_view n : a.names) names.push_back(std::string(n));
          ja["names"] = names;
        }
        args.push_back(ja);
      }
      actions.push_back(
          {{"type", std::string(d.type)}, {"summary", std::string(d.summary)}, {"args", args}});
    }
    json variants = json::array();
    for (const model::VariantDecl& v : m.variants) variants.push_back(v.ruling);
    out[id] = {{"figure_kinds", kinds}, {"actions", actions}, {"variants", variants}};
    // Groups of the module's names it declared for pickers (e.g. which deck each card is in).
    for (const model::NameGroups& ng : m.name_groups) {
      json groups = json::object();
      for (const model::NameGroups::Group& g : ng.groups) groups[g.name] = g.members;
      out[id][ng.key] = groups;
    }
  }
  json core = json::array();
  for (const model::FigureKindDef& k : cfg->figure_kinds)
    if (k.owner == nullptr) core.push_back({{"name", k.name}, {"per_player", k.per_player}});
  return {{"core", {{"figure_kinds", core}}}, {"modules", out}};
}

std::optional<Response> ModulesRoute(const std::string& method, const std::string& path) {
  if (method != "GET" || path != "/api/modules") return std::nullopt;
  static const std::string body = ModulesJson().dump();  // the same for every request
  return Response{200, "application/json", body};
}

}  // namespace carc::serve

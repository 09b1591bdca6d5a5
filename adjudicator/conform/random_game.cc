#include "adjudicator/conform/random_game.h"

#include <algorithm>

#include "model/core/module_loader.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/core/step.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator::conform {

using model::Action;
using model::Position;
using nlohmann::json;

std::vector<model::TileType> DrawOrder(const std::vector<int>& picks) {
  const model::TileCatalog& cat = model::TileCatalog::Base();
  std::vector<model::TileType> bag;
  for (model::TileType t = 0; t < cat.size(); ++t)
    for (int i = 0; i < cat.def(t).count - (t == cat.start_tile() ? 1 : 0); ++i) bag.push_back(t);
  std::vector<model::TileType> out;
  for (int p : picks) {
    if (bag.empty()) break;
    size_t i = static_cast<size_t>(p < 0 ? -static_cast<long>(p) : p) % bag.size();
    out.push_back(bag[i]);
    bag.erase(bag.begin() + static_cast<long>(i));
  }
  return out;
}

json StartJson(const GameSpec& spec) {
  const model::TileCatalog& cat = model::TileCatalog::Base();
  json players = json::array();
  for (int p = 0; p < spec.players; ++p) players.push_back({{"name", "P" + std::to_string(p)}});
  json order = json::array();
  for (model::TileType t : DrawOrder(spec.picks)) order.push_back(cat.Name(t));
  return {
      {"rules", {{"edition", "C3"}, {"expansions", spec.expansions}}},
      {"players", players},
      {"board",
       json::array({{{"tile", cat.Name(cat.start_tile())}, {"x", 0}, {"y", 0}, {"rotation", 0}}})},
      {"supply", {{"draw_order", order}}},
      {"turn", {{"player", 0}, {"step", "draw"}}}};
}

std::string Describe(const GameSpec& spec) { return SpecJson(spec).dump(); }

json SpecJson(const GameSpec& spec) {
  return {{"players", spec.players},
          {"expansions", spec.expansions},
          {"unused", spec.unused},
          {"picks", spec.picks},
          {"choices", spec.choices}};
}

model::StatusOr<Position> ParseJson(const json& j, const std::string& source) {
  return model::ParsePosition(j, exp::Context(source));
}

namespace {

// The "kind" a declared action is written with, from its declaration (writing out each
// listed action of another expansion was most of the unused-expansion check's filter): an
// argument with the key "kind" is written as its type says (ArgDecl): a figure kind by its name,
// an enum by its name; absent (another shape, or not set), no "kind". False: the action is not
// declared, or its "kind" has another type (the caller writes the action out).
bool KindNamed(const Position& pos, const Action& a, std::string& name) {
  const model::ActionDecl* d = model::DeclarationOf(pos, a);
  if (!d) return false;
  for (int i = 0; i < static_cast<int>(d->args.size()); ++i) {
    const model::ArgDecl& arg = d->args[i];
    if (arg.key != "kind") continue;
    if (arg.type != model::ArgType::kFigureKind && arg.type != model::ArgType::kEnum) return false;
    if (!model::ArgGiven(*d, a, i)) continue;
    const int v = a.args[model::SlotOf(*d, i)];
    if (arg.type == model::ArgType::kFigureKind)
      name = pos.cfg().figure_kinds[v].name;
    else
      name = std::string(arg.names[v]);
  }
  return true;
}

}  // namespace

bool UsesExpansion(const Position& pos, const Action& a, std::string_view id) {
  const model::Expansion* e = pos.cfg().FindExpansion(id);
  return UsesExpansion(pos, a, e, OwnsFigureKind(pos, e));
}

bool OwnsFigureKind(const Position& pos, const model::Expansion* e) {
  return e && std::any_of(pos.cfg().figure_kinds.begin(), pos.cfg().figure_kinds.end(),
                          [e](const auto& k) { return k.owner == e; });
}

bool UsesExpansion(const Position& pos, const Action& a, const model::Expansion* e,
                   bool owns_figure_kind) {
  if (!e) return false;
  if (a.type == model::ActionType::kExpansion && a.expansion == e) return true;
  if (a.type != model::ActionType::kPlaceFigure && a.type != model::ActionType::kExpansion)
    return false;
  // Only a figure kind the module declared is one of its components named by another action
  // (the config records who declared each): without one, no need to read the action's kind.
  if (!owns_figure_kind) return false;
  // Another expansion's action may use this one's figure (Gifts' Synod with the phantom): the
  // name its position-file form gives under "kind".
  std::string name;
  if (a.type == model::ActionType::kPlaceFigure) {
    name = pos.cfg().figure_kinds[a.figure_kind].name;
  } else if (!KindNamed(pos, a, name)) {
    const json j = model::DumpAction(pos, a);
    if (j.contains("kind") && j["kind"].is_string()) name = j["kind"].get<std::string>();
  }
  // The figure kinds the module declared (the config records who declared each).
  for (const auto& k : pos.cfg().figure_kinds)
    if (k.owner == e && !name.empty() && name == k.name) return true;
  return false;
}

bool AtStepOf(const Position& pos, const std::vector<std::string>& ids) {
  if (pos.turn.game_over) return false;
  // The step that decides: a preempting step (Step::Preempts) is its module's decision too.
  const model::Step& s = pos.current_step();
  const int step = &s == &pos.pipeline_step() ? pos.turn.step : pos.cfg().StepIndex(s.Name());
  const model::Expansion* owner = pos.cfg().StepOwner(step);
  for (const std::string& id : ids)
    if (owner && owner == pos.cfg().FindExpansion(id)) return true;
  return false;
}

std::vector<Action> AllowedActions(const Position& pos, const std::vector<std::string>& unused) {
  std::vector<Action> legal = model::LegalActions(pos);
  if (unused.empty()) return legal;
  std::vector<Action> out;
  AllowedFrom(pos, legal, unused, out);
  return out;
}

void AllowedFrom(const Position& pos, const std::vector<Action>& legal,
                 const std::vector<std::string>& unused, std::vector<Action>& out) {
  out.clear();
  if (unused.empty()) {
    out = legal;
    return;
  }
  // Each unused expansion looked up once per list (not once per action).
  struct Unused {
    const model::Expansion* e;
    bool owns_figure_kind;
  };
  std::vector<Unused> ids;
  ids.reserve(unused.size());
  for (const std::string& id : unused) {
    const model::Expansion* e = pos.cfg().FindExpansion(id);
    ids.push_back({e, OwnsFigureKind(pos, e)});
  }
  for (const Action& a : legal) {
    bool skip = false;
    // UsesExpansion is false for an action that is neither a figure nor an expansion's (its
    // first test): not asked (most of a list places the tile).
    if (a.type == model::ActionType::kPlaceFigure || a.type == model::ActionType::kExpansion)
      for (const Unused& u : ids) skip = skip || UsesExpansion(pos, a, u.e, u.owns_figure_kind);
    if (!skip) out.push_back(a);
  }
  // A component that always comes into play (Messengers' scoring figures): the first listed.
  if (out.empty() && !legal.empty()) out.push_back(legal.front());
}

size_t ChoiceIndex(const GameSpec& spec, const Position& pos, size_t n_allowed, size_t& k) {
  // At a step of an unused expansion the first allowed action is taken without using a choice,
  // so the remaining choices line up with the game played without the expansion.
  if (n_allowed <= 1 || AtStepOf(pos, spec.unused)) return 0;
  const int c = k < spec.choices.size() ? spec.choices[k] : 0;
  ++k;
  return static_cast<size_t>(c < 0 ? -static_cast<long>(c) : c) % n_allowed;
}

Game Playout(const GameSpec& spec, bool keep_positions) {
  Game g;
  g.spec = spec;
  g.start_json = StartJson(spec);
  auto parsed = ParseJson(g.start_json, "start.json");
  if (!parsed.ok()) {
    g.error = "start position does not parse: " + parsed.status().message();
    return g;
  }
  Position pos = std::move(*parsed);
  model::ApplyResult first;
  model::Advance(pos, first);
  g.start = pos;
  size_t k = 0;
  // AllowedActions(pos, spec.unused), into buffers reused from decision to decision.
  std::vector<Action> legal, filtered;
  for (int guard = 0; !pos.turn.game_over; ++guard) {
    if (guard > 1000) {
      g.error = "the game did not end after 1000 decisions";
      return g;
    }
    model::LegalActionsInto(pos, legal);
    if (!spec.unused.empty()) AllowedFrom(pos, legal, spec.unused, filtered);
    const std::vector<Action>& allowed = spec.unused.empty() ? legal : filtered;
    if (allowed.empty()) {
      g.error = "no legal action at step " + std::string(pos.current_step().Name()) +
                " of a game that is not over";
      g.final_pos = pos;
      return g;
    }
    const size_t i = ChoiceIndex(spec, pos, allowed.size(), k);
    if (keep_positions) g.before.push_back(pos);
    g.actions.push_back(allowed[i]);
    model::ApplyResult r = model::Apply(pos, allowed[i]);
    if (!r.verdict.legal || !r.input_error.empty()) {
      g.error = "a listed action was refused: " + model::Describe(pos, allowed[i]) + ": " +
                (r.input_error.empty()
                     ? (r.verdict.reasons.empty() ? std::string("?") : r.verdict.reasons[0].ruling)
                     : r.input_error);
      if (!keep_positions) g.before.push_back(pos);
      g.final_pos = pos;
      return g;
    }
    if (keep_positions) g.results.push_back(std::move(r));
  }
  g.final_pos = std::move(pos);
  return g;
}

GameSpec RandomSpec(std::mt19937_64& rng, const std::vector<std::string>& expansions) {
  GameSpec s;
  s.players = std::uniform_int_distribution<int>(2, 6)(rng);
  s.expansions = expansions;
  for (int i = 0; i < 71; ++i)
    s.picks.push_back(std::uniform_int_distribution<int>(0, 70 - i)(rng));
  for (int i = 0; i < 300; ++i)
    s.choices.push_back(std::uniform_int_distribution<int>(0, 1 << 20)(rng));
  return s;
}

}  // namespace carc::adjudicator::conform

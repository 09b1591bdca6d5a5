#include "model/core/module_loader.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "model/core/check.h"
#include "model/core/core_steps.h"
#include "model/core/position.h"

namespace carc::model {

using nlohmann::json;

std::string_view HookName(Hook h) {
  static constexpr std::array<std::string_view, kHookCount> kNames = {
      "Validate",    "ExcusesFigure",      "JudgeOutOfStep",    "InterceptAward", "AdjustMajority",
      "OnCompleted", "BeforeFinalScoring", "AfterFinalScoring", "HeldTiles"};
  return kNames[static_cast<size_t>(h)];
}

struct ModuleLoader::Target {
  GameConfig& cfg;
  ModuleDecl& decl;
  std::vector<std::string> errors;
};

void ModuleLoader::AddFigure(FigureKindDef def) {
  for (const FigureKindDef& k : target_.cfg.figure_kinds)
    if (k.name == def.name) target_.errors.push_back("figure kind \"" + def.name + "\" twice");
  def.owner = module_;
  target_.cfg.figure_kinds.push_back(std::move(def));
}

const std::vector<FigureKindDef>& ModuleLoader::Figures() const { return target_.cfg.figure_kinds; }

namespace {

// Inserts `step` at its anchor; false when the anchor is not in the pipeline.
bool Insert(GameConfig& cfg, const Expansion* owner, std::string_view anchor, Place place,
            const Step* step) {
  auto& steps = cfg.pipeline;
  auto it =
      std::find_if(steps.begin(), steps.end(), [&](const Step* s) { return s->Name() == anchor; });
  if (it == steps.end()) return false;
  // kAfter: right after the anchor; kBefore: right before it (the order the pipelines had).
  if (place == Place::kAfter) ++it;
  cfg.step_owner.insert(cfg.step_owner.begin() + (it - steps.begin()), owner);
  steps.insert(it, step);
  return true;
}

}  // namespace

void ModuleLoader::AddStep(std::string_view anchor, Place place, const Step* step,
                           bool optional_anchor) {
  if (target_.cfg.StepIndex(step->Name()) >= 0)
    target_.errors.push_back("step \"" + std::string(step->Name()) + "\" twice in the pipeline");
  if (!Insert(target_.cfg, module_, anchor, place, step) && !optional_anchor)
    target_.errors.push_back("step \"" + std::string(step->Name()) + "\": no anchor \"" +
                             std::string(anchor) + "\"");
}

void ModuleLoader::AddLegacyStep(std::string_view anchor, Place place, const Step* step) {
  Insert(target_.cfg, module_, anchor, place, step);
}

void ModuleLoader::AddAction(ActionDecl decl) {
  for (const auto& [m, d] : target_.cfg.actions)
    if (d.type == decl.type)
      target_.errors.push_back("action \"" + std::string(decl.type) + "\" twice");
  target_.cfg.actions.emplace_back(module_, std::move(decl));
}

void ModuleLoader::SetState(StateCodec codec) { target_.decl.state = std::move(codec); }
void ModuleLoader::AddVariant(VariantDecl decl) {
  target_.decl.variants.push_back(std::move(decl));
}
void ModuleLoader::Uses(Hook h) { target_.decl.hooks[static_cast<size_t>(h)] = true; }
void ModuleLoader::UseLegacyActions() { target_.decl.legacy_actions = true; }

// The default for modules not yet migrated: what the old hooks contribute, every hook used.
void Expansion::Load(ModuleLoader& loader) const {
  std::vector<FigureKindDef> kinds;
  ContributeFigures(kinds);
  for (FigureKindDef& k : kinds) loader.AddFigure(std::move(k));
  std::vector<StepInsert> inserts;
  ContributeSteps(inserts);
  for (const StepInsert& ins : inserts)
    loader.AddLegacyStep(ins.anchor, ins.after ? Place::kAfter : Place::kBefore, ins.step);
  loader.SetState({[this] { return NewState(); },
                   [this](const json& j, const std::string& where, Position& pos) {
                     return ParseState(j, where, pos);
                   },
                   [this](const Position& pos, json& j) { DumpState(pos, j); }});
  loader.UseLegacyActions();
  for (size_t h = 0; h < kHookCount; ++h) loader.Uses(static_cast<Hook>(h));
}

void AssembleModules(GameConfig& cfg) {
  cfg.figure_kinds.clear();
  cfg.figure_kinds.push_back(
      {"meeple", /*per_player=*/7, /*strength=*/1, "BASE-MEEPLE-SUPPLY"});  // BASE-SETUP
  cfg.pipeline = CoreSteps();
  cfg.step_owner.assign(cfg.pipeline.size(), nullptr);
  cfg.modules.clear();
  cfg.modules.reserve(cfg.expansions.size());
  for (const Expansion* e : cfg.expansions) {
    cfg.modules.push_back({.module = e});
    ModuleLoader::Target target{cfg, cfg.modules.back(), {}};
    ModuleLoader loader(e, target);
    e->Load(loader);
    for (const std::string& err : target.errors)
      std::fprintf(stderr, "module %s: %s\n", std::string(e->Id()).c_str(), err.c_str());
    CARC_CHECK(target.errors.empty());
    for (size_t h = 0; h < kHookCount; ++h)
      if (cfg.modules.back().hooks[h]) cfg.by_hook[h].push_back(e);
  }
}

std::optional<StatusOr<Action>> ParseModuleAction(const json& j, const Position& pos,
                                                  const std::string& where) {
  const std::string type = j.value("type", "");
  for (const auto& [module, decl] : pos.cfg().actions)
    if (decl.type == type) return decl.parse(j, pos, where);
  for (const ModuleDecl& m : pos.cfg().modules)
    if (m.legacy_actions)
      if (auto r = m.module->ParseAction(j, pos, where)) return r;
  return std::nullopt;
}

namespace {

const ActionDecl* Declared(const Position& pos, const Action& a) {
  for (const auto& [module, decl] : pos.cfg().actions)
    if (module == a.expansion && decl.code == a.code) return &decl;
  return nullptr;
}

}  // namespace

void DumpModuleAction(const Position& pos, const Action& a, json& j) {
  if (const ActionDecl* d = Declared(pos, a)) {
    j["type"] = std::string(d->type);
    d->dump(pos, a, j);
  } else if (a.expansion) {
    a.expansion->DumpAction(pos, a, j);
  }
}

std::string DescribeModuleAction(const Position& pos, const Action& a) {
  if (const ActionDecl* d = Declared(pos, a)) return d->describe(pos, a);
  return a.expansion ? a.expansion->DescribeAction(pos, a) : "expansion action";
}

}  // namespace carc::model

#include "model/core/position.h"

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "model/core/config_cache.h"
#include "model/core/core_steps.h"

namespace carc::model {

namespace {
// A remembered index per step name (keyed by its characters), in a small direct-mapped table:
// a hint only, always checked against the config asked (so a stale or another config's hint
// costs one compare, never a wrong answer). Step names are unique in a pipeline, so a checked
// hit is the one match.
struct Hints {
  std::atomic<int> slot[64] = {};
  std::atomic<int>& For(const void* key) {
    return slot[(reinterpret_cast<uintptr_t>(key) >> 3) % 64];
  }
};
Hints& StepHints() {
  static Hints h;
  return h;
}
}  // namespace

int GameConfig::StepIndex(std::string_view name) const {
  if (step_names.size() == pipeline.size()) {  // the names MakeConfig recorded: no virtual calls
    std::atomic<int>& hint = StepHints().For(name.data());
    const size_t h = static_cast<size_t>(hint.load(std::memory_order_relaxed));
    if (h < step_names.size() && step_names[h].data() == name.data() &&
        step_names[h].size() == name.size())
      return static_cast<int>(h);
    for (size_t i = 0; i < step_names.size(); ++i)  // the same constant first (kPlaceFigure)
      if (step_names[i].data() == name.data() && step_names[i].size() == name.size()) {
        hint.store(static_cast<int>(i), std::memory_order_relaxed);
        return static_cast<int>(i);
      }
    for (size_t i = 0; i < step_names.size(); ++i)
      if (step_names[i] == name) return static_cast<int>(i);
    return -1;
  }
  for (size_t i = 0; i < pipeline.size(); ++i)
    if (pipeline[i]->Name() == name) return static_cast<int>(i);
  return -1;
}

int GameConfig::FigureKind(std::string_view name) const {
  for (size_t i = 0; i < figure_kinds.size(); ++i)
    if (figure_kinds[i].name == name) return static_cast<int>(i);
  return -1;
}

const ModuleDecl* GameConfig::Module(const Expansion* e) const {
  for (const ModuleDecl& m : modules)
    if (m.module == e) return &m;
  return nullptr;
}

const Expansion* GameConfig::FindExpansion(std::string_view id) const {
  for (const Expansion* e : expansions)
    if (e->Id() == id) return e;
  return nullptr;
}

std::shared_ptr<const GameConfig> MakeConfig(RuleOptions options,
                                             std::vector<const Expansion*> expansions) {
  auto cfg = std::make_shared<GameConfig>();
  cfg->options = options;
  cfg->expansions = std::move(expansions);
  AssembleModules(*cfg);  // core steps + what each module declares (module_loader.cc)
  for (const Step* s : cfg->pipeline) cfg->step_names.push_back(s->Name());
  return cfg;
}

namespace {

// The configurations made inside the open SharedConfigsScopes of this thread (config_cache.h).
struct SharedConfigs {
  int depth = 0;
  struct Entry {
    RuleOptions options;
    std::vector<const Expansion*> expansions;
    std::shared_ptr<const GameConfig> config;
  };
  std::vector<Entry> entries;
};
thread_local SharedConfigs shared_configs;

}  // namespace

SharedConfigsScope::SharedConfigsScope() { ++shared_configs.depth; }
SharedConfigsScope::~SharedConfigsScope() {
  if (--shared_configs.depth == 0) shared_configs.entries.clear();
}

std::shared_ptr<const GameConfig> SharedConfig(RuleOptions options,
                                               const std::vector<const Expansion*>& expansions) {
  if (shared_configs.depth == 0) return MakeConfig(options, expansions);
  for (const SharedConfigs::Entry& e : shared_configs.entries)
    if (e.options == options && e.expansions == expansions) return e.config;
  std::shared_ptr<const GameConfig> cfg = MakeConfig(options, expansions);
  shared_configs.entries.push_back({options, expansions, cfg});
  return cfg;
}

int TileSupply::total() const {
  int n = 0;
  for (int c : counts) n += c;
  return n;
}

Position::Position(const Position& o)
    : config(o.config),
      board(o.board),
      players(o.players),
      figures(o.figures),
      supply(o.supply),
      turn(o.turn),
      board_partial(o.board_partial),
      explain(o.explain) {
  for (const auto& s : o.slices) slices.push_back(s ? s->Clone() : nullptr);
}

// Member by member, so that a position assigned over another reuses its buffers (a random
// game's board, figures and lists allocate nothing once they have grown to a game's size).
Position& Position::operator=(const Position& o) {
  if (this == &o) return *this;
  config = o.config;
  board = o.board;
  players = o.players;
  figures = o.figures;
  supply = o.supply;
  turn = o.turn;
  board_partial = o.board_partial;
  explain = o.explain;
  slices.resize(o.slices.size());
  for (size_t i = 0; i < o.slices.size(); ++i)
    slices[i] = o.slices[i] ? o.slices[i]->Clone() : nullptr;
  return *this;
}

const ExpansionState* Position::SearchSlice(const Expansion* e) const {
  const auto& ex = config->expansions;
  for (size_t i = 0; i < ex.size() && i < slices.size(); ++i)
    if (ex[i] == e) {
      e->slice_hint_.store(static_cast<int>(i), std::memory_order_relaxed);
      return slices[i].get();
    }
  return nullptr;
}

std::vector<int> Position::FiguresIn(int root) const {
  std::vector<int> out;
  FiguresIn(root, out);
  return out;
}

void Position::FiguresIn(int root, std::vector<int>& out) const {
  out.clear();
  for (size_t f = 0; f < figures.size(); ++f)
    if (board.Find(figures[f].node) == root) out.push_back(static_cast<int>(f));
}

bool Position::AnyFigureIn(int root) const {
  for (const Figure& f : figures)
    if (board.Find(f.node) == root) return true;
  return false;
}

int Position::FiguresOnBoard(PlayerId p, int kind) const {
  int n = 0;
  for (const Figure& f : figures)
    if (f.owner == p && f.kind == kind) ++n;
  return n;
}

}  // namespace carc::model

#include "model/core/position.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "model/core/check.h"
#include "model/core/core_steps.h"

namespace carc::model {

int GameConfig::StepIndex(std::string_view name) const {
  for (size_t i = 0; i < step_names.size(); ++i) {
    // Usually the same constant (kPlaceFigure): its characters at the same address.
    if (step_names[i].data() == name.data() && step_names[i].size() == name.size())
      return static_cast<int>(i);
  }
  for (size_t i = 0; i < step_names.size(); ++i)
    if (step_names[i] == name) return static_cast<int>(i);
  // While the pipeline is assembled (module_loader.cc), before MakeConfig records the names.
  for (size_t i = step_names.size(); i < pipeline.size(); ++i)
    if (pipeline[i]->Name() == name) return static_cast<int>(i);
  return -1;
}

int GameConfig::IndexOf(const Step* step) const {
  for (size_t i = 0; i < pipeline.size(); ++i)
    if (pipeline[i] == step) return static_cast<int>(i);
  return -1;
}

int GameConfig::FigureKind(std::string_view name) const {
  for (size_t i = 0; i < figure_kinds.size(); ++i)
    if (figure_kinds[i].name == name) return static_cast<int>(i);
  return -1;
}

int GameConfig::FigureKindPlacedAt(int step) const {
  if (step < 0 || step >= static_cast<int>(step_names.size())) return -1;
  for (size_t k = 0; k < figure_kinds.size(); ++k) {
    const std::string_view own = figure_kinds[k].traits.own_step;
    if (!own.empty() && own == step_names[step]) return static_cast<int>(k);
  }
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

namespace {

// GameConfig::slice_of: each enabled module's slice index (its index in cfg.expansions, which
// Position::slices follows) by its slot. Two enabled modules with one slot are a programming
// error (exit 70).
void ResolveSlices(GameConfig& cfg) {
  for (size_t i = 0; i < cfg.expansions.size(); ++i) {
    const Expansion* e = cfg.expansions[i];
    const size_t slot = static_cast<size_t>(e->Slot());
    CARC_CHECK(e->Slot() >= 0);
    if (slot >= cfg.slice_of.size()) cfg.slice_of.resize(slot + 1, -1);
    if (cfg.slice_of[slot] >= 0) {
      std::fprintf(stderr, "modules %s and %s: two enabled modules with one slot (%zu)\n",
                   std::string(cfg.expansions[cfg.slice_of[slot]]->Id()).c_str(),
                   std::string(e->Id()).c_str(), slot);
    }
    CARC_CHECK(cfg.slice_of[slot] < 0);
    cfg.slice_of[slot] = static_cast<int>(i);
  }
}

}  // namespace

std::shared_ptr<const GameConfig> MakeConfig(RuleOptions options,
                                             std::vector<const Expansion*> expansions) {
  auto cfg = std::make_shared<GameConfig>();
  cfg->options = options;
  cfg->expansions = std::move(expansions);
  ResolveSlices(*cfg);
  AssembleModules(*cfg);  // core steps + what each module declares (module_loader.cc)
  for (const Step* s : cfg->pipeline) cfg->step_names.push_back(s->Name());
  for (size_t i = 0; i < cfg->pipeline.size(); ++i)
    if (cfg->pipeline[i]->Preempts())
      cfg->preempting.emplace_back(static_cast<int>(i), cfg->pipeline[i]);
  cfg->core_step = {.draw_tile = cfg->StepIndex(kDrawTile),
                    .place_tile = cfg->StepIndex(kPlaceTile),
                    .place_figure = cfg->StepIndex(kPlaceFigure),
                    .score_completed = cfg->StepIndex(kScoreCompleted)};
  // Steps are asked for by index (Decided, MarkDecided): names are resolved here, once.
  for (const FigureKindDef& k : cfg->figure_kinds)
    cfg->own_step.push_back(k.traits.own_step.empty() ? -1 : cfg->StepIndex(k.traits.own_step));
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
      board_empty(o.board_empty),
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
  board_empty = o.board_empty;
  explain = o.explain;
  slices.resize(o.slices.size());
  for (size_t i = 0; i < o.slices.size(); ++i)
    slices[i] = o.slices[i] ? o.slices[i]->Clone() : nullptr;
  return *this;
}

bool Position::KnownEmpty(Coord c) const {
  if (board_empty.empty() || board.At(c)) return false;
  return std::find(board_empty.begin(), board_empty.end(), c) != board_empty.end();
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

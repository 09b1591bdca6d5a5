#include "model/core/module_loader.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "model/core/check.h"
#include "model/core/core_steps.h"
#include "model/core/expansion.h"
#include "model/core/json_reader.h"
#include "model/core/position.h"

namespace carc::model {

using nlohmann::json;

struct ModuleLoader::Target {
  GameConfig& cfg;
  ModuleDecl& decl;
  std::vector<std::string> errors;
};

void ModuleLoader::AddFigure(FigureKindDef def) {
  for (const FigureKindDef& k : target_.cfg.figure_kinds)
    if (k.name == def.name) target_.errors.push_back("figure kind \"" + def.name + "\" twice");
  def.owner = module_;
  target_.decl.figure_kinds.push_back(static_cast<int>(target_.cfg.figure_kinds.size()));
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

void ModuleLoader::AddAction(ActionDecl decl) {
  const std::string type(decl.type);
  for (const auto& [m, d] : target_.cfg.actions)
    if (d.type == decl.type) target_.errors.push_back("action \"" + type + "\" twice");
  // The layout fits Action::args, and every argument has a domain to enumerate.
  for (int i = 0; i < static_cast<int>(decl.args.size()); ++i) {
    const ArgDecl& a = decl.args[i];
    const int last = SlotOf(decl, i) + (a.type == ArgType::kSquare ? 1 : 0);
    if (last >= kMaxActionArgs)
      target_.errors.push_back("action \"" + type + "\": argument \"" + std::string(a.key) +
                               "\" past kMaxActionArgs");
    if (a.type == ArgType::kEnum && a.names.empty())
      target_.errors.push_back("action \"" + type + "\": enum \"" + std::string(a.key) +
                               "\" without names");
    if (a.shapes && !decl.shape_of)
      target_.errors.push_back("action \"" + type + "\": a shape without shape_of");
    if (a.needs >= i) target_.errors.push_back("action \"" + type + "\": needs a later argument");
  }
  target_.cfg.actions.emplace_back(module_, std::move(decl));
}

void ModuleLoader::SetState(StateCodec codec) { target_.decl.state = std::move(codec); }
void ModuleLoader::AddVariant(VariantDecl decl) {
  for (const ModuleDecl& m : target_.cfg.modules)
    for (const VariantDecl& v : m.variants)
      if (v.ruling == decl.ruling) target_.errors.push_back("variant " + decl.ruling + " twice");
  if (decl.readings.size() < 2 || decl.adopted < 0 ||
      decl.adopted >= static_cast<int>(decl.readings.size()) || !decl.set || !decl.get)
    target_.errors.push_back("variant " + decl.ruling +
                             ": needs two readings or more, the adopted one, set and get");
  target_.decl.variants.push_back(std::move(decl));
}
void ModuleLoader::JudgesPartialBoard() { target_.decl.judges_partial_board = true; }

void ModuleLoader::AddNameGroups(NameGroups groups) {
  for (const NameGroups& g : target_.decl.name_groups)
    if (g.key == groups.key) target_.errors.push_back("name groups \"" + g.key + "\" given twice");
  target_.decl.name_groups.push_back(std::move(groups));
}

namespace {

// Registers `fn` on `list` (a module's own): a hook registered twice is a programming error.
template <typename Fn>
void Register(HookList<Fn>& list, const Expansion* module, Fn fn, const char* name,
              std::vector<std::string>& errors) {
  if (!list.empty()) errors.push_back(std::string("hook ") + name + " registered twice");
  list.push_back({module, std::move(fn)});
}

}  // namespace

#define CARC_HOOK(Method, Fn, field)                                                     \
  void ModuleLoader::Method(Fn fn) {                                                     \
    Register(target_.decl.hooks.field, module_, std::move(fn), #Method, target_.errors); \
  }
CARC_HOOK(OnValidate, ValidateFn, validate)
CARC_HOOK(OnExcuse, ExcuseFn, excuse)
CARC_HOOK(OnJudgeOutOfStep, JudgeOutOfStepFn, judge_out_of_step)
CARC_HOOK(OnInterceptAward, InterceptAwardFn, intercept_award)
CARC_HOOK(OnAdjustMajority, AdjustMajorityFn, adjust_majority)
CARC_HOOK(OnMajorityAdjustments, MajorityAdjustmentsFn, majority_adjustments)
CARC_HOOK(OnCompleted, OnCompletedFn, on_completed)
CARC_HOOK(OnFeatureScored, OnFeatureScoredFn, on_feature_scored)
CARC_HOOK(OnBeforeFinalScoring, FinalScoringFn, before_final_scoring)
CARC_HOOK(OnAfterFinalScoring, FinalScoringFn, after_final_scoring)
CARC_HOOK(OnHeldTiles, HeldTilesFn, held_tiles)
CARC_HOOK(OnConstrainPlacement, PlacementConstraint, constrain_placement)
CARC_HOOK(OnTilePlaced, OnTilePlacedFn, on_tile_placed)
CARC_HOOK(OnDescribeState, DescribeStateFn, describe_state)
#undef CARC_HOOK

namespace {

std::string Readings(const VariantDecl& v) {
  std::string s;
  for (const std::string& r : v.readings) s += (s.empty() ? "" : ", ") + r;
  return s;
}

// Every declared ruling with its readings, for the message on an unknown ruling ID.
std::string Table(const ModuleDecl& m) {
  if (m.variants.empty())
    return std::string(m.module->Id()) + " declares no disputed ruling with readings";
  std::string s = "rulings with readings in " + std::string(m.module->Id()) + ": ";
  for (size_t i = 0; i < m.variants.size(); ++i)
    s += (i ? "; " : "") + m.variants[i].ruling + " (" + Readings(m.variants[i]) + ")";
  return s;
}

}  // namespace

// One variant format for every module: exit 69 for an unknown ruling or reading.
Status ReadVariants(const ModuleDecl& m, const json& jv, const std::string& where, Position& pos) {
  if (!jv.is_object())
    return Status(
        ErrorCode::kMalformed,
        where + ": expected an object {\"<RULING-ID>\": \"<reading>\"} (" + Table(m) + ")");
  for (auto it = jv.begin(); it != jv.end(); ++it) {
    const std::string w = where + "/" + it.key();
    const VariantDecl* decl = nullptr;
    for (const VariantDecl& v : m.variants) {
      if (!v.retired_key.empty() && v.retired_key == it.key())
        return Status(ErrorCode::kUnknownRules,
                      w + ": \"" + it.key() +
                          "\" is no longer read: key this variant by its ruling ID, \"" + v.ruling +
                          "\" (" + Table(m) + ")");
      if (v.ruling == it.key()) decl = &v;
    }
    if (!decl) {
      // A ruling another enabled module reads (a reading that moved to the module it is about):
      // name the key that is read.
      for (const ModuleDecl& other : pos.cfg().modules)
        for (const VariantDecl& v : other.variants)
          if (&other != &m &&
              (v.ruling == it.key() || (!v.retired_key.empty() && v.retired_key == it.key())))
            return Status(ErrorCode::kUnknownRules,
                          w + ": " + it.key() + " is not a variant of " +
                              std::string(m.module->Id()) + ": state it as /expansions/" +
                              std::string(other.module->Id()) + "/variants/" + v.ruling + " (" +
                              Readings(v) + ")");
      return Status(ErrorCode::kUnknownRules, w + ": unknown ruling ID \"" + it.key() +
                                                  "\" for a variant (" + Table(m) + ")");
    }
    if (!it.value().is_string())
      return Status(ErrorCode::kMalformed,
                    w + ": expected a reading name (" + Readings(*decl) + ")");
    const std::string reading = it.value().get<std::string>();
    auto r = std::find(decl->readings.begin(), decl->readings.end(), reading);
    if (r == decl->readings.end())
      return Status(ErrorCode::kUnknownRules, w + ": unknown reading \"" + reading + "\" of " +
                                                  decl->ruling + " (readings: " + Readings(*decl) +
                                                  ")");
    decl->set(pos, static_cast<int>(r - decl->readings.begin()));
  }
  return Status::Ok();
}

void DumpVariants(const ModuleDecl& m, const Position& pos, json& j) {
  json v = json::object();
  for (const VariantDecl& d : m.variants)
    if (const int r = d.get(pos); r != d.adopted) v[d.ruling] = d.readings[r];
  if (!v.empty()) j["variants"] = v;
}

void AssembleModules(GameConfig& cfg) {
  cfg.figure_kinds.clear();
  cfg.figure_kinds.push_back({"meeple", /*per_player=*/7, /*strength=*/1, "BASE-MEEPLE-SUPPLY",
                              /*traits=*/{},
                              /*art=*/{.shape = FigureArt::Shape::kMeeple}});  // BASE-SETUP
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
    cfg.hooks.Append(cfg.modules.back().hooks);
  }
}

namespace {

// The argument reads field `k`: its key (or older spelling), or x, y, feature for an argument
// read from the action object itself.
bool ReadsField(const ArgDecl& arg, std::string_view k) {
  if (arg.key.empty()) return k == "x" || k == "y" || k == "feature";
  return k == arg.key || (!arg.alias.empty() && k == arg.alias);
}

// The argument is given in `shape` (-1: the action has one form).
bool OfShape(const ArgDecl& arg, int shape) {
  return !arg.shapes || (shape >= 0 && (arg.shapes >> shape & 1u));
}

// The fields of the action's form, for the message on a field it does not take.
std::string FieldsOf(const ActionDecl& d, int shape) {
  std::string out;
  for (size_t i = 0; i < d.args.size(); ++i) {
    const ArgDecl& arg = d.args[i];
    if (!OfShape(arg, shape) || arg.key == "type") continue;
    const std::string k = arg.key.empty() ? "x, y, feature" : std::string(arg.key);
    if (out.find(k) == std::string::npos) out += (out.empty() ? "" : ", ") + k;
  }
  return out.empty() ? "none" : out;
}

// Nothing is read that the user did not mean (adjudicator/POSITION_FORMAT.md): each field of a
// parsed declared action is read by an argument of its form (ArgDecl::shapes: a card play takes
// its own card's fields only), and a square's or a feature's object holds only its x, y (and
// feature). An action that declares no "kind" argument may hold its fields in a "kind" object
// (older files write them so; the module README says where).
Status CheckDeclaredFields(const ActionDecl& d, const json& j, const Action& a,
                           const std::string& where) {
  bool kind_arg = false;
  for (const ArgDecl& arg : d.args) kind_arg |= arg.key == "kind";
  const bool nested = !kind_arg && j.contains("kind") && j["kind"].is_object();
  const json& f = nested ? j["kind"] : j;
  const std::string wf = nested ? where + "/kind" : where;
  const int shape = d.shape_of ? d.shape_of(a) : -1;
  for (auto it = f.begin(); it != f.end(); ++it) {
    const std::string& k = it.key();
    if (k == "type") continue;
    const ArgDecl* arg = nullptr;
    for (const ArgDecl& x : d.args)
      if (ReadsField(x, k) && OfShape(x, shape)) {
        arg = &x;
        break;
      }
    const std::string wk = wf + "/" + k.substr(0, 100);
    if (!arg)
      return JsonError(wk, "not a field of " + std::string(d.type) +
                               (shape >= 0 ? " in this form" : "") +
                               " (its fields: " + FieldsOf(d, shape) + ")");
    if (arg->key.empty() || !it.value().is_object()) continue;
    if (arg->type == ArgType::kSquare)
      if (Status s = CheckKeys(it.value(), wk, {"x", "y"}); !s.ok()) return s;
    if (arg->type == ArgType::kFeature || arg->type == ArgType::kFigureAt)
      if (Status s = CheckKeys(it.value(), wk, {"x", "y", "feature"}); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace

std::optional<StatusOr<Action>> ParseModuleAction(const json& j, const Position& pos,
                                                  const std::string& where) {
  const std::string type = j.value("type", "");
  for (const auto& [module, decl] : pos.cfg().actions) {
    if (decl.type != type) continue;
    StatusOr<Action> a = decl.parse(j, pos, where);
    if (a.ok() && j.is_object())
      if (Status s = CheckDeclaredFields(decl, j, *a, where); !s.ok()) return s;
    return a;
  }
  return std::nullopt;
}

std::optional<Status> CheckModuleActionFields(const json& j, const Position& pos,
                                              const std::string& where) {
  const std::string type = j.value("type", "");
  for (const auto& [module, decl] : pos.cfg().actions) {
    if (decl.type != type) continue;
    bool kind_arg = false;
    for (const ArgDecl& arg : decl.args) kind_arg |= arg.key == "kind";
    const bool nested = !kind_arg && j.contains("kind") && j["kind"].is_object();
    const json& f = nested ? j["kind"] : j;
    for (auto it = f.begin(); it != f.end(); ++it) {
      if (it.key() == "type") continue;
      bool read = false;
      for (const ArgDecl& arg : decl.args) read |= ReadsField(arg, it.key());
      if (!read)
        return JsonError((nested ? where + "/kind" : where) + "/" + it.key().substr(0, 100),
                         "not a field of " + std::string(decl.type) +
                             " (its fields: " + FieldsOf(decl, -1) + ")");
    }
    return Status::Ok();
  }
  return std::nullopt;
}

bool ArgGiven(const ActionDecl& d, const Action& a, int i) {
  const ArgDecl& arg = d.args[i];
  if (arg.shapes && !(d.shape_of && (arg.shapes >> d.shape_of(a)) & 1u)) return false;
  if (arg.needs >= 0 && !ArgGiven(d, a, arg.needs)) return false;
  return a.args[SlotOf(d, i)] != -1 || (arg.type == ArgType::kSquare && !arg.optional);
}

const ActionDecl* DeclarationOf(const Position& pos, const Action& a) {
  if (a.type != ActionType::kExpansion) return nullptr;
  for (const auto& [module, decl] : pos.cfg().actions)
    if (module == a.expansion && decl.code == a.code) return &decl;
  return nullptr;
}

void DumpModuleAction(const Position& pos, const Action& a, json& j) {
  if (const ActionDecl* d = DeclarationOf(pos, a)) {
    j["type"] = std::string(d->type);
    d->dump(pos, a, j);
  }
}

std::string DescribeModuleAction(const Position& pos, const Action& a) {
  if (const ActionDecl* d = DeclarationOf(pos, a)) return d->describe(pos, a);
  return "expansion action";
}

namespace {

// The values argument i of d ranges over at pos (ArgType), before ActionDecl::domain narrows it.
std::vector<int> Domain(const Position& pos, const ActionDecl& d, int i) {
  std::vector<int> v;
  if (d.domain && d.domain(pos, i, v)) return v;
  const ArgDecl& a = d.args[i];
  const auto range = [&v](int lo, int hi) {
    for (int x = lo; x <= hi; ++x) v.push_back(x);
  };
  switch (a.type) {
    case ArgType::kInt:
      range(a.lo, a.hi);
      break;
    case ArgType::kEnum:
      range(0, static_cast<int>(a.names.size()) - 1);
      break;
    case ArgType::kFeature:
      for (int t = 0; t < pos.board.size(); ++t)
        for (int s = 0; s < static_cast<int>(pos.board.rotated(t).segments.size()); ++s)
          v.push_back(Board::Node(t, s));
      break;
    case ArgType::kFigureAt:
      for (const Figure& f : pos.figures)
        if (std::find(v.begin(), v.end(), f.node) == v.end()) v.push_back(f.node);
      break;
    case ArgType::kFigureKind:
      range(0, static_cast<int>(pos.cfg().figure_kinds.size()) - 1);
      break;
    case ArgType::kPlayer:
      range(0, static_cast<int>(pos.players.size()) - 1);
      break;
    case ArgType::kTile: {
      std::vector<TileType> held;
      if (pos.turn.drawn) held.push_back(*pos.turn.drawn);
      for (const auto& h : pos.cfg().hooks.held_tiles) h.fn(pos, held);
      for (TileType t : held)
        if (std::find(v.begin(), v.end(), t) == v.end()) v.push_back(t);
      break;
    }
    case ArgType::kSquare:  // an index into Squares(pos)
      break;
  }
  return v;
}

// kSquare: every empty square of the board's bounding box grown by one.
std::vector<Coord> Squares(const Position& pos) {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  for (int t = 0; t < pos.board.size(); ++t) {
    const Coord c = pos.board.tile(t).pos;
    x0 = std::min(x0, c.x), y0 = std::min(y0, c.y), x1 = std::max(x1, c.x), y1 = std::max(y1, c.y);
  }
  std::vector<Coord> out;
  for (int x = x0 - 1; x <= x1 + 1; ++x)
    for (int y = y0 - 1; y <= y1 + 1; ++y)
      if (!pos.board.At({x, y})) out.push_back({x, y});
  return out;
}

}  // namespace

namespace {

// Each argument's domain (a kSquare's: indices into `squares`, filled on first need).
std::vector<std::vector<int>> DeclaredDomains(const Position& pos, const ActionDecl& d,
                                              std::vector<Coord>& squares) {
  std::vector<std::vector<int>> domains(d.args.size());
  for (size_t i = 0; i < d.args.size(); ++i) {
    if (d.args[i].type == ArgType::kSquare) {
      if (squares.empty()) squares = Squares(pos);
      for (int k = 0; k < static_cast<int>(squares.size()); ++k) domains[i].push_back(k);
    } else {
      domains[i] = Domain(pos, d, static_cast<int>(i));
    }
  }
  return domains;
}

// EnumerateDeclared's walk: argument by argument, each value of its domain (an optional one's
// absence first), the arguments of another shape or without the one they need skipped.
template <class Visit>
void ForEachDeclared(const Position& pos, const Expansion* m, const ActionDecl& d, Visit&& visit) {
  const int n = static_cast<int>(d.args.size());
  std::vector<Coord> squares;
  const std::vector<std::vector<int>> domains = DeclaredDomains(pos, d, squares);
  Action a{.type = ActionType::kExpansion, .expansion = m, .code = d.code};
  std::vector<char> given(static_cast<size_t>(n), 0);
  int shape = -1;
  // By argument: it or a later one has shapes.
  std::vector<char> shapes_after(static_cast<size_t>(n) + 1, 0);
  for (int i = n - 1; i >= 0; --i) shapes_after[i] = shapes_after[i + 1] || d.args[i].shapes;
  // The first argument from j on that is not skipped (n: none): one not of the shape, or without
  // the one it needs, is passed over. The shape is set when an argument asks for it (the
  // arguments of every shape are set by then).
  const auto next = [&](int j) {
    for (; j < n; ++j) {
      const ArgDecl& arg = d.args[j];
      if (arg.shapes && shape < 0) shape = d.shape_of(a);
      const bool skip =
          (arg.shapes && !(arg.shapes >> shape & 1u)) || (arg.needs >= 0 && !given[arg.needs]);
      if (!skip) break;
    }
    return j;
  };
  // Argument i (not skipped) onwards, the ones before set in a; a lambda calling itself (a
  // module's action may have a dozen arguments, most skipped).
  const auto walk = [&](const auto& self, int i) -> void {
    if (i == n) {
      visit(static_cast<const Action&>(a));
      return;
    }
    const ArgDecl& arg = d.args[i];
    const int slot = SlotOf(d, i);
    const bool square = arg.type == ArgType::kSquare;
    // Each value starts from the arguments before i (no slot left over from a deeper one).
    const int saved_shape = shape;
    const ActionArgs saved = a.args;
    // With the shape known (or none to come below i), the argument after i that is not skipped
    // depends on whether i is given alone (the rest of `given` is the same for every value):
    // found once for each.
    const bool fixed = shape >= 0 || !shapes_after[i + 1];
    int after[2] = {-1, -1};  // by given[i]: the next argument (-1: not found yet)
    const auto each = [&](int v) {
      a.args = saved;
      given[i] = v >= 0;
      if (square) {
        a.args.Set(slot, v >= 0 ? squares[v].x : -1);
        a.args.Set(slot + 1, v >= 0 ? squares[v].y : -1);
      } else {
        a.args.Set(slot, v);
      }
      int j;
      if (fixed) {
        int& known = after[v >= 0];
        if (known < 0) known = next(i + 1);
        j = known;
      } else {
        j = next(i + 1);
      }
      self(self, j);
      shape = saved_shape;
    };
    if (arg.optional) each(-1);
    for (int v : domains[i]) each(v);
    a.args = saved;
    given[i] = false;
  };
  walk(walk, next(0));
}

}  // namespace

void EnumerateDeclared(const Position& pos, const Expansion* m, const ActionDecl& d,
                       const std::function<void(const Action&)>& visit) {
  ForEachDeclared(pos, m, d, visit);
}

}  // namespace carc::model

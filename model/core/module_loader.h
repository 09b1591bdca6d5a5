#pragma once
// The module loader (after DuckDB's ExtensionLoader): an expansion declares everything
// it adds in one `Expansion::Load(ModuleLoader&)`: its figure kinds with their traits, its steps at
// named anchors, its actions, its state slice codec, its variant table and the hooks it uses
// (callables, hooks.h). MakeConfig assembles the declarations of the enabled modules (registry
// order) into the GameConfig, whose `hooks` hold, per hook, the callables registered.

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/action.h"
#include "model/core/hooks.h"
#include "model/core/status.h"
#include "model/core/step.h"

namespace carc::model {

class Expansion;
class ExpansionState;
class Position;
struct FigureKindDef;
struct GameConfig;

// Where a declared step goes relative to its anchor (a step already in the pipeline, named).
enum class Place : uint8_t { kBefore, kAfter };

// The JSON codec of a module's slice of the Position ("expansions": {id: {...}}).
struct StateCodec {
  std::function<std::unique_ptr<ExpansionState>()> make;
  // Reads the section into pos's slice; errors name `where` (a JSON pointer).
  std::function<Status(const nlohmann::json& j, const std::string& where, Position& pos)> parse;
  std::function<void(const Position& pos, nlohmann::json& j)> dump;
};

// The type of one argument of a declared action: what its value in Action::args means, and the
// domain an enumeration of the action (the property tests' brute force) walks.
enum class ArgType : uint8_t {
  kInt,         // a plain number (a count): enumerated over [ArgDecl::lo, ArgDecl::hi]
  kEnum,        // one of the module's names (a card, a message): the index into ArgDecl::names
  kFeature,     // a segment node, written {"x", "y", "feature"}: every segment on the board
  kFigureAt,    // a segment node that holds a figure (written like kFeature): the figures' nodes
  kFigureKind,  // an index into GameConfig::figure_kinds, written by name
  kPlayer,      // a player index
  kTile,        // a tile type, written "A".."X": the tiles a player may hold (the held-tiles hook)
  kSquare,      // an empty square, two slots (x, y): the empty squares around the board
};
struct ArgDecl {
  std::string_view key;  // the JSON key it is read from ("": the object itself, e.g. x/y/feature)
  ArgType type = ArgType::kInt;
  bool optional = false;                     // absent = -1 in Action::args
  std::vector<std::string_view> names = {};  // kEnum: the JSON names, by value
  int lo = 0, hi = -1;                       // kInt: the values an enumeration tries
  int slot = -1;        // its index in Action::args; -1: its index in ActionDecl::args
  unsigned shapes = 0;  // bit s: given in shape s of the action (ActionDecl::shape_of); 0: all
  int needs = -1;       // given only together with the argument of this index in ActionDecl::args
  std::string_view alias = {};  // an older spelling of `key`, still read
};

// ArgDecl::names of an enum E with values 0..n-1, by the module's name function.
template <typename E, typename NameFn>
std::vector<std::string_view> EnumNames(int n, NameFn name) {
  std::vector<std::string_view> out;
  for (int v = 0; v < n; ++v) out.push_back(name(static_cast<E>(v)));
  return out;
}

// One action type of a module (ActionType::kExpansion with Action::code = `code`).
struct ActionDecl {
  std::string_view type;      // the JSON "type", unique across modules
  int code = 0;               // Action::code
  std::vector<ArgDecl> args;  // Action::args layout; the JSON keys besides "type"
  std::string_view summary;   // one line for listings (README, property tests)
  // Parses the object (its "type" is this one's, its keys checked against `args`).
  std::function<StatusOr<Action>(const nlohmann::json& j, const Position& pos,
                                 const std::string& where)>
      parse;
  std::function<void(const Position& pos, const Action& a, nlohmann::json& j)> dump;
  std::function<std::string(const Position& pos, const Action& a)> describe;
  // An action of several forms (e.g. a card play, one form per card family): the shape
  // (0..31) of `a` from its arguments given in every shape, which come first. Empty: one form.
  std::function<int(const Action& a)> shape_of;
  // Narrows the values argument i (index in `args`) takes when pos's actions are enumerated
  // (e.g. the cards in the players' hands): fills `values` and returns true; false: the type's
  // whole domain.
  std::function<bool(const Position& pos, int i, std::vector<int>& values)> domain;
};

// The slot of argument i of d in Action::args.
inline int SlotOf(const ActionDecl& d, int i) { return d.args[i].slot >= 0 ? d.args[i].slot : i; }

// Whether argument i of d is given in `a`: in a's shape (ArgDecl::shapes), with the argument it
// needs (ArgDecl::needs), and set (-1: absent; a required square is always given).
bool ArgGiven(const ActionDecl& d, const Action& a, int i);

// Every action of declaration d (module m) its argument domains give at pos, absent optional
// arguments included, in a fixed order; `visit` sees each (its expansion, code and args set).
// For the property tests' brute force: the candidates, not the legal ones.
void EnumerateDeclared(const Position& pos, const Expansion* m, const ActionDecl& d,
                       const std::function<void(const Action&)>& visit);

// The declaration of a module's action (null: not a module's action, or one the module reads
// and writes itself).
const ActionDecl* DeclarationOf(const Position& pos, const Action& a);

// One disputed ruling with its readings (the typed variant of the rulings database): the
// position file chooses with "expansions": {id: {"variants": {"<RULING-ID>": "<reading>"}}}.
// The core reads and writes that object for every module (ReadVariants, DumpVariants): an unknown
// ruling ID or reading exits 69 listing the readings; the module keeps the choice typed in its
// slice through `set` and `get` (an index into `readings`).
struct VariantDecl {
  std::string ruling;                 // a disputed ruling's ID (database/rulings)
  std::vector<std::string> readings;  // the names; readings[adopted] is the default
  int adopted = 0;
  std::function<void(Position& pos, int reading)> set;
  std::function<int(const Position& pos)> get;
  // The key a module once read this ruling under (a topic name): refused with exit 69 naming
  // the ruling ID to use instead. Empty: none.
  std::string retired_key;
};

// Named groups of a module's names, for tools that let a person pick them (the workbench's
// pickers): e.g. key "decks", one group per deck holding the names of its cards.
struct NameGroups {
  struct Group {
    std::string name;
    std::vector<std::string> members;
  };
  std::string key;
  std::vector<Group> groups;
};

// Everything one module declared, as the config keeps it.
struct ModuleDecl {
  const Expansion* module = nullptr;
  StateCodec state;  // empty functions: no slice
  std::vector<VariantDecl> variants;
  Hooks hooks;  // the hooks it registered
  std::vector<NameGroups> name_groups;
  // Its rules look only at the features the placed tiles touch, so a position with
  // "board_partial" is judged with it enabled (ModuleLoader::JudgesPartialBoard).
  bool judges_partial_board = false;
  // The figure kinds it declared (AddFigure), by id: resolved once, when the config is built.
  std::vector<int> figure_kinds;
};

// The "variants" object of module m's section at `where` (its JSON pointer): each key a declared
// ruling ID, each value one of its readings, set on pos's slice. Unknown ruling or reading, or a
// retired key: ErrorCode::kUnknownRules (exit 69) listing the declared readings;
// not an object or not a string: malformed (65).
Status ReadVariants(const ModuleDecl& m, const nlohmann::json& jv, const std::string& where,
                    Position& pos);
// Writes the readings that differ from the adopted one as {"<RULING-ID>": "<reading>"} into
// j["variants"] (nothing when all are adopted).
void DumpVariants(const ModuleDecl& m, const Position& pos, nlohmann::json& j);

// Fills cfg's pipeline, step owners, figure kinds, module declarations, hook lists and actions
// from the core and cfg.expansions (registry order). CARC_CHECKs what Load got wrong.
void AssembleModules(GameConfig& cfg);

// The actions of the enabled modules, for the core's action reader and writer (position_io)
// and the verdict text (rules). nullopt: no module knows the "type".
std::optional<StatusOr<Action>> ParseModuleAction(const nlohmann::json& j, const Position& pos,
                                                  const std::string& where);
// The fields of a module's action checked without the board: each is read by one of its
// arguments in some form (CheckActionShape, position_io.h). nullopt: no module knows the "type".
std::optional<Status> CheckModuleActionFields(const nlohmann::json& j, const Position& pos,
                                              const std::string& where);
void DumpModuleAction(const Position& pos, const Action& a, nlohmann::json& j);
std::string DescribeModuleAction(const Position& pos, const Action& a);

// One loader per module, handed to Expansion::Load by MakeConfig.
class ModuleLoader {
 public:
  struct Target;  // the config under assembly (module_loader.cc)
  ModuleLoader(const Expansion* module, Target& target) : module_(module), target_(target) {}

  // A figure kind (name unique; traits in FigureKindDef).
  void AddFigure(FigureKindDef def);
  // The figure kinds declared so far (the core's and earlier modules'), to ask their traits.
  const std::vector<FigureKindDef>& Figures() const;
  // A step at a named anchor; kAfter goes right after the anchor (before any step an earlier
  // module put after it), kBefore right before it (after any step put before it). The name must be
  // new in the pipeline, and the anchor present unless `optional_anchor` (then the step is left
  // out): a duplicate name or a missing anchor is a programming error, reported by MakeConfig
  // (CARC_CHECK, exit 70).
  void AddStep(std::string_view anchor, Place place, const Step* step,
               bool optional_anchor = false);
  // An action of the module's own (ActionType::kExpansion); the type must be new.
  void AddAction(ActionDecl decl);
  void SetState(StateCodec codec);
  void AddVariant(VariantDecl decl);
  // The module's rules look only at the features the placed tiles touch (no feature anywhere
  // else on the table): a position with "board_partial" may be judged with it enabled.
  void JudgesPartialBoard();
  // Groups of the module's names for pickers (NameGroups); the key must be new for the module.
  void AddNameGroups(NameGroups groups);

  // The hooks (hooks.h, where each is described), called for the enabled modules in registry
  // order; a module registers each at most once.
  void OnValidate(ValidateFn fn);
  void OnExcuse(ExcuseFn fn);
  void OnJudgeOutOfStep(JudgeOutOfStepFn fn);
  void OnInterceptAward(InterceptAwardFn fn);
  void OnAdjustMajority(AdjustMajorityFn fn);
  void OnMajorityAdjustments(MajorityAdjustmentsFn fn);
  void OnCompleted(OnCompletedFn fn);
  void OnFeatureScored(OnFeatureScoredFn fn);
  void OnBeforeFinalScoring(FinalScoringFn fn);
  void OnAfterFinalScoring(FinalScoringFn fn);
  void OnHeldTiles(HeldTilesFn fn);
  void OnConstrainPlacement(PlacementConstraint c);
  void OnTilePlaced(OnTilePlacedFn fn);
  void OnDescribeState(DescribeStateFn fn);

 private:
  const Expansion* module_;
  Target& target_;
};

}  // namespace carc::model

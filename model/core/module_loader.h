#pragma once
// The module loader (issue 20, after DuckDB's ExtensionLoader): an expansion declares everything
// it adds in one `Expansion::Load(ModuleLoader&)`: its figure kinds with their traits, its steps at
// named anchors, its actions, its state slice codec, its variant table and the hooks it uses.
// MakeConfig assembles the declarations of the enabled modules (registry order) into the
// GameConfig, which keeps, per hook, only the modules that declared it.
//
// Unmigrated modules keep working: Expansion's default Load() declares what the old imperative
// hooks (ContributeFigures, ContributeSteps, NewState/ParseState/DumpState, ParseAction, ...)
// contribute, and declares every hook used.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/action.h"
#include "model/core/status.h"
#include "model/core/step.h"

namespace carc::model {

class Expansion;
class ExpansionState;
class Position;
struct FigureKindDef;
struct GameConfig;

// The hooks of Expansion (expansion.h) a module may use. The core calls a hook only on the
// modules that declared it (GameConfig::Using).
enum class Hook : uint8_t {
  kValidate,
  kExcusesFigure,
  kJudgeOutOfStep,
  kInterceptAward,
  kAdjustMajority,
  kOnCompleted,
  kBeforeFinalScoring,
  kAfterFinalScoring,
  kHeldTiles,
  kConstrainPlacement,  // asked by the core's tile step (listing and judging a placement)
  kOnTilePlaced,        // told by the core's tile step after it placed a tile
  kCount,
};
inline constexpr size_t kHookCount = static_cast<size_t>(Hook::kCount);
std::string_view HookName(Hook h);

// Where a declared step goes relative to its anchor (a step already in the pipeline, named).
enum class Place : uint8_t { kBefore, kAfter };

// The JSON codec of a module's slice of the Position ("expansions": {id: {...}}).
struct StateCodec {
  std::function<std::unique_ptr<ExpansionState>()> make;
  // Reads the section into pos's slice; errors name `where` (a JSON pointer).
  std::function<Status(const nlohmann::json& j, const std::string& where, Position& pos)> parse;
  std::function<void(const Position& pos, nlohmann::json& j)> dump;
};

// The type of one argument of a declared action, in Action::args order.
enum class ArgType : uint8_t {
  kInt,         // a plain number (a count, an index the module defines)
  kEnum,        // one of the module's names (a card, a message): the index into `names`
  kFeature,     // a segment node, written {"x", "y", "feature"} (ParseFeatureRef)
  kFigureKind,  // an index into GameConfig::figure_kinds, written by name
  kPlayer,      // a player index, written by name
  kTile,        // a tile type, written "A".."X"
};
struct ArgDecl {
  std::string_view key;  // the JSON key it is read from
  ArgType type = ArgType::kInt;
  bool optional = false;  // absent = -1 in Action::args
};

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
};

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
  // Deprecated: the key the module read this ruling under inside "variants" before issue 20
  // (e.g. a topic name); still accepted, written out as the ruling ID. Empty: none.
  std::string old_key;
};

// Everything one module declared, as the config keeps it.
struct ModuleDecl {
  const Expansion* module = nullptr;
  StateCodec state;  // empty functions: no slice
  std::vector<VariantDecl> variants;
  std::array<bool, kHookCount> hooks{};
  bool legacy_actions = false;  // actions read by the old Expansion::ParseAction
  // "variants" left to the module's own section reader (modules not yet on the loader).
  bool legacy_variants = false;
};

// The "variants" object of module m's section at `where` (its JSON pointer): each key a declared
// ruling ID (or its deprecated old_key), each value one of its readings, set on pos's slice.
// Unknown ruling or reading: ErrorCode::kUnknownRules (exit 69) listing the declared readings;
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
  void Uses(Hook h);
  // Old modules only: steps inserted without the name check, actions read by the old
  // Expansion::ParseAction (modules not yet moved onto the loader).
  void AddLegacyStep(std::string_view anchor, Place place, const Step* step);
  void UseLegacyActions();
  void UseLegacyVariants();

 private:
  const Expansion* module_;
  Target& target_;
};

}  // namespace carc::model

#pragma once
// The card families of Christmas Present: one file per family holds, for its cards,
// the check of a play, the list of candidate plays and the effect, after gifts/cards.cc. The
// card table (play.cc, FamilyOf) sends each of the 32 kinds to its family:
//   cards_points.cc    3-points, double-road, city-plus-one, monastery-bonus (XMAS-FN3..FN6)
//   cards_figure.cc    figure-unoccupied-*, figure-occupied-* (XMAS-Q-EXTRA)
//   cards_modifier.cc  double-loop-road, 3-per-arms, 3-per-tile-no-arms (XMAS-FN7, FN9, FN10)
//   cards_lay_down.cc  lay-down-* (XMAS-FN11, FN12)
//   cards_advantage.cc advantage-road/-city/-monastery/-field (XMAS-Q-ADVANTAGE, XMAS-FN13)
//   cards_move.cc      swap-*; return-figure (XMAS-Q-RETURN)
//   cards_tiles.cc     take-two-tiles; force-placement (XMAS-Q-FORCE)
//   cards_end.cc       cancel-attack (played only as xmas_cancel) and the end cards scored by
//                      the final-scoring hooks (scoring_hooks.cc, XMAS-END)
// Checks are lean unless asked to explain: a Judge records the refusing ruling, and
// builds the texts only when the adjudicator asks for the verdict.

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/core/action.h"
#include "model/core/position.h"
#include "model/expansions/christmas_present/actions.h"
#include "model/expansions/christmas_present/logic.h"
#include "model/expansions/christmas_present/state.h"

namespace carc::exp::christmas_present {

// A non-owning reference to a callable (no allocation; the callable outlives the call).
template <typename Sig>
class FunctionRef;
template <typename R, typename... A>
class FunctionRef<R(A...)> {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
  FunctionRef(F&& f)  // NOLINT(google-explicit-constructor): passed as a lambda
      : obj_(const_cast<void*>(static_cast<const void*>(&f))), call_([](void* o, A... a) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<A>(a)...);
        }) {}
  R operator()(A... a) const { return call_(obj_, std::forward<A>(a)...); }

 private:
  void* obj_;
  R (*call_)(void*, A...);
};

// The outcome of a check. Lean (explain = false): legal or not and the refusing ruling, no text.
// Explaining: the verdict the adjudicator reports, with every reason. The texts are lambdas,
// called only when explaining.
class Judge {
 public:
  explicit Judge(bool explain) : explain_(explain) {}
  bool explain() const { return explain_; }
  // Refuses the play under `ruling`; returns false.
  template <typename Text>
  bool No(const char* ruling, Text&& text) {
    legal_ = false;
    ruling_ = ruling;
    if (explain_) verdict_ = model::Verdict::Illegal(ruling, text());
    return false;
  }
  // A reason of a legal play (kept in order); returns true.
  template <typename Text>
  bool Yes(const char* ruling, Text&& text) {
    if (explain_) verdict_.reasons.push_back({ruling, text()});
    return true;
  }
  bool legal() const { return legal_; }
  const char* ruling() const { return ruling_; }
  model::Verdict TakeVerdict() { return std::move(verdict_); }

 private:
  bool explain_;
  bool legal_ = true;
  const char* ruling_ = nullptr;
  model::Verdict verdict_;
};

using Visit = FunctionRef<bool(const Play&)>;

// How a card's play is written in Action::args after [card, player] (actions.cc).
enum class Shape : uint8_t {
  kFeature,     // [2] node (-1: none), [3] figure owner (-1: the player's own / any)
  kTwoFigures,  // [2] the player's figure node, [3] the other figure node, [4] its owner,
                //   [5], [6] the two figures' kinds (-1: not stated)
  kSquare,      // [2] opponent, [3] x, [4] y
  kTiles,       // [2], [3] the two tiles drawn (-1: the known draw order gives them)
};

struct Family {
  const char* name;
  std::vector<Card> cards;
  Shape shape = Shape::kFeature;
  // kFeature cards that name no feature (no "target" in the action).
  std::vector<Card> untargeted = {};
  // The card's own conditions on its target, after the timing checks (CheckPlay).
  bool (*check)(const model::Position& pos, const Play& p, Window w, Judge& j);
  // The candidate plays of `card` (player and card set), in a fixed order; stops (returning
  // true) as soon as `visit` returns true.
  bool (*targets)(const model::Position& pos, const Play& card, Visit visit);
  // The effect of a play that passed its check and was not cancelled (XMAS-FN8). Returns
  // whether the card goes to the discard pile now (false: it stays in play on a feature).
  bool (*resolve)(model::Position& pos, const Play& p, model::ApplyResult& r);
  // Optional: completes a play before it acts (whose figure it takes when several players'
  // figures share the segment named, which kind when its owner has several kinds there);
  // returns the input error when the file must say.
  std::string (*settle)(const model::Position& pos, Play& p) = nullptr;
};

const Family& FamilyOf(Card c);
// A kFeature card whose play names a feature ("target").
bool NamesFeature(Card c);
const Family& PointsCards();
const Family& FigureCards();
const Family& ModifierCards();
const Family& LayDownCards();
const Family& AdvantageCards();
const Family& MoveCards();
const Family& ReturnCards();
const Family& TakeTwoCards();
const Family& ForceCards();
const Family& OtherCards();

// XMAS-FN7, XMAS-FN9 / XMAS-FN10: a scoring modifier's value of the completed feature whose
// usual value is `usual` (cards_modifier.cc; paid by OnCompleted).
int ModifierValue(const State& s, Card card, const model::ScoreEvent& usual, std::string& formula);

// Helpers the family files share (logic.cc, play.cc).
namespace internal {

using model::PlayerId;
using model::Position;

std::string KindName(model::FeatureKind k);
// "(1, 0)": a square of the board, empty or not.
std::string SquareAt(model::Coord c);
int Root(const Position& pos, int node);
// A completed feature that was scored before this turn (only laid-down figures can remain).
bool CompletedEarlier(const Position& pos, int root);
bool HasOpponentFigure(const Position& pos, int root, PlayerId p);
// The first figure on `node` of `owner` (-1: any) and of kind `kind` (-1: any); -1 if none.
int FindFigure(const Position& pos, int node, int owner, int kind = -1);
// The card names a feature of its kind; refuses (its ruling) otherwise.
bool CheckKind(const Position& pos, const Play& p, Judge& j);
// Candidate targets on the board: every segment of the card's kind (`per_segment`), or one
// segment per feature.
bool FeatureTargets(const Position& pos, const Play& card, bool per_segment, Visit visit);
// The features (roots) of a kind holding a figure of player p (own) or of another player
// (!own): a condition some card checks need on every target, found once before the walk, so
// that the walk skips the other features without checking them (the plays visited and their
// order stay the same).
class FigureRoots {
 public:
  static constexpr int kFew = 64;  // roots listed at most
  FigureRoots(const Position& pos, model::FeatureKind kind, PlayerId p, bool own);
  bool empty() const { return n_ == 0 && !all_; }
  // Also true for every root when there were too many figures to list (none is skipped).
  bool Has(int root) const;
  // Every root is listed (false when there were too many: then `roots` is incomplete).
  bool listed() const { return !all_; }
  const int* begin() const { return roots_; }
  const int* end() const { return roots_ + n_; }

 private:
  int roots_[kFew];
  int n_ = 0;
  bool all_ = false;
};
// FeatureTargets (one segment per feature) restricted to the features in `roots`: the same plays
// in the same order (each feature's first segment in board order), found from the features'
// member lists instead of a walk of the whole board.
bool FeatureTargetsIn(const Position& pos, const Play& card, const FigureRoots& roots, Visit visit);
}  // namespace internal

}  // namespace carc::exp::christmas_present

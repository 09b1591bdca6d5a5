#pragma once
// EnumerateDeclared (module_loader.h) as a template (ForEachDeclared), and without visiting
// every action: how many it visits and the k-th of them in its order (DeclaredPick). The soak's
// outside-the-list check picks a few of the expansions' candidates, tens of thousands at a card
// window (issue 21). Its own header: module_loader.h is included by position.h.

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "model/core/module_loader.h"

namespace carc::model {

// The declaration of a module's action (null: not a module's action, or one the module reads
// and writes itself).
const ActionDecl* DeclarationOf(const Position& pos, const Action& a);

namespace internal {
// Each argument's domain (a kSquare's: indices into `squares`, filled on first need); shared by
// ForEachDeclared and DeclaredPick, which must walk the same values.
std::vector<std::vector<int>> DeclaredDomains(const Position& pos, const ActionDecl& d,
                                              std::vector<Coord>& squares);
}  // namespace internal

// EnumerateDeclared's walk (module_loader.h: what it visits, in its order), `visit` called
// directly: the soak's brute force visits thousands of actions per position (issue 21: through
// a std::function that was a tenth of its time). DeclaredPick below mirrors the skip rule.
template <class Visit>
void ForEachDeclared(const Position& pos, const Expansion* m, const ActionDecl& d, Visit&& visit) {
  const int n = static_cast<int>(d.args.size());
  std::vector<Coord> squares;
  const std::vector<std::vector<int>> domains = internal::DeclaredDomains(pos, d, squares);
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
    // found once for each (issue 21: the soak visits thousands of card plays per position).
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

class DeclaredPick {
 public:
  // pos, m and d must outlive the pick.
  DeclaredPick(const Position& pos, const Expansion* m, const ActionDecl& d);
  // The number of actions EnumerateDeclared(pos, m, d, ...) visits.
  int64_t Count();
  // The k-th of them (0 <= k < Count()), as EnumerateDeclared visits it.
  Action At(int64_t k);

 private:
  int64_t Sub(int i);  // actions below argument i in the current state (a_, shape_, given_)
  bool Skip(int i);    // sets the shape when argument i asks for it, as the walk does
  void Set(int i, int v);
  std::vector<int> Values(int i) const;  // the optional absence (-1) first, then the domain

  const Position& pos_;
  const ActionDecl& d_;
  int n_;
  std::vector<std::vector<int>> domains_;
  std::vector<Coord> squares_;
  std::vector<bool> shapes_after_;  // by argument: it or a later one has shapes
  Action a_;
  int shape_ = -1;
  uint32_t given_ = 0;  // bit i: argument i given
  std::map<std::tuple<int, int, uint32_t>, int64_t> memo_;
};

}  // namespace carc::model

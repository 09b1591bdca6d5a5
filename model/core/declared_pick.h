#pragma once
// EnumerateDeclared (module_loader.h) without visiting every action: how many it visits and the
// k-th of them in its order. The soak's outside-the-list check picks a few of the expansions'
// candidates, tens of thousands at a card window (issue 21). Its own header: module_loader.h is
// included by position.h.

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "model/core/module_loader.h"

namespace carc::model {

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

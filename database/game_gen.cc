#include "database/game_gen.h"

#include <algorithm>
#include <random>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::database {

using nlohmann::json;

GameRecord GenerateRecord(uint32_t seed, int players, bool phantom, int max_turns) {
  std::mt19937 rng(seed);
  const model::TileCatalog& cat = model::TileCatalog::Base();
  GameRecord r;
  r.meta = {{"generator", "random legal play"}, {"seed", seed}};
  if (phantom) r.expansions.push_back("phantom");
  for (int p = 0; p < players; ++p) r.players.push_back("P" + std::to_string(p));
  r.start = json::array({{{"tile", "D"}, {"x", 0}, {"y", 0}, {"rotation", 0}}});
  for (model::TileType t = 0; t < cat.size(); ++t)
    for (int i = 0; i < cat.def(t).count - (t == cat.start_tile() ? 1 : 0); ++i)
      r.draw_order.push_back(cat.Name(t));
  std::shuffle(r.draw_order.begin(), r.draw_order.end(), rng);
  if (max_turns > 0 && static_cast<int>(r.draw_order.size()) > max_turns)
    r.draw_order.resize(max_turns);
  auto pos = model::ParsePosition(StartPosition(r), exp::Context("generated"));
  model::ApplyResult pre;
  model::Advance(*pos, pre);
  TurnRecord turn;
  while (!pos->turn.game_over) {
    const int player = pos->turn.player;
    std::vector<model::Action> legal = model::LegalActions(*pos);
    if (legal.empty()) break;
    const model::Action& a = legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)];
    turn.actions.push_back(model::DumpAction(*pos, a));
    model::Apply(*pos, a);
    if (pos->turn.game_over || pos->turn.player != player) {
      std::vector<int> scores;
      for (const auto& p : pos->players) scores.push_back(p.score);
      turn.scores = scores;
      r.turns.push_back(std::move(turn));
      turn = TurnRecord();
    }
  }
  std::vector<int> final_scores;
  for (const auto& p : pos->players) final_scores.push_back(p.score);
  r.final_scores = final_scores;
  return r;
}

}  // namespace carc::database

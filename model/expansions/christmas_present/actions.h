#pragma once
// Christmas Present actions (ActionType::kExpansion): their codes, arguments and JSON form.
//   {"type": "xmas_draw_card", "deck": "road", "card": "swap-city"}       draw the top card
//   {"type": "xmas_play", "card": "double-road", "target": {"x", "y", "feature"}, ...}
//   {"type": "xmas_cancel", "player": 1} / {"type": "xmas_allow", "player": 1}   (XMAS-FN8)
//   {"type": "xmas_discard", "card": "3-points"}                          (XMAS-HAND)
//   {"type": "xmas_keep_tile", "tile": "U"}                 (XMAS-CARD-TAKE-TWO-TILES)
// A pass ({"type": "pass"}) declines the decision of the current Christmas Present step.

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "model/core/action.h"
#include "model/core/position.h"
#include "model/core/status.h"
#include "model/expansions/christmas_present/cards.h"

namespace carc::exp::christmas_present {

enum Code : int { kDrawCard = 1, kPlay, kCancel, kAllow, kDiscard, kKeepTile };

// Argument layout of kPlay: args[0] card, args[1] player, then per card:
//   feature cards: [2] node, [3] figure owner (-1: the player's own / any)
//   swap cards: [2] the player's figure node, [3] the other figure node, [4] its owner (-1 any)
//   force-placement: [2] opponent, [3] x, [4] y
//   take-two-tiles: [2], [3] the two tiles drawn (-1: the known draw order gives them)
struct Play {
  Card card = Card::k3Points;
  model::PlayerId player = 0;
  int node = -1;
  int owner = -1;
  int other_node = -1;
  int other_owner = -1;
  model::PlayerId opponent = -1;
  model::Coord square;
  model::TileType tile1 = -1, tile2 = -1;
};
Play DecodePlay(const model::Action& a);
model::Action EncodePlay(const Play& p);

model::Action MakeAction(int code, std::vector<int> args);

std::optional<model::StatusOr<model::Action>> ParseXmasAction(const nlohmann::json& j,
                                                              const model::Position& pos,
                                                              const std::string& where);
void DumpXmasAction(const model::Position& pos, const model::Action& a, nlohmann::json& j);
std::string DescribeXmasAction(const model::Position& pos, const model::Action& a);

}  // namespace carc::exp::christmas_present

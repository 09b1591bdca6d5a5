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

// The arguments (declared in christmas_present.cc, read and written through these slots):
//   kDrawCard: kDeckArg, kDrawnArg (-1: not named)     kCancel, kAllow: kAnswerArg
//   kDiscard: kCardArg, kPlayerArg                      kKeepTile: kTileArg
//   kPlay: kCardArg, kPlayerArg, then per card family (family.h Shape), as Play:
//     feature cards: kNodeArg (-1: none), kOwnerArg (figure owner; -1: the player's own / any);
//       return-figure: kFigureKindArg (the figure's kind; -1: the only kind the owner has there)
//     swap cards: kNodeArg the player's figure, kOtherNodeArg the other one, kOtherOwnerArg (-1),
//       kOwnFigureArg, kOtherFigureArg (the two figures' kinds; -1: the only kind its owner has
//       there)
//     force-placement: kOpponentArg, kSquareXArg, kSquareYArg
//     take-two-tiles: kTile1Arg, kTile2Arg (-1: the known draw order gives them)
inline constexpr model::ActionArg<Deck> kDeckArg{0};
inline constexpr model::ActionArg<Card> kDrawnArg{1};
inline constexpr model::ActionArg<model::PlayerId> kAnswerArg{0};
inline constexpr model::ActionArg<model::TileType> kTileArg{0};
inline constexpr model::ActionArg<Card> kCardArg{0};
inline constexpr model::ActionArg<model::PlayerId> kPlayerArg{1};
inline constexpr model::ActionArg<int> kNodeArg{2};
inline constexpr model::ActionArg<model::PlayerId> kOwnerArg{3};
inline constexpr model::ActionArg<int> kFigureKindArg{4};
inline constexpr model::ActionArg<int> kOtherNodeArg{3};
inline constexpr model::ActionArg<model::PlayerId> kOtherOwnerArg{4};
inline constexpr model::ActionArg<int> kOwnFigureArg{5};
inline constexpr model::ActionArg<int> kOtherFigureArg{6};
inline constexpr model::ActionArg<model::PlayerId> kOpponentArg{2};
inline constexpr model::ActionArg<int> kSquareXArg{3};
inline constexpr model::ActionArg<int> kSquareYArg{4};
inline constexpr model::ActionArg<model::TileType> kTile1Arg{2};
inline constexpr model::ActionArg<model::TileType> kTile2Arg{3};

struct Play {
  Card card = Card::k3Points;
  model::PlayerId player = 0;
  int node = -1;
  int owner = -1;
  // The kind of the figure on `node` (-1: not stated): return-figure's, a swap's own figure.
  int figure_kind = -1;
  int other_node = -1;
  int other_owner = -1;
  int other_kind = -1;  // a swap: the kind of the figure on `other_node` (-1: not stated)
  model::PlayerId opponent = -1;
  model::Coord square;
  model::TileType tile1 = -1, tile2 = -1;
};
Play DecodePlay(const model::Action& a);
model::Action EncodePlay(const Play& p);

model::Action MakeAction(int code, model::ActionArgs args);

std::optional<model::StatusOr<model::Action>> ParseXmasAction(const nlohmann::json& j,
                                                              const model::Position& pos,
                                                              const std::string& where);
void DumpXmasAction(const model::Position& pos, const model::Action& a, nlohmann::json& j);
std::string DescribeXmasAction(const model::Position& pos, const model::Action& a);

}  // namespace carc::exp::christmas_present

#pragma once
// Corruption kinds of the expansions' own state and figures (rows of
// each module's ModuleProps, module_props.cc).

#include <nlohmann/json.hpp>
#include <optional>
#include <random>

#include "model/core/position.h"
#include "property-tests/gen_corruption.h"

namespace carc::prop {

// The Phantom: its phantom on the segment a meeple stands on (BASE-MEEPLE-FREE).
std::optional<Corruption> PhantomOnMeeple(const model::Position& pos, const nlohmann::json& j,
                                          std::mt19937_64& rng);
// The Messengers (MSG-CHOOSE, MSG-RESOLVE).
std::optional<Corruption> TracksOffScore(const model::Position& pos, const nlohmann::json& j,
                                         std::mt19937_64& rng);
std::optional<Corruption> MessageInHandOutsideStep(const model::Position& pos,
                                                   const nlohmann::json& j, std::mt19937_64& rng);
// The Gifts (GIFT-SETUP).
std::optional<Corruption> GiftCardCount(const model::Position& pos, const nlohmann::json& j,
                                        std::mt19937_64& rng);
// Christmas Present (XMAS-SETUP, XMAS-HAND).
std::optional<Corruption> XmasThirdCopy(const model::Position& pos, const nlohmann::json& j,
                                        std::mt19937_64& rng);
std::optional<Corruption> XmasHandOverLimit(const model::Position& pos, const nlohmann::json& j,
                                            std::mt19937_64& rng);

}  // namespace carc::prop

#pragma once
// Which feature a score difference comes from. A "scores differ" finding first cites the score
// events of the players whose scores differ; when those events cite different rulings (a farm
// and a city both paid the player), the finding is narrowed to the feature(s) whose value
// differs: from the engine's own per-feature score events when it answers them (PROTOCOL.md),
// else by asking the engine again with each candidate feature's figures taken back, and keeping
// the features whose removal changes the difference.

#include <functional>
#include <nlohmann/json.hpp>

#include "adjudicator/conform/compare.h"

namespace carc::adjudicator::conform {

// Asks the engine one request (without id); error: the engine failed.
using EngineAsk = std::function<model::StatusOr<nlohmann::json>(const nlohmann::json& request)>;

// Narrows `f` (category kScores, of query `q`, engine answer `eng`) to the rulings of the score
// events that explain the difference; f.rulings is left as it is when nothing narrower is found.
// Sets f.attributed to how it was found ("single event", "engine events", "recomputed").
model::Status AttributeScores(const Query& q, const nlohmann::json& eng, Finding& f,
                              const EngineAsk& ask);

// Whether the query is one the reference can ask (the position reads, validates and waits for a
// decision; an apply's action is still a move).
bool ValidQuery(const Query& q);

}  // namespace carc::adjudicator::conform

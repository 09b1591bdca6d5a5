#pragma once
// What a ruling's picture highlights, as data the page can draw on its own editable board: the
// square in question, each feature scored in the ruling (numbered as the caption numbers the
// score events) or named by an illegal action, with every segment of it on every tile and the
// figures standing on it, and the incomplete cities a scored farm leaves out. The features are
// found the way model/render's RenderRuling finds them (the same model calls on the same
// position), so the board and the picture mark the same things.

#include <nlohmann/json.hpp>
#include <string>

#include "model/core/status.h"

namespace carc::serve {

// {"square": {"x", "y", "illegal"} | null,
//  "features": [{"mark": "scored"|"disputed", "kind", "labels": [n...],
//                "segments": [{"x", "y", "segment", "feature"}],
//                "figures": [{"x", "y", "feature", "owner", "owner_name", "kind"}]}],
//  "crossed": [{"segments": [...]}]}
// A position that cannot arise, or a question not replayed, gives no features.
model::StatusOr<nlohmann::json> RulingHighlights(const nlohmann::json& doc,
                                                 const nlohmann::json& ruling,
                                                 const std::string& source);

}  // namespace carc::serve

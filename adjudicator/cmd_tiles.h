#pragma once
// The tile sheet of `carc tiles` (cmd_authoring.cc registers the command): every base tile, its
// edges and the exact name of each feature at each rotation, as text, JSON or one SVG sheet
// with the names written on the features. Names are those of position files
// (adjudicator/POSITION_FORMAT.md) and come from the model's own FeatureName.

#include <nlohmann/json.hpp>
#include <string>

namespace carc::adjudicator {

std::string TileSheetText();
nlohmann::json TileSheetJson();
std::string TileSheetSvg();

}  // namespace carc::adjudicator

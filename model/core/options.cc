#include "model/core/options.h"

namespace carc::model {

std::string_view EditionName(Edition e) {
  switch (e) {
    case Edition::kC1:
      return "C1";
    case Edition::kC2:
      return "C2";
    case Edition::kC3:
      return "C3";
  }
  return "?";
}

std::optional<Edition> ParseEdition(std::string_view s) {
  if (s == "C1") return Edition::kC1;
  if (s == "C2") return Edition::kC2;
  if (s == "C3") return Edition::kC3;
  return std::nullopt;
}

std::string_view CityScoringName(CityScoring c) {
  return c == CityScoring::kStandard ? "standard" : "c1-two-tile-city";
}

std::optional<CityScoring> ParseCityScoring(std::string_view s) {
  if (s == "standard") return CityScoring::kStandard;
  if (s == "c1-two-tile-city") return CityScoring::kC1TwoTileCity;
  return std::nullopt;
}

std::string_view FarmScoringName(FarmScoring f) {
  switch (f) {
    case FarmScoring::kPerFarm:
      return "per-farm";
    case FarmScoring::kC1FourPerCity:
      return "c1-four-per-city";
    case FarmScoring::kC1ThreePerCityOnce:
      return "c1-three-per-city-once";
  }
  return "?";
}

std::optional<FarmScoring> ParseFarmScoring(std::string_view s) {
  if (s == "per-farm") return FarmScoring::kPerFarm;
  if (s == "c1-four-per-city") return FarmScoring::kC1FourPerCity;
  if (s == "c1-three-per-city-once") return FarmScoring::kC1ThreePerCityOnce;
  return std::nullopt;
}

}  // namespace carc::model

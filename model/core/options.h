#pragma once
// Typed rule options: editions and the variants the rulings name. Never strings inside the model;
// position_io maps the documented spellings to these values.

#include <optional>
#include <string_view>

namespace carc::model {

enum class Edition { kC1, kC2, kC3 };

// BASE-SCORE-CITY: C1 printings before 2002 scored a completed two-tile city 1/tile + 1/arms.
enum class CityScoring { kStandard, kC1TwoTileCity };

// BASE-END-FARM: C2/C3 score each farm 3 per completed city touched; C1 had two older rules.
enum class FarmScoring {
  kPerFarm,             // "per-farm": 3 per completed city, per farm (current)
  kC1FourPerCity,       // "c1-four-per-city": each city 4 to the majority of all farms touching it
  kC1ThreePerCityOnce,  // "c1-three-per-city-once": 3 per city per farm, each city once per player
};

struct RuleOptions {
  Edition edition = Edition::kC3;
  CityScoring city_scoring = CityScoring::kStandard;
  FarmScoring farm_scoring = FarmScoring::kPerFarm;
  // Every option: two rule sets are equal when all their options are.
  friend bool operator==(const RuleOptions&, const RuleOptions&) = default;
};

std::string_view EditionName(Edition e);
std::optional<Edition> ParseEdition(std::string_view s);
std::string_view CityScoringName(CityScoring c);
std::optional<CityScoring> ParseCityScoring(std::string_view s);
std::string_view FarmScoringName(FarmScoring f);
std::optional<FarmScoring> ParseFarmScoring(std::string_view s);

}  // namespace carc::model

// libFuzzer target: bytes -> one answer line of an engine under `carc conform`
// (conform::ParseAnswer), then every read the checker makes of an answer: hello's fields, the
// legal list read action by action, the scores and the resulting position. A wrong type must
// be a Status (74), never an exception.
#include <cstddef>
#include <cstdint>
#include <string>

#include "adjudicator/conform/process.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "property-tests/fuzz/fuzz_util.h"

using nlohmann::json;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const json request = {{"id", 0}, {"cmd", "apply"}};
  static const carc::model::Position start = [] {
    json doc = json::parse(R"({"rules": {"edition": "C3", "expansions": ["phantom"],
        "options": {"farm_scoring": "per-farm"}}, "players": [{"name": "A"}, {"name": "B"}],
        "board": [{"tile": "D", "x": 0, "y": 0}], "supply": {"draw_order": ["V"]},
        "turn": {"player": 0, "step": "place_tile", "tile": "U"}})");
    return *carc::model::ParsePosition(doc, carc::exp::Context("start"));
  }();
  auto a = carc::adjudicator::conform::ParseAnswer(
      std::string(reinterpret_cast<const char*>(data), size), request, "fuzz");
  if (!a.ok()) return 0;
  const json& j = *a;
  // hello (checker.cc): ok, protocol, expansions, deviations, name.
  (void)j.value("ok", false);
  (void)(j.value("protocol", 0) == 1);
  for (const json& e : j.value("expansions", json::array())) (void)e.get<std::string>();
  for (const json& d : j.value("deviations", json::array()))
    (void)(d.value("ruling", "") + d.value("reason", ""));
  (void)j.value("name", std::string("?"));
  (void)j.value("error", std::string("?"));
  (void)j.value("legal", false);
  for (const json& r : j.value("rulings", json::array())) (void)r.get<std::string>();
  (void)(j.value("scores", json()) == json::array({0, 0}));
  const json actions = j.value("actions", json());
  if (actions.is_array())
    for (const json& x : actions) (void)carc::model::ParseAction(x, start, "/actions", carc::exp::Context("engine"));
  (void)carc::model::ParsePosition(j.value("position", json()), carc::exp::Context("engine"));
  return 0;
}

// libFuzzer target: bytes -> a game record (database/GAME_RECORD_FORMAT.md) ->
// ParseGameRecord, the replay with its log, the dump and the hash `games import` stores.
#include <cstddef>
#include <cstdint>

#include "database/game_record.h"
#include "database/replay.h"
#include "property-tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto doc = carc::fuzz::ReadLikeAFile(data, size, "fuzz.game.json");
  if (!doc) return 0;
  auto rec = carc::database::ParseGameRecord(*doc, "fuzz.game.json");
  if (!rec.ok()) return 0;
  carc::fuzz::PrintLikeTheCli(carc::database::DumpGameRecord(*rec));
  (void)carc::database::RecordHash(*rec);
  (void)carc::database::Replay(*rec, "fuzz.game.json", /*with_log=*/true);
  return 0;
}

// libFuzzer target: bytes -> a JCloisterZone record (.jcz) -> `games import`'s reader
// (JczToRecord, then the replay and the record's dump) and `games check-jcz` (CheckJcz, from a
// file as the CLI reads it). Short position arrays used to read out of bounds.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "adjudicator/jcz.h"
#include "database/jcz_record.h"
#include "database/replay.h"
#include "property-tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string file = "/tmp/carc-jcz-fuzz-" + std::to_string(getpid()) + ".jcz";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  auto rep = carc::adjudicator::CheckJcz(file);
  std::remove(file.c_str());  // no file left behind in /tmp
  if (rep.ok()) carc::fuzz::PrintLikeTheCli(carc::adjudicator::JczReportJson(*rep));
  auto doc = carc::fuzz::ReadLikeAFile(data, size, "fuzz.jcz");
  if (!doc) return 0;
  auto rec = carc::database::JczToRecord(*doc, "fuzz.jcz");
  if (!rec.ok()) return 0;
  carc::fuzz::PrintLikeTheCli(carc::database::DumpGameRecord(*rec));
  (void)carc::database::Replay(*rec, "fuzz.jcz", /*with_log=*/true);
  return 0;
}

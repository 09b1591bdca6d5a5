#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits. Used to key game records
// (canonical JSON) and adjudicated inputs (file bytes); no cryptographic use.

#include <string>
#include <string_view>

namespace carc::database {

std::string Sha256Hex(std::string_view data);

}  // namespace carc::database

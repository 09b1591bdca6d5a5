#pragma once
// Exit codes of `carc` (README "Exit codes"). Verdicts take small codes, errors sysexits.h.

namespace carc::adjudicator {

inline constexpr int kExitUpheld = 0;      // ruling: claim upheld / action legal
inline constexpr int kExitRejected = 1;    // ruling: claim rejected / action illegal
inline constexpr int kExitImpossible = 2;  // ruling: position cannot arise under the rules
inline constexpr int kExitUsage = 64;
inline constexpr int kExitMalformed = 65;
inline constexpr int kExitNoInput = 66;
inline constexpr int kExitUnknownRules = 69;
inline constexpr int kExitInternal = 70;
inline constexpr int kExitIo = 74;

}  // namespace carc::adjudicator

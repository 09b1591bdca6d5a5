#pragma once
// The model version recorded with every stored verdict (CMake: PROJECT_VERSION).

#ifndef CARC_MODEL_VERSION
#define CARC_MODEL_VERSION "carc-reference (unknown version)"
#endif

namespace carc::database {
inline constexpr const char* kModelVersion = CARC_MODEL_VERSION;
}  // namespace carc::database

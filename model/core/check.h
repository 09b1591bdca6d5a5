#pragma once
// CARC_CHECK: programmer errors only (exit 70). User input never reaches one: Validate() first.

#include <cstdio>
#include <cstdlib>

#define CARC_CHECK(cond)                                                                    \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      std::fprintf(stderr, "internal error: %s:%d: check failed: %s\n", __FILE__, __LINE__, \
                   #cond);                                                                  \
      std::exit(70);                                                                        \
    }                                                                                       \
  } while (0)

#ifdef NDEBUG
#define CARC_DCHECK(cond) \
  do {                    \
  } while (0)
#else
#define CARC_DCHECK(cond) CARC_CHECK(cond)
#endif

#!/bin/sh
# The module boundaries (run by ctest): every expansion is reached through the core's declared
# queries and hooks, never by its headers or its id from another module, and the adjudicator
# reaches them through the registry. Prints each crossing found; exit 1 if any.
# usage: boundary_test.sh SOURCE_DIR
src=$1
found=0
cd "$src/model/expansions" || exit 2
for d in */; do
  d=${d%/}
  # Another expansion's headers included.
  if grep -rnE '#include "model/expansions/[a-z_]+/' "$d" --include=*.h --include=*.cc \
      --exclude=*_test.cc | grep -v "model/expansions/$d/"; then found=1; fi
  # Another module looked up by its id.
  if grep -rn 'FindExpansion("' "$d" --include=*.h --include=*.cc --exclude=*_test.cc; then
    found=1
  fi
done
# The adjudicator: the registry only. Two known crossings wait for a declared query:
# conform/engine.cc reads a Messengers score cause (its seal mutant), and serve/modules_api.cc
# reads Christmas Present's card table for the decks' pickers (which card is in which deck).
if grep -rnE '#include "model/expansions/[a-z_]+/' "$src/adjudicator" --include=*.h --include=*.cc \
    --exclude=*_test.cc --exclude=engine.cc --exclude=modules_api.cc; then found=1; fi
exit $found

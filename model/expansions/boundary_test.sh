#!/bin/sh
# The module boundaries (run by ctest): every expansion is reached through the core's declared
# queries and hooks, never by its headers or its id from another module; pictures (model/render)
# and the adjudicator reach them through the registry. Prints each crossing found; exit 1 if any.
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
# Pictures and the adjudicator: no module's headers, no module looked up by its id. Two
# crossings still wait for a declared query: model/render/expansion_art.cc draws Gifts,
# Christmas Present and Messengers from their sections (a "describe your state for a picture"
# hook), and adjudicator/serve/modules_api.cc reads Christmas Present's card table for the
# decks' pickers.
for dir in "$src/model/render" "$src/adjudicator"; do
  if grep -rnE '#include "model/expansions/[a-z_]+/|FindExpansion\("' "$dir" --include=*.h \
      --include=*.cc --exclude=*_test.cc --exclude=expansion_art.cc --exclude=modules_api.cc; then
    found=1
  fi
done
exit $found

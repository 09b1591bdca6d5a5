#!/bin/sh
# The module boundaries (run by ctest): every expansion is reached through the core's declared
# queries and hooks, never by its headers, its namespace or its id from another module; pictures
# (model/render) and the adjudicator reach the modules only through the registry and those
# queries and hooks. Prints each crossing found; exit 1 if any. Tests (*_test.cc) are exempt: a
# module's tests may build positions with other modules.
# usage: boundary_test.sh SOURCE_DIR
src=$1
found=0
cd "$src/model/expansions" || exit 2
ids=$(for d in */; do printf '%s\n' "${d%/}"; done)
# Lines of the C++ files under $1 (tests excepted) that match the extended regex $2.
crossings() {
  grep -rnE "$2" "$1" --include=*.h --include=*.cc --exclude=*_test.cc
}
for d in $ids; do
  for other in $ids; do
    [ "$other" = "$d" ] && continue
    # Another module's headers, namespace or id (as a string or looked up).
    if crossings "$d" "#include \"model/expansions/$other/|exp::$other::|\"$other\""; then
      found=1
    fi
  done
  if crossings "$d" 'FindExpansion\("'; then found=1; fi
done
# Pictures and the adjudicator: no module's headers or namespace, no module named by its id.
for dir in "$src/model/render" "$src/adjudicator"; do
  if crossings "$dir" '#include "model/expansions/[a-z_]+/|FindExpansion\("'; then found=1; fi
  for id in $ids; do
    if crossings "$dir" "exp::$id::|\"$id\""; then found=1; fi
  done
done
exit $found

#!/bin/sh
# ctest database.cli_default_db: `carc db build` says where it wrote, and `carc rulings search`
# without --db then works from any other folder. The file is --db, else $CARC_DB,
# else $XDG_DATA_HOME/carc/carc.db, else ~/.local/share/carc/carc.db. Usage: $0 path/to/carc
set -eu
carc=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset CARC_DB || true
export XDG_DATA_HOME="$tmp/data"
mkdir "$tmp/a" "$tmp/b"

cd "$tmp/a"
out=$("$carc" db build --format text)
echo "$out"
case "$out" in
  "wrote $tmp/data/carc/carc.db: schema"*) ;;
  *) echo "FAIL: db build did not say it wrote $tmp/data/carc/carc.db"; exit 1 ;;
esac

cd "$tmp/b"
hits=$("$carc" rulings search "who scores a city when two players tie" --limit 3 --format text)
echo "$hits"
echo "$hits" | grep -q '^BASE-MAJORITY ' || { echo "FAIL: BASE-MAJORITY not in the top 3"; exit 1; }
# Matched words are the question's own words, never its stop words.
if echo "$hits" | grep 'matched:' | grep -qwE 'who|a|when'; then
  echo "FAIL: a stop word is listed as matched"; exit 1
fi
echo "$hits" | grep -q 'stop words left out: who, a, when' || { echo "FAIL: stop words not named"; exit 1; }
test -z "$(find "$tmp/a" "$tmp/b" -mindepth 1)" || { echo "FAIL: a file was written in the working folder"; exit 1; }

# $CARC_DB comes before the XDG default, --db before $CARC_DB.
set +e
CARC_DB="$tmp/none.db" "$carc" rulings search farmer >/dev/null 2>"$tmp/err"
code=$?
set -e
test "$code" = 74 || { echo "FAIL: CARC_DB of a missing file gave exit $code, not 74"; exit 1; }
grep -q "$tmp/none.db" "$tmp/err" || { echo "FAIL: the message does not name \$CARC_DB"; exit 1; }
CARC_DB="$tmp/none.db" "$carc" rulings search farmer --db "$tmp/data/carc/carc.db" >/dev/null
echo "ok"

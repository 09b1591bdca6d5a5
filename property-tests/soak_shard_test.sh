#!/bin/sh
# a soak sharded 4 ways and merged into the database equals the unsharded run with the
# same seed (same games, same rows, same summary). Usage: soak_shard_test.sh path/to/carc
set -eu
CARC=$1
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
RUN="--games 8 --seed 5"

# shellcheck disable=SC2086
"$CARC" fuzz $RUN --report "$DIR/all.json" --out "$DIR/cex.json" 2>"$DIR/all.err" >/dev/null
for k in 1 2 3 4; do
  # shellcheck disable=SC2086
  "$CARC" fuzz $RUN --shard "$k/4" --report "$DIR/s$k.json" --out "$DIR/cex$k.json" \
    2>/dev/null >/dev/null
done

# Shard 2/4 plays games 1 and 5 of the run (n % 4 == 1), and only those.
count() { grep -o '"game":[0-9]*' "$1" | wc -l; }
[ "$(count "$DIR/s2.json")" -eq 2 ] || { echo "shard 2/4 did not play 2 games"; exit 1; }
grep -q '"game":1,' "$DIR/s2.json" && grep -q '"game":5,' "$DIR/s2.json" ||
  { echo "shard 2/4 did not play games 1 and 5"; exit 1; }
[ "$(count "$DIR/all.json")" -eq 8 ] || { echo "the unsharded run did not play 8 games"; exit 1; }

"$CARC" fuzz merge --db "$DIR/one.db" "$DIR/all.json" >"$DIR/one.txt"
"$CARC" fuzz merge --db "$DIR/four.db" "$DIR/s1.json" "$DIR/s2.json" "$DIR/s3.json" \
  "$DIR/s4.json" >"$DIR/four.txt"
cmp "$DIR/one.txt" "$DIR/four.txt" || { echo "merged summaries differ"; exit 1; }
grep -q '"games": 8' "$DIR/four.txt" || { echo "the merged run has not 8 games"; exit 1; }
# Every decision is at some step: the per-step visits add up to the decisions.
grep -q '"place_tile"' "$DIR/four.txt" || { echo "no place_tile visits reported"; exit 1; }
Q="SELECT run, game, expansions, players, decisions, scores, failure, steps FROM soak_games ORDER BY run, game"
sqlite3 "$DIR/one.db" "$Q" >"$DIR/one.rows"
sqlite3 "$DIR/four.db" "$Q" >"$DIR/four.rows"
cmp "$DIR/one.rows" "$DIR/four.rows" || { echo "merged rows differ"; exit 1; }
[ "$(wc -l <"$DIR/four.rows")" -eq 8 ] || { echo "not 8 rows"; exit 1; }
# Merging a shard again replaces its rows (still 8 games).
"$CARC" fuzz merge --db "$DIR/four.db" "$DIR/s3.json" >"$DIR/again.txt"
[ "$(sqlite3 "$DIR/four.db" 'SELECT count(*) FROM soak_games')" -eq 8 ] ||
  { echo "merging again duplicated rows"; exit 1; }

# A shard that is not K/N with 1 <= K <= N is a usage error (64).
set +e
"$CARC" fuzz --games 1 --shard 5/4 >/dev/null 2>&1
[ $? -eq 64 ] || { echo "--shard 5/4 not refused with 64"; exit 1; }
"$CARC" fuzz --games 1 --shard x >/dev/null 2>&1
[ $? -eq 64 ] || { echo "--shard x not refused with 64"; exit 1; }
echo "4 shards merged equal the unsharded run"

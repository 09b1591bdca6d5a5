#!/bin/sh
# A conformance run sharded 4 ways and merged into the database equals the unsharded
# run (same queries, same rows, same merged summary), and its counts are the unsharded report's.
# Usage: shard_test.sh path/to/carc path/to/source-checkout
set -eu
CARC=$1
SRC=$2
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
# A small suite: the base-game fixtures and 16 random positions. The mutant also scores farms
# for incomplete cities (against BASE-END-FARM), so there are disagreements to merge.
mkdir -p "$DIR/root/fixtures"
cp -r "$SRC/fixtures/base" "$DIR/root/fixtures/"
MUTANT="$CARC engine --mutant farm-incomplete-cities"
PYENGINE="python3 $SRC/adjudicator/conform/examples/base_engine.py"

# conform ENGINE SEED ARGS...: exit 0 (agree) or 1 (disagreements); 74 etc. fail the test.
conform() {
  engine=$1
  seed=$2
  shift 2
  set +e
  "$CARC" conform --engine "$engine" --root "$DIR/root" --random 16 --seed "$seed" \
    --no-progress --format json "$@" >"$DIR/out.json" 2>"$DIR/err"
  rc=$?
  set -e
  [ "$rc" -le 1 ] || { echo "conform $*: exit $rc"; cat "$DIR/err"; exit 1; }
}
conform "$MUTANT" 3 --report "$DIR/all.json"
for k in 1 2 3 4; do conform "$MUTANT" 3 --shard "$k/4" --report "$DIR/s$k.json"; done

# Shard K/4 holds exactly the queries i with i % 4 == K - 1; together every query once.
python3 - "$DIR" <<'PY'
import json, sys
d = sys.argv[1]
full = json.load(open(f"{d}/all.json"))
total = full["run"]["cases"]
assert full["shard"] == {"k": 1, "n": 1}, full["shard"]
assert [c["case"] for c in full["cases"]] == list(range(total)), "unsharded run misses queries"
seen = []
for k in range(1, 5):
    s = json.load(open(f"{d}/s{k}.json"))
    assert s["run"] == full["run"], f"shard {k} names another run: {s['run']}"
    assert s["shard"] == {"k": k, "n": 4}
    idx = [c["case"] for c in s["cases"]]
    assert idx == list(range(k - 1, total, 4)), f"shard {k}/4 checked {idx[:8]}..."
    assert s["summary"]["queries"] == len(idx)
    seen += idx
assert sorted(seen) == list(range(total))
PY

"$CARC" conform merge --db "$DIR/one.db" "$DIR/all.json" >"$DIR/one.txt"
"$CARC" conform merge --db "$DIR/four.db" "$DIR/s1.json" "$DIR/s2.json" "$DIR/s3.json" \
  "$DIR/s4.json" >"$DIR/four.txt"
cmp "$DIR/one.txt" "$DIR/four.txt" || { echo "merged summaries differ"; exit 1; }
Q="SELECT run, query, kind, source, expansions, skipped, findings FROM conform_queries ORDER BY run, query"
sqlite3 "$DIR/one.db" "$Q" >"$DIR/one.rows"
sqlite3 "$DIR/four.db" "$Q" >"$DIR/four.rows"
cmp "$DIR/one.rows" "$DIR/four.rows" || { echo "merged rows differ"; exit 1; }

# The merged summary counts what the unsharded report counts: queries checked, disagreeing
# queries (some: the mutant is caught), per expansion, and findings over all groups.
python3 - "$DIR" <<'PY'
import json, sys
d = sys.argv[1]
full = json.load(open(f"{d}/all.json"))
merged = json.load(open(f"{d}/four.txt"))
assert len(merged) == 1, list(merged)
m = next(iter(merged.values()))
s = full["summary"]
assert m["engine"] == full["engine"] and m["cases"] == full["run"]["cases"]
assert m["merged"] == m["cases"] and m["missing"] == 0
for key in ("checked", "skipped", "disagreeing_queries", "per_expansion"):
    assert m[key] == s[key], (key, m[key], s[key])
assert m["disagreeing_queries"] > 0, "the mutant was not caught"
assert sum(g["count"] for g in m["groups"]) == sum(g["count"] for g in full["groups"])
assert all("BASE-END-FARM" in g["rulings"] for g in m["groups"]), m["groups"]
PY

# Merging a shard again replaces its rows: same rows, same summary.
"$CARC" conform merge --db "$DIR/four.db" "$DIR/s3.json" "$DIR/s1.json" "$DIR/s2.json" \
  "$DIR/s4.json" >"$DIR/again.txt"
cmp "$DIR/four.txt" "$DIR/again.txt" || { echo "merging again changed the summary"; exit 1; }
sqlite3 "$DIR/four.db" "$Q" >"$DIR/again.rows"
cmp "$DIR/four.rows" "$DIR/again.rows" || { echo "merging again changed the rows"; exit 1; }

# Another run (seed 4: other random positions) is kept apart: its own summary, and the seed-3
# run's summary is unchanged after it.
conform "$MUTANT" 4 --shard 1/2 --report "$DIR/other.json"
"$CARC" conform merge --db "$DIR/four.db" "$DIR/other.json" >"$DIR/other.txt"
grep -q 'seed=4 ' "$DIR/other.txt" && ! grep -q 'seed=3 ' "$DIR/other.txt" ||
  { echo "the seed-4 report was not merged as its own run"; exit 1; }
grep -q '"missing": [1-9]' "$DIR/other.txt" || { echo "half a run is not reported missing"; exit 1; }
"$CARC" conform merge --db "$DIR/four.db" "$DIR/s2.json" >"$DIR/after.txt"
cmp "$DIR/four.txt" "$DIR/after.txt" || { echo "runs mixed"; exit 1; }

# Skipped queries merge too: the example engine plays the base game in edition C2/C3 only.
conform "$PYENGINE" 3 --report "$DIR/py.json"
conform "$PYENGINE" 3 --shard 1/2 --report "$DIR/py1.json"
conform "$PYENGINE" 3 --shard 2/2 --report "$DIR/py2.json"
"$CARC" conform merge --db "$DIR/py-one.db" "$DIR/py.json" >"$DIR/py-one.txt"
"$CARC" conform merge --db "$DIR/py-two.db" "$DIR/py1.json" "$DIR/py2.json" >"$DIR/py-two.txt"
cmp "$DIR/py-one.txt" "$DIR/py-two.txt" || { echo "merged summaries differ (example engine)"; exit 1; }
python3 - "$DIR" <<'PY'
import json, sys
d = sys.argv[1]
s = json.load(open(f"{d}/py.json"))["summary"]
m = next(iter(json.load(open(f"{d}/py-two.txt")).values()))
assert m["skipped"] > 0 and m["skipped_because"] == s["skipped_because"], (m, s)
assert m["checked"] == s["checked"] and m["disagreeing_queries"] == 0
PY

# Bad input: a shard that is not K/N with 1 <= K <= N is a usage error (64); a file that is not
# a conform --report (the printed report has no per-query records) or whose queries are not its
# shard's is malformed (65).
set +e
"$CARC" conform --engine "$MUTANT" --shard 5/4 >/dev/null 2>&1
[ $? -eq 64 ] || { echo "--shard 5/4 not refused with 64"; exit 1; }
"$CARC" conform --engine "$MUTANT" --shard x >/dev/null 2>&1
[ $? -eq 64 ] || { echo "--shard x not refused with 64"; exit 1; }
# --shard slices an engine run only: with --jcz or for an export it is refused, not ignored.
"$CARC" conform --jcz "$DIR/none.jcz" --shard 2/4 >/dev/null 2>&1
[ $? -eq 64 ] || { echo "--shard with --jcz not refused with 64"; exit 1; }
"$CARC" conform --shard 2/4 export "$DIR/export" >/dev/null 2>&1
[ $? -eq 64 ] || { echo "--shard with export not refused with 64"; exit 1; }
[ ! -e "$DIR/export" ] || { echo "a refused export wrote $DIR/export"; exit 1; }
"$CARC" conform merge --db "$DIR/bad.db" "$DIR/out.json" >/dev/null 2>&1
[ $? -eq 65 ] || { echo "a printed report (no queries) not refused with 65"; exit 1; }
sed 's/"k":2,"n":4/"k":3,"n":4/' "$DIR/s2.json" >"$DIR/wrong.json"
"$CARC" conform merge --db "$DIR/bad.db" "$DIR/wrong.json" >/dev/null 2>"$DIR/err"
[ $? -eq 65 ] && grep -q 'does not belong to shard 3/4' "$DIR/err" ||
  { echo "queries of another shard not refused with 65"; exit 1; }
echo "4 shards merged equal the unsharded run"

#!/bin/sh
# past one machine: a soak sharded with GNU parallel, on local job slots and over
# --sshlogin hosts, merged into the database, equals the unsharded run with the same seed.
# There is no second machine here: parallel's --ssh is property-tests/fake_ssh.sh, which runs
# each command locally in a home folder per host name, so parallel's remote path (a --workdir on
# each host, the reports brought back with --return over rsync, --cleanup) runs for real.
# Usage: parallel_shard_test.sh path/to/carc path/to/fake_ssh.sh
set -eu
CARC=$1
FAKE_SSH=$2
for tool in parallel rsync sqlite3; do
  command -v "$tool" >/dev/null || { echo "$tool is missing (apt-get install $tool)"; exit 1; }
done
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
export HOME="$DIR/home"  # parallel keeps its state in ~/.parallel
mkdir -p "$HOME" "$DIR/one" "$DIR/local" "$DIR/ssh"
RUN="--games 8 --seed 11"
Q="SELECT run, game, expansions, players, decisions, scores, failure, steps FROM soak_games ORDER BY run, game"
fail() { echo "$*"; exit 1; }

# The unsharded run.
# shellcheck disable=SC2086
"$CARC" fuzz $RUN --report "$DIR/one/all.json" --out "$DIR/one/cex.json" >/dev/null 2>&1
"$CARC" fuzz merge --db "$DIR/one/one.db" "$DIR/one/all.json" >"$DIR/one/summary.txt"
sqlite3 "$DIR/one/one.db" "$Q" >"$DIR/one/rows"
[ "$(wc -l <"$DIR/one/rows")" -eq 8 ] || fail "the unsharded run did not store 8 games"

same_as_unsharded() {  # $1: folder with shard1.json..shard4.json
  "$CARC" fuzz merge --db "$1/merged.db" "$1"/shard1.json "$1"/shard2.json "$1"/shard3.json \
    "$1"/shard4.json >"$1/summary.txt"
  cmp "$DIR/one/summary.txt" "$1/summary.txt" || fail "$1: merged summary differs"
  sqlite3 "$1/merged.db" "$Q" >"$1/rows"
  cmp "$DIR/one/rows" "$1/rows" || fail "$1: merged rows differ"
}

# Local job slots: 4 shards, 2 at a time.
(cd "$DIR/local" &&
  parallel --will-cite -j2 --halt now,fail=1 \
    "$CARC" fuzz $RUN --shard {}/4 --report shard{}.json --out cex{}.json ::: 1 2 3 4 \
    >/dev/null 2>"$DIR/local/parallel.err") || { cat "$DIR/local/parallel.err"; fail "local shards failed"; }
same_as_unsharded "$DIR/local"

# Two "hosts" over --sshlogin and this machine (`:`), one job slot each. --workdir . runs each
# job in the same folder relative to the home folder (here $HOME/soak, on a host
# $FAKE_SSH_ROOT/HOST/soak); the reports come back and --cleanup removes them from the hosts.
export FAKE_SSH_ROOT="$DIR/hosts"
mkdir -p "$FAKE_SSH_ROOT" "$HOME/soak"
(cd "$HOME/soak" &&
  parallel --will-cite --ssh "$FAKE_SSH" --sshlogin 1/club1,1/club2,1/: --halt now,fail=1 \
    --workdir . --return shard{}.json --cleanup \
    "$CARC" fuzz $RUN --shard {}/4 --report shard{}.json --out cex{}.json ::: 1 2 3 4 \
    >/dev/null 2>"$DIR/parallel-ssh.err") || { cat "$DIR/parallel-ssh.err"; fail "ssh shards failed"; }
# Each host wrote at least one report in its own folder and it was brought back from there
# (rsync through fake_ssh.sh); the hosts' copies were removed.
returned() { grep -c "^$1 cd ./soak/.*rsync --server --sender .* ./shard[1-4].json$" "$FAKE_SSH_ROOT/log" || true; }
c1=$(returned club1) c2=$(returned club2)
[ "$c1" -ge 1 ] && [ "$c2" -ge 1 ] || fail "reports brought back: club1 $c1, club2 $c2"
for h in club1 club2; do
  ls "$FAKE_SSH_ROOT/$h/soak/"shard*.json >/dev/null 2>&1 && fail "--cleanup left a report on $h"
done
# Every report is back on this machine: a return that failed (rsync says why in
# parallel-ssh.err) is named here, not left to the merge.
for k in 1 2 3 4; do
  [ -f "$HOME/soak/shard$k.json" ] || {
    cat "$DIR/parallel-ssh.err"
    grep -v ' exec perl ' "$FAKE_SSH_ROOT/log"
    fail "shard$k.json did not come back from its host"
  }
done
mv "$HOME/soak/"shard*.json "$DIR/ssh/"
same_as_unsharded "$DIR/ssh"
echo "4 shards through GNU parallel (local slots; 2 ssh hosts) merged equal the unsharded run"

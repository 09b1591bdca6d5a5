#!/bin/sh
# A stand-in for ssh, for testing GNU parallel's --sshlogin path on one machine:
# `parallel --ssh property-tests/fake_ssh.sh --sshlogin 2/club1,2/club2 ...` calls it as
# ssh would be called: [options] HOST [--] COMMAND... It runs COMMAND locally with bash, as the
# login shell of HOST would, in a fresh environment and a home folder of HOST's own
# ($FAKE_SSH_ROOT/HOST, created on first use), so that each "host" has its own --workdir and
# parallel's transfers (rsync -e fake_ssh.sh) really copy files between folders. Each call is
# logged to $FAKE_SSH_ROOT/log.
set -eu
: "${FAKE_SSH_ROOT:?set FAKE_SSH_ROOT to a folder for the hosts' home folders}"
while [ $# -gt 0 ]; do
  case $1 in
    -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;  # ssh options that take an argument
    --) shift; break ;;
    -*) shift ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "fake_ssh.sh: no host" >&2; exit 255; }
host=${1#*@}  # user@host: the host's name only
shift
[ "${1-}" = -- ] && shift
case $host in
  */* | . | .. | '') echo "fake_ssh.sh: bad host name $host" >&2; exit 255 ;;
esac
home=$FAKE_SSH_ROOT/$host
mkdir -p "$home"
printf '%s %s\n' "$host" "$*" >>"$FAKE_SSH_ROOT/log"
cd "$home"
# As sshd would: a fresh environment, nothing of the caller's. And no start-up files (BASH_ENV,
# bashrc: bash reads them when its stdin is a socket, as rsync's is): one that prints would corrupt
# rsync's protocol stream, and parallel's --return fails silently before --cleanup.
exec env -i HOME="$home" PATH="$PATH" SHELL=/bin/bash LOGNAME="${LOGNAME:-fake}" \
  USER="${USER:-fake}" TMPDIR="${TMPDIR:-/tmp}" /bin/bash --norc --noprofile -c "$*"

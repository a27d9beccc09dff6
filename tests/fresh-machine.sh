#!/usr/bin/env bash
# fresh-machine.sh: runs the README's Quick start on a fresh Debian 12 root.
#
#   tests/fresh-machine.sh [OPTIONS]     (as root; about 25 minutes on 2 cores)
#
# Builds a new Debian 12 (bookworm) root with debootstrap (the base is
# downloaded once and cached in /var/cache/gst-session-fresh/, keyed by
# suite, variant, architecture and mirror; every run unpacks it into a NEW
# root), gives it the host's apt sources (same mirror, bookworm-updates and
# bookworm-security: the same package versions as the host), clones this
# repository at HEAD into /root/gst-session inside it (committed work only:
# uncommitted changes are NOT included), and runs, with chroot, as root:
#
#   1. ./pipelines/record-world.sh   then checks the MP4 it printed with
#                                    gst-discoverer-1.0 (or ffprobe) and a
#                                    full decode: a video stream, >= 8 s
#   2. ./tests/run                   must end with "N passed, 0 failed"
#
# Nothing is preinstalled in the root: tests/deps.sh (sourced by both
# commands) installs the packages itself, which is what is being tested.
# Exits 0 only when both pass, and prints a summary: the failed step and
# the last lines of its output, or PASS with the recording's duration and
# size and the test line. Each step's full output is logged under
# /var/tmp/gst-session-fresh/<timestamp>/.
#
# Options:
#   --only-record      run only step 1 (3 to 8 minutes once the base is cached)
#   --ref REV          clone this commit instead of HEAD (this script is the
#                      working tree's, whatever REV is)
#   --deps FILE        replace tests/deps.sh in the clone with FILE (e.g. a
#                      list with a package removed: the run must fail)
#   --keep             keep the root (unmounted) for inspection
#   --variant V        debootstrap variant: default (the default: required
#                      and important packages, like a fresh install or cloud
#                      image without extras) or minbase (like a container)
#   --mirror URL       the Debian mirror (default: the host's, from
#                      /etc/apt/sources.list{,.d/*.sources,.d/*.list})
#   --log-dir DIR      where the logs go
#   --apt-cache        keep the downloaded .debs between runs (copied in and
#                      out of the root, never mounted); apt still checks them
#   --refresh-base     download the base again (also done when > 30 days old)
#   -h, --help         this text
#
# The root shares the host's network (services bind to 127.0.0.1 only). It
# lives under /var/tmp/gst-session-fresh/ and is removed at the end, after
# /proc, /sys, /dev, /dev/pts and /dev/shm are unmounted; the mounts are
# made in a private mount namespace, so they never outlive the script, and
# the root is never deleted while anything is mounted inside it.

set -u
set -o pipefail

SUITE=bookworm
CACHE=/var/cache/gst-session-fresh
WORK=/var/tmp/gst-session-fresh
T_BASE=30m      # download the base (first run only)
T_UNPACK=20m    # unpack and configure the base
T_CLONE=5m
T_RECORD=20m    # record-world.sh, apt installs and the build included
T_CHECK=5m
T_TESTS=60m     # tests/run (it reuses the build of step 1)
MIN_DURATION_MS=$(( ${FRESH_MIN_SECONDS:-8} * 1000 ))   # FRESH_MIN_SECONDS=N to change

usage () { sed -n '2,/^$/{s/^# \{0,1\}//;p}' "$0"; }

ARGS=("$@")
ONLY_RECORD= REF=HEAD DEPS= KEEP= VARIANT=default MIRROR= LOGDIR= APT_CACHE=
REFRESH=
while [ $# -gt 0 ]; do
  case $1 in
    --only-record) ONLY_RECORD=1 ;;
    --ref) REF=${2:?--ref needs a revision}; shift ;;
    --deps) DEPS=${2:?--deps needs a file}; shift ;;
    --keep) KEEP=1 ;;
    --variant) VARIANT=${2:?--variant needs a name}; shift ;;
    --mirror) MIRROR=${2:?--mirror needs a URL}; shift ;;
    --log-dir) LOGDIR=${2:?--log-dir needs a directory}; shift ;;
    --apt-cache) APT_CACHE=1 ;;
    --refresh-base) REFRESH=1 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option: $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case $VARIANT in
  default|minbase) ;;
  *) echo "--variant: default or minbase" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || { echo "fresh-machine.sh: run as root (debootstrap, chroot, mount)" >&2; exit 2; }
if [ -n "$DEPS" ]; then
  [ -f "$DEPS" ] || { echo "--deps: no such file: $DEPS" >&2; exit 2; }
  DEPS=$(readlink -f "$DEPS")
fi

# Everything below runs in a private mount namespace: the root's mounts are
# invisible to the host and disappear with this process, whatever happens.
if [ -z "${GST_FRESH_MACHINE_NS:-}" ]; then
  export GST_FRESH_MACHINE_NS=1
  if unshare --mount --propagation private true 2>/dev/null; then
    exec unshare --mount --propagation private -- "$BASH" "$0" "${ARGS[@]}"
  fi
  echo "warning: unshare failed; mounting in the host's namespace" >&2
  GST_FRESH_MACHINE_NS=host
fi

SRC=$(cd "$(dirname "$0")" && git rev-parse --show-toplevel 2>/dev/null) \
  || { echo "fresh-machine.sh: not inside a git checkout" >&2; exit 2; }
TS=$(date +%Y%m%d-%H%M%S)
LOGDIR=${LOGDIR:-$WORK/$TS}
mkdir -p "$LOGDIR" "$CACHE" "$WORK" || exit 2
LOGDIR=$(readlink -f "$LOGDIR")
ROOT=
MAIN_LOG=$LOGDIR/fresh-machine.log
: >"$MAIN_LOG"

note () { echo "$*" | tee -a "$MAIN_LOG"; }
ts () { date +%H:%M:%S; }

# ---------------------------------------------------------------- state
declare -A STEP_TIME=() STEP_STATE=()
STEPS=(base clone record check tests)
FAILED_STEP= FAILED_WHY= FAILED_LOG=
TEST_LINE= REC_INFO= VERSIONS= INTERRUPTED= CUR_PID= CUR_STEP= CUR_T0=
UNCOMMITTED= SHA= SUBJECT= BASE_INFO= CLEANUP_PROBLEM=

fail () {  # fail STEP WHY [LOG]: records the first failure
  [ -n "$FAILED_STEP" ] && return 0
  FAILED_STEP=$1 FAILED_WHY=$2 FAILED_LOG=${3:-}
  STEP_STATE[$1]=FAIL
}

# run_step NAME LIMIT CMD...: runs CMD under timeout, all output to
# $LOGDIR/NAME.log; in the background so that Ctrl-C is handled at once
run_step () {
  local name=$1 limit=$2 rc t0=$SECONDS
  shift 2
  note "[$(ts)] $name: running (limit $limit), log: $LOGDIR/$name.log"
  CUR_STEP=$name CUR_T0=$t0
  timeout --kill-after=30s "$limit" "$@" >>"$LOGDIR/$name.log" 2>&1 </dev/null &
  CUR_PID=$!
  wait "$CUR_PID"
  rc=$?
  CUR_PID= CUR_STEP=
  STEP_TIME[$name]=$(( ${STEP_TIME[$name]:-0} + SECONDS - t0 ))
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    echo "fresh-machine.sh: timed out after $limit" >>"$LOGDIR/$name.log"
  fi
  note "[$(ts)] $name: finished in $(( SECONDS - t0 )) s, status $rc"
  return $rc
}

CHROOT_ENV=(env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
  TERM=dumb LANG=C.UTF-8)
for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
  [ -n "${!v:-}" ] && CHROOT_ENV+=("$v=${!v}")
done
# in_root 'COMMAND': runs a shell command as root in the root, clean env
in_root () { chroot "$ROOT" "${CHROOT_ENV[@]}" /bin/bash -c "$1"; }

# ---------------------------------------------------------------- mounts
mounts_under () {  # the mount points at or under $1, deepest first (optionally of task $2)
  local dir=$1
  findmnt -rn -o TARGET ${2:+--task "$2"} 2>/dev/null \
    | awk -v d="$dir" '$0 == d || index($0, d "/") == 1' | sort -r
}

mount_root () {
  local r=$ROOT
  # the root a mount point of its own, as / is on a machine: `ip netns
  # exec` (the net suite) remounts / (`mount --make-rslave /`), which
  # fails with "Invalid argument" when / is only a directory
  mount --bind "$r" "$r" || return 1
  mount --make-private "$r" || return 1
  mount -t proc proc "$r/proc" || return 1
  mount -t sysfs sysfs "$r/sys" || return 1
  mount --bind /dev "$r/dev" || return 1
  # never let a mount below the bound /dev propagate back to the host's
  mount --make-private "$r/dev" || return 1
  mount --bind /dev/pts "$r/dev/pts" || return 1
  mount -t tmpfs -o mode=1777,nosuid,nodev shm "$r/dev/shm" || return 1
}

root_pids () {  # processes whose root directory is the root
  local p r
  for p in /proc/[0-9]*; do
    r=$(readlink "$p/root" 2>/dev/null) || continue
    [ "$r" = "$ROOT" ] && echo "${p#/proc/}"
  done
}

stop_root_processes () {
  local pids i
  pids=$(root_pids)
  [ -z "$pids" ] && return 0
  note "stopping processes left in the root: $(echo $pids)"
  kill -TERM $pids 2>/dev/null
  for i in 1 2 3 4 5 6 7 8 9 10; do
    sleep 0.5
    pids=$(root_pids)
    [ -z "$pids" ] && return 0
  done
  kill -KILL $pids 2>/dev/null
  sleep 1
}

umount_root () {
  local m left
  [ -n "$ROOT" ] && [ -d "$ROOT" ] || return 0
  stop_root_processes
  for m in $(mounts_under "$ROOT"); do
    umount "$m" 2>/dev/null || { sleep 1; umount "$m" 2>/dev/null; } \
      || umount -l "$m" 2>/dev/null \
      || note "could not unmount $m"
  done
  left=$(mounts_under "$ROOT")
  [ -z "$left" ] || { note "still mounted: $left"; return 1; }
}

# remove_tree DIR: rm -rf, only when nothing is mounted under DIR (in this
# namespace or the host's) and no process has its root there
remove_tree () {
  local dir=$1 m
  case $dir in
    "$WORK"/*) ;;
    *) note "refusing to remove $dir: not under $WORK"; return 1 ;;
  esac
  [ -d "$dir" ] || return 0
  m="$(mounts_under "$dir")$(mounts_under "$dir" 1)"
  for sub in proc sys dev dev/pts dev/shm; do
    mountpoint -q "$dir/$sub" 2>/dev/null && m="$m $dir/$sub"
  done
  if [ -n "$m" ]; then
    note "REFUSING to remove $dir: still mounted: $(echo $m)"
    return 1
  fi
  if [ "$dir" = "$ROOT" ] && [ -n "$(root_pids)" ]; then
    note "REFUSING to remove $dir: processes still run in it: $(echo $(root_pids))"
    return 1
  fi
  rm -rf --one-file-system -- "$dir"
}

# ---------------------------------------------------------------- summary
tail_of () {  # tail_of LOG: the last lines of a step's output, indented
  [ -f "$1" ] || return 0
  echo "  last lines of $1:"
  tail -n "${2:-25}" "$1" | sed 's/^/    | /'
}

summary () {
  local s steps="" st
  for s in "${STEPS[@]}"; do
    st=${STEP_STATE[$s]:-not run}
    steps="$steps $s ${st}${STEP_TIME[$s]:+ ${STEP_TIME[$s]} s} ·"
  done
  steps=${steps% ·}
  echo
  echo "================ fresh Debian 12 machine: Quick start ================"
  echo "checkout: $SRC at ${SHA:0:12}${SUBJECT:+ ($SUBJECT)}"
  [ -n "$UNCOMMITTED" ] && echo "          NOT included (uncommitted):$UNCOMMITTED"
  [ -n "$DEPS" ] && echo "          tests/deps.sh replaced by $DEPS"
  echo "base:     $BASE_INFO"
  [ -n "$VERSIONS" ] && echo "packages: $VERSIONS"
  echo "steps:   $steps"
  if [ -n "$INTERRUPTED" ]; then
    echo "result:   INTERRUPTED ($INTERRUPTED) during ${FAILED_STEP:-setup}"
    [ -n "$FAILED_LOG" ] && tail_of "$FAILED_LOG" 8
  elif [ -n "$FAILED_STEP" ]; then
    echo "result:   FAIL at step '$FAILED_STEP': $FAILED_WHY"
    [ "$FAILED_STEP" = check ] && tail_of "$LOGDIR/record.log" 12
    [ -n "$FAILED_LOG" ] && tail_of "$FAILED_LOG"
  else
    echo "result:   PASS"
  fi
  [ -n "$REC_INFO" ] && echo "recording: $REC_INFO"
  [ -n "$TEST_LINE" ] && echo "tests:    $TEST_LINE"
  if [ -n "$KEEP" ] && [ -n "$ROOT" ] && [ -d "$ROOT" ]; then
    echo "root:     kept at $ROOT (unmounted; mount /proc, /sys, /dev before chroot)"
  fi
  [ -n "$CLEANUP_PROBLEM" ] && echo "cleanup:  $CLEANUP_PROBLEM"
  echo "logs:     $LOGDIR/"
  echo "====================================================================="
}

# ---------------------------------------------------------------- exit
on_signal () {
  INTERRUPTED=$1
  trap '' INT TERM HUP
  if [ -n "$CUR_PID" ]; then
    kill -TERM "$CUR_PID" 2>/dev/null
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      kill -0 "$CUR_PID" 2>/dev/null || break
      sleep 0.5
    done
    kill -KILL "$CUR_PID" 2>/dev/null
  fi
  for s in "${STEPS[@]}"; do
    if [ "${STEP_STATE[$s]:-}" = running ]; then
      FAILED_STEP=$s STEP_STATE[$s]=interrupted
      [ -f "$LOGDIR/$s.log" ] && FAILED_LOG=$LOGDIR/$s.log
    fi
  done
  [ -n "$CUR_STEP" ] && STEP_TIME[$CUR_STEP]=$(( ${STEP_TIME[$CUR_STEP]:-0} + SECONDS - CUR_T0 ))
  exit 130
}

cleanup () {
  local rc=$?
  trap '' INT TERM HUP
  if [ -n "$ROOT" ] && [ -d "$ROOT" ]; then
    umount_root || { rc=1; CLEANUP_PROBLEM="could not unmount everything in $ROOT"; }
    if [ -n "$APT_CACHE" ] && [ -d "$ROOT/var/cache/apt/archives" ]; then
      mkdir -p "$CACHE/apt-archives"
      find "$ROOT/var/cache/apt/archives" -maxdepth 1 -name '*.deb' \
        -exec cp -n -t "$CACHE/apt-archives" {} + 2>/dev/null
    fi
    if [ -z "$KEEP" ]; then
      remove_tree "$ROOT" \
        || { rc=1; CLEANUP_PROBLEM="$ROOT NOT removed (see $MAIN_LOG)"; }
    fi
  fi
  summary 2>&1 | tee -a "$MAIN_LOG"
  exit $rc
}
trap cleanup EXIT
trap 'on_signal SIGINT' INT
trap 'on_signal SIGTERM' TERM
trap 'on_signal SIGHUP' HUP

# ---------------------------------------------------------------- host side
find_mirror () {
  # the first URI serving the suite itself (not -updates, not -security),
  # from one-line sources and deb822 .sources
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk -v s="$SUITE" '$1 == "deb" {
        i = 2
        if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
        if ($(i + 1) == s && $i !~ /security/) { print $i; exit }
      }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v s="$SUITE" 'BEGIN { RS = ""; FS = "\n" }
      {
        types = ""; uris = ""; suites = ""; enabled = "yes"; key = ""
        for (i = 1; i <= NF; i++) {
          line = $i
          if (line ~ /^#/) continue
          if (line ~ /^[^ \t]/) {
            key = tolower(line); sub(/:.*/, "", key); sub(/^[^:]*:[ \t]*/, "", line)
          } else sub(/^[ \t]+/, "", line)
          if (key == "types") types = types " " line
          else if (key == "uris") uris = uris " " line
          else if (key == "suites") suites = suites " " line
          else if (key == "enabled") enabled = tolower(line)
        }
        if (enabled == "no" || (types " ") !~ / deb /) next
        split(uris, us, /[ \t]+/)      # us[1] is empty: uris starts with a blank
        n = split(suites, ss, /[ \t]+/)
        for (j = 1; j <= n; j++)
          if (ss[j] == s && us[2] !~ /security/) { print us[2]; exit }
      }' "$f"
  done
}

ARCH=$(dpkg --print-architecture 2>/dev/null || echo amd64)
if [ -z "$MIRROR" ]; then
  MIRROR=$(find_mirror | head -n 1)
  [ -n "$MIRROR" ] || { MIRROR=http://deb.debian.org/debian; note "no $SUITE source on the host: using $MIRROR"; }
fi
MIRROR=${MIRROR%/}

for tool in git findmnt mountpoint chroot timeout; do
  command -v $tool >/dev/null || { note "missing on the host: $tool"; exit 2; }
done
if ! command -v debootstrap >/dev/null; then
  note "[$(ts)] installing debootstrap on the host"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >>"$LOGDIR/base.log" 2>&1 \
    || { apt-get update -qq >>"$LOGDIR/base.log" 2>&1 \
         && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >>"$LOGDIR/base.log" 2>&1; } \
    || { fail base "could not install debootstrap" "$LOGDIR/base.log"; exit 1; }
fi

# the checkout to test: a commit, never the working tree
SHA=$(git -C "$SRC" rev-parse --verify -q "$REF^{commit}") \
  || { note "--ref: no such commit: $REF"; exit 2; }
SUBJECT=$(git -C "$SRC" log -1 --format=%s "$SHA" | cut -c1-72)
if [ "$REF" = HEAD ]; then
  UNCOMMITTED=$(git -C "$SRC" status --porcelain --untracked-files=no | awk '{printf " %s", $NF}')
fi
note "fresh-machine: testing $SRC at $SHA ($SUBJECT)"
if [ -n "$UNCOMMITTED" ]; then
  note "note: uncommitted changes are NOT included (the clone is of commit ${SHA:0:12}):$UNCOMMITTED"
fi
note "logs: $LOGDIR/"

# ---------------------------------------------------------------- 1. base
VOPT=()
[ "$VARIANT" = default ] || VOPT=(--variant="$VARIANT")
KEY="$SUITE-$VARIANT-$ARCH-$(echo "$MIRROR" | sed 's#^[a-z]*://##; s#[^A-Za-z0-9.-]#_#g')"
TARBALL=$CACHE/$KEY.tgz
STEP_STATE[base]=running
if [ -s "$TARBALL" ] && [ -z "$REFRESH" ] && [ -z "$(find "$TARBALL" -mtime +30)" ]; then
  BASE_INFO="debootstrap $SUITE, variant $VARIANT, $MIRROR (cached $(date -r "$TARBALL" +%F), $TARBALL)"
else
  BASE_INFO="debootstrap $SUITE, variant $VARIANT, $MIRROR (downloaded now into $TARBALL)"
  tmpdir=$(mktemp -d "$WORK/make-tarball.XXXXXX")
  tmptar=$CACHE/.tmp-$$-$KEY.tgz
  if run_step base "$T_BASE" debootstrap "${VOPT[@]}" --arch="$ARCH" \
      --make-tarball="$tmptar" "$SUITE" "$tmpdir" "$MIRROR"; then
    mv -f "$tmptar" "$TARBALL"
  else
    rm -f "$tmptar"
    remove_tree "$tmpdir"
    fail base "debootstrap --make-tarball failed" "$LOGDIR/base.log"
    exit 1
  fi
  remove_tree "$tmpdir"
fi
note "base: $BASE_INFO"

ROOT=$WORK/root-$TS-$$
mkdir "$ROOT" || { ROOT=; fail base "cannot create a new root"; exit 1; }
if ! run_step base "$T_UNPACK" debootstrap "${VOPT[@]}" --arch="$ARCH" \
    --unpack-tarball="$TARBALL" "$SUITE" "$ROOT" "$MIRROR"; then
  fail base "debootstrap --unpack-tarball failed" "$LOGDIR/base.log"
  exit 1
fi

# the host's apt sources for this suite (same mirror, -updates, -security)
rm -f "$ROOT/etc/apt/sources.list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  if grep -Eq "^[^#]*[[:space:]:]$SUITE(-[a-z]+)?([[:space:]]|$)" "$f"; then
    cp "$f" "$ROOT$f"
    note "apt source copied into the root: $f"
    for k in $(grep -Eoi 'signed-by(=|:[[:space:]]*)[^][:space:]]+' "$f" | sed -E 's/^[^=:]*(=|:[[:space:]]*)//'); do
      if [ -f "$k" ] && [ ! -e "$ROOT$k" ]; then
        mkdir -p "$ROOT$(dirname "$k")" && cp "$k" "$ROOT$k"
      fi
    done
  else
    note "apt source not copied (no $SUITE suite): $f"
  fi
done
if [ -z "$(find "$ROOT/etc/apt" -maxdepth 2 \( -name sources.list -o -name '*.list' -o -name '*.sources' \) -type f)" ]; then
  note "no apt source of the host names $SUITE: using $MIRROR $SUITE and $SUITE-updates"
  printf 'deb %s %s main\ndeb %s %s-updates main\n' "$MIRROR" "$SUITE" "$MIRROR" "$SUITE" \
    >"$ROOT/etc/apt/sources.list"
fi
# how the host reaches its mirror (proxies, snapshot dates): the same here
apt-config dump 2>/dev/null \
  | grep -E '^Acquire::((https?|ftp)::Proxy|Check-Valid-Until|Check-Date)' \
  >"$ROOT/etc/apt/apt.conf.d/99fresh-machine-host" || rm -f "$ROOT/etc/apt/apt.conf.d/99fresh-machine-host"
[ -f "$ROOT/etc/apt/apt.conf.d/99fresh-machine-host" ] \
  && note "apt settings of the host copied: $(tr '\n' ' ' <"$ROOT/etc/apt/apt.conf.d/99fresh-machine-host")"
# what an installed system has and debootstrap does not write
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null
[ -s "$ROOT/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$ROOT/etc/hosts"
# the root shares the host's network: packages must not start daemons
# (nginx on port 80) in it, as usual for a chroot
printf '#!/bin/sh\n# fresh-machine.sh: no daemons started by packages in this chroot\nexit 101\n' \
  >"$ROOT/usr/sbin/policy-rc.d"
chmod 755 "$ROOT/usr/sbin/policy-rc.d"
if [ -n "$APT_CACHE" ] && [ -d "$CACHE/apt-archives" ]; then
  find "$CACHE/apt-archives" -maxdepth 1 -name '*.deb' \
    -exec cp -n -t "$ROOT/var/cache/apt/archives" {} + 2>/dev/null
  note "apt cache: $(ls "$ROOT/var/cache/apt/archives" | grep -c '\.deb$') .debs copied in"
fi
chroot "$ROOT" dpkg-query -W -f='${Package}\n' >"$LOGDIR/packages-base.txt" 2>/dev/null
BASE_INFO="$BASE_INFO; $(wc -l <"$LOGDIR/packages-base.txt") packages"
STEP_STATE[base]=ok

# ---------------------------------------------------------------- 2. clone
STEP_STATE[clone]=running
DEST=/root/gst-session
clone () {
  git clone --quiet --no-hardlinks --no-checkout "$SRC" "$ROOT$DEST" || return 1
  git -C "$ROOT$DEST" checkout --quiet --detach "$SHA" 2>/dev/null \
    || { git -C "$ROOT$DEST" fetch --quiet origin "$SHA" \
         && git -C "$ROOT$DEST" checkout --quiet --detach "$SHA"; } || return 1
  git -C "$ROOT$DEST" log -1 --format='cloned %H %s'
}
export -f clone
export SRC ROOT DEST SHA
if ! run_step clone "$T_CLONE" bash -c clone; then
  fail clone "git clone of $SRC failed" "$LOGDIR/clone.log"
  exit 1
fi
if [ -n "$DEPS" ]; then
  diff -u "$ROOT$DEST/tests/deps.sh" "$DEPS" >"$LOGDIR/deps.diff"
  cp "$DEPS" "$ROOT$DEST/tests/deps.sh"
  note "tests/deps.sh replaced by $DEPS ($(grep -c '^[-+][^-+]' "$LOGDIR/deps.diff") changed lines, $LOGDIR/deps.diff):"
  grep '^[-+][^-+]' "$LOGDIR/deps.diff" | sed 's/^/    /' | tee -a "$MAIN_LOG"
fi
STEP_STATE[clone]=ok

mount_root || { fail base "mounting /proc, /sys, /dev in the root failed"; exit 1; }

# ---------------------------------------------------------------- 3. record
STEP_STATE[record]=running
run_step record "$T_RECORD" chroot "$ROOT" "${CHROOT_ENV[@]}" /bin/bash -c \
  "cd $DEST && exec ./pipelines/record-world.sh"
rc=$?
grep -E '^installing:' "$LOGDIR/record.log" | head -n 1 | cut -c1-300 | sed 's/^/record: /' | tee -a "$MAIN_LOG"
REC=$(grep -E '^/[^ ]+\.mp4$' "$LOGDIR/record.log" | tail -n 1)
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
  fail record "record-world.sh timed out after $T_RECORD" "$LOGDIR/record.log"
elif [ $rc -ne 0 ]; then
  fail record "record-world.sh exited with status $rc" "$LOGDIR/record.log"
elif [ -z "$REC" ]; then
  fail record "record-world.sh printed no MP4 path" "$LOGDIR/record.log"
elif [ ! -f "$ROOT$REC" ]; then
  fail record "record-world.sh printed $REC, which does not exist" "$LOGDIR/record.log"
else
  STEP_STATE[record]=ok
fi

VERSIONS=$(in_root "dpkg-query -W -f='\${Package} \${Version}\n' libgstreamer1.0-0 gstreamer1.0-plugins-base gstreamer1.0-plugins-bad 2>/dev/null" \
  | awk '{printf "%s%s %s", sep, $1, $2; sep=", "}')
host_v=$(dpkg-query -W -f='${Version}' libgstreamer1.0-0 2>/dev/null)
[ -n "$VERSIONS" ] && [ -n "$host_v" ] && VERSIONS="$VERSIONS (host libgstreamer1.0-0 $host_v)"

# ---------------------------------------------------------------- 4. check
# the recording must be playable: a video stream, at least 8 s, decodable
to_ms () { awk -F: 'NF == 3 { printf "%d\n", ($1 * 3600 + $2 * 60 + $3) * 1000 }'; }
check_recording () {
  local clog=$LOGDIR/check.log dur="" ms=0 video="" size frames="" dims="" why="" errs=0
  size=$(stat -c %s "$ROOT$REC")
  echo "== $REC: $size bytes" >>"$clog"
  if in_root "command -v gst-discoverer-1.0" >/dev/null 2>&1; then
    echo "== gst-discoverer-1.0 $REC" >>"$clog"
    run_step check "$T_CHECK" chroot "$ROOT" "${CHROOT_ENV[@]}" gst-discoverer-1.0 "$REC"
    dur=$(sed -n 's/^ *Duration: *\([0-9:.]*\).*/\1/p' "$clog" | head -n 1)
    video=$(grep -E '^ *video( #[0-9]+)?: ' "$clog" | head -n 1 | sed -E 's/^ *video( #[0-9]+)?: //')
    dims=$(sed -n 's/^ *Width: *\([0-9]*\).*/\1/p' "$clog" | head -n 1)x$(sed -n 's/^ *Height: *\([0-9]*\).*/\1/p' "$clog" | head -n 1)
    why=$(grep -A1 'An error was encountered' "$clog" | tail -n 1 | sed 's/^ *//')
  elif in_root "command -v ffprobe" >/dev/null 2>&1; then
    echo "== ffprobe $REC (no gst-discoverer-1.0 in the root)" >>"$clog"
    run_step check "$T_CHECK" chroot "$ROOT" "${CHROOT_ENV[@]}" ffprobe -v error \
      -show_entries format=duration:stream=codec_type,codec_name,width,height -sexagesimal \
      -of default=nw=1 "$REC"
    dur=$(sed -n 's/^duration=//p' "$clog" | head -n 1)
    grep -q '^codec_type=video' "$clog" && video=$(sed -n 's/^codec_name=//p' "$clog" | head -n 1)
    dims=$(sed -n 's/^width=//p' "$clog" | head -n 1)x$(sed -n 's/^height=//p' "$clog" | head -n 1)
    why=$(grep -v '=' "$clog" | grep -v '^==' | tail -n 1)
  else
    fail check "neither gst-discoverer-1.0 nor ffprobe is installed in the root" "$clog"
    return
  fi
  [ -n "$dur" ] && ms=$(echo "$dur" | to_ms)
  [ "$dims" = x ] && dims=
  REC_INFO="$REC: ${dur:-no duration}, ${video:-no video stream}${dims:+ $dims}, $size bytes"
  if [ -z "$video" ]; then
    fail check "the recording has no video stream ($size bytes; duration ${dur:-none})${why:+: $why}" "$clog"
    return
  fi
  if [ "${ms:-0}" -lt $MIN_DURATION_MS ]; then
    fail check "the recording lasts ${dur:-0} (< $((MIN_DURATION_MS / 1000)) s)" "$clog"
    return
  fi
  # decode every frame: a file can have a duration and still be broken
  if in_root "command -v ffprobe" >/dev/null 2>&1; then
    echo "== ffprobe -count_frames $REC" >>"$clog"
    run_step check "$T_CHECK" chroot "$ROOT" "${CHROOT_ENV[@]}" /bin/bash -c \
      "ffprobe -v error -select_streams v:0 -count_frames -show_entries stream=nb_read_frames -of default=nw=1 '$REC' 2>&1; echo \"ffprobe-status=\$?\""
    frames=$(sed -n 's/^nb_read_frames=//p' "$clog" | tail -n 1)
    if ! grep -q '^ffprobe-status=0$' "$clog" || [ -z "$frames" ] || [ "$frames" = 0 ]; then
      fail check "the recording does not decode (ffprobe: ${frames:-no} frames)" "$clog"
      return
    fi
    errs=$(sed -n '/^== ffprobe -count_frames/,$p' "$clog" | grep -vcE '^(==|nb_read_frames=|ffprobe-status=)')
  else
    echo "== gst-launch-1.0 decode $REC" >>"$clog"
    if ! run_step check "$T_CHECK" chroot "$ROOT" "${CHROOT_ENV[@]}" gst-launch-1.0 -q \
        filesrc location="$REC" ! decodebin ! fakesink; then
      fail check "the recording does not decode (gst-launch-1.0 decodebin)" "$clog"
      return
    fi
  fi
  REC_INFO="$REC: $((ms / 1000)).$(printf %02d $((ms % 1000 / 10))) s, ${video}${dims:+ $dims}${frames:+, $frames frames}, $size bytes"
  [ "$errs" -gt 0 ] && REC_INFO="$REC_INFO, $errs decoder messages (check.log)"
  STEP_STATE[check]=ok
}
if [ -z "$FAILED_STEP" ]; then
  STEP_STATE[check]=running
  check_recording
fi

# ---------------------------------------------------------------- 5. tests
[ -n "$ONLY_RECORD" ] && STEP_STATE[tests]="skipped (--only-record)"
if [ -z "$FAILED_STEP" ] && [ -z "$ONLY_RECORD" ]; then
  STEP_STATE[tests]=running
  run_step tests "$T_TESTS" chroot "$ROOT" "${CHROOT_ENV[@]}" /bin/bash -c \
    "cd $DEST && exec ./tests/run"
  rc=$?
  TEST_LINE=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$LOGDIR/tests.log" | tail -n 1)
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    fail tests "tests/run timed out after $T_TESTS" "$LOGDIR/tests.log"
  elif [ -z "$TEST_LINE" ]; then
    fail tests "tests/run printed no 'N passed, N failed' line (status $rc)" "$LOGDIR/tests.log"
  elif ! echo "$TEST_LINE" | grep -q ' 0 failed'; then
    fail tests "$TEST_LINE" "$LOGDIR/tests.log"
  elif [ $rc -ne 0 ]; then
    fail tests "tests/run exited with status $rc although it printed '$TEST_LINE'" "$LOGDIR/tests.log"
  else
    STEP_STATE[tests]=ok
  fi
fi
in_root "dpkg-query -W -f='\${Package} \${Version}\n'" >"$LOGDIR/packages-end.txt" 2>/dev/null

[ -z "$FAILED_STEP" ] || exit 1
exit 0

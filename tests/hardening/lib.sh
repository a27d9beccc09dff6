# Shared by the hardening scripts (tests/hardening/*, tests/fuzz/run);
# sourced, not run. They build under the project's build directory
# ($GST_SESSION_BUILD_ROOT, which meson sets for tests; ./build otherwise),
# so a clean clone stays clean, and reuse a configured directory.

hardening_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
hardening_root=${GST_SESSION_BUILD_ROOT:-$hardening_top/build}

# hardening_build DIR CC SETUP_ARG... -- [NINJA_TARGET...]
# Configures DIR with the compiler CC once (again if that failed or the
# arguments changed: DIR.args keeps them), then builds the targets
# (everything when none are given). Holds a lock on DIR.lock meanwhile, so
# tests sharing one directory build it once.
hardening_build () {
  local dir=$1 cc=$2
  local args=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    args+=("$1")
    shift
  done
  [ $# -gt 0 ] && shift
  mkdir -p "$(dirname "$dir")"
  (
    flock 9
    if [ ! -f "$dir/build.ninja" ] \
        || [ "$(cat "$dir.args" 2>/dev/null)" != "$cc ${args[*]}" ]; then
      rm -rf "$dir"
      echo "$cc ${args[*]}" >"$dir.args"
      if ! env CC="$cc" meson setup "$dir" "$hardening_top" "${args[@]}" \
          >"$dir.setup.log" 2>&1; then
        tail -n 40 "$dir.setup.log"
        exit 1
      fi
    fi
    if ! ninja -C "$dir" "$@" >"$dir.ninja.log" 2>&1; then
      tail -n 60 "$dir.ninja.log"
      exit 1
    fi
  ) 9>"$dir.lock"
}

# Copies stdin to stdout with GstCheck's "Checks: N, Failures: ..." lines
# renamed, so tests/summarize.py counts a hardening test once, not each
# test case of the suite it ran.
hardening_filter () {
  sed -e 's/Checks: \([0-9]\)/checks: \1/g'
}

hardening_elapsed () {
  echo $(( $(date +%s) - $1 ))
}

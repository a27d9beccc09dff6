#!/usr/bin/env bash
# A service that refuses every start: a recording must fail loudly, never
# leave an empty file behind an exit status of 0.
#  1. gst-launch-1.0 -e worldsrc ... ! mp4mux ! filesink, stopped by its
#     control script before any frame: non-zero exit, and the error names
#     the refusal (HTTP 500, runner_server_error).
#  2. pipelines/record-world.sh with the embedded service refusing: non-zero
#     exit, one line saying why, and the service's last log lines.
# Environment: GST_SESSION_BUILD_ROOT, GST_SESSION_SOURCE_ROOT,
# GST_PLUGIN_PATH. Everything on 127.0.0.1; every wait bounded.
set -u
build=${GST_SESSION_BUILD_ROOT:?}
top=${GST_SESSION_SOURCE_ROOT:?}
service=$build/tools/service/gst-session-service
tmp=$(mktemp -d)
pid=
cleanup () {
  [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
failed=0
check () {   # check DESCRIPTION COMMAND...: one assertion
  if "${@:2}"; then echo "ok: $1"; else echo "FAIL: $1"; failed=1; fi
}

"$service" --port 0 --fault-refuse=runner_server_error >"$tmp/url" \
    2>"$tmp/service.log" &
pid=$!
for _ in $(seq 1 100); do
  [ -s "$tmp/url" ] && break
  sleep 0.1
done
url=$(head -n 1 "$tmp/url")
[ -n "$url" ] || { echo "FAIL: the service did not start"; exit 1; }

echo "2.5 stop" >"$tmp/stop.txt"
timeout 60 gst-launch-1.0 -e worldsrc url="$url/world/start-session" \
    control-script="$tmp/stop.txt" ! videoconvert \
    ! x264enc tune=zerolatency speed-preset=ultrafast ! mp4mux \
    ! filesink location="$tmp/world.mp4" >"$tmp/launch.out" 2>&1
rc=$?
echo "gst-launch-1.0 exited with $rc"
grep "^ERROR" "$tmp/launch.out"
check "gst-launch-1.0 exits non-zero" test "$rc" -ne 0 -a "$rc" -ne 124
check "the error names the refusal" \
  grep -q "^ERROR: .*HTTP 500 runner_server_error" "$tmp/launch.out"

kill -TERM "$pid" && wait "$pid"
pid=

BUILD_DIR=$build SERVICE_FLAGS=--fault-refuse=runner_server_error \
  timeout 120 "$top/pipelines/record-world.sh" "$tmp/rec.mp4" \
  >"$tmp/rec.out" 2>"$tmp/rec.err"
rc=$?
echo "record-world.sh exited with $rc; its verdict:"
sed -n '/FAILED/,$p' "$tmp/rec.err"
check "record-world.sh exits non-zero" test "$rc" -ne 0 -a "$rc" -ne 124
check "it says why in one line" \
  grep -q "^record-world.sh: FAILED: .*runner_server_error" "$tmp/rec.err"
check "it shows the service's log" \
  grep -q "refusing a start with runner_server_error" "$tmp/rec.err"
check "it does not print a path as if it had worked" \
  test -z "$(grep -x "$tmp/rec.mp4" "$tmp/rec.out")"
exit $failed

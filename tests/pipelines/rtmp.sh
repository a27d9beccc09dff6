#!/usr/bin/env bash
# RTMP restream test: a director session from the reference service,
# encoded (x264enc, avenc_aac or voaacenc), muxed (flvmux) and published
# with rtmp2sink to a local nginx-rtmp for STOP_AT (10) s of running time;
# the control script's stop ends the stream. nginx records what it
# receives (record all); a live reader (ffprobe on the RTMP URL) checks
# that the stream can be played while it runs. The recording must hold
# H.264 and AAC, each lasting the expected time +-1.5 s: from the output's
# first buffer (measured) to the stop.
#
# Installs nothing (tests/deps.sh does: nginx, libnginx-mod-rtmp, ffmpeg).
# Exit 0: passed; 1: failed; 77: skipped (no nginx RTMP module).
# Environment: GST_SESSION_BUILD_ROOT (the build directory), GST_PLUGIN_PATH.
# Everything listens on 127.0.0.1 only; every wait is bounded.
set -u

STOP_AT=${STOP_AT:-10}
TOLERANCE=1.5
MODULE=/usr/lib/nginx/modules/ngx_rtmp_module.so
build=${GST_SESSION_BUILD_ROOT:-}
service=$build/tools/service/gst-session-service

fail () {
  echo "FAIL: $*"
  exit 1
}

if ! command -v nginx >/dev/null 2>&1 || [ ! -f "$MODULE" ]; then
  echo "SKIP: nginx with its RTMP module is not installed" \
      "(Debian: nginx libnginx-mod-rtmp; tests/deps.sh installs them)"
  exit 77
fi
[ -x "$service" ] || fail "no reference service at $service" \
    "(GST_SESSION_BUILD_ROOT=$build)"
for tool in ffprobe python3 gst-launch-1.0 gst-inspect-1.0 timeout; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing (tests/deps.sh)"
done
for e in directorsrc x264enc h264parse flvmux rtmp2sink aacparse \
    audioresample; do
  gst-inspect-1.0 "$e" >/dev/null 2>&1 || fail "GStreamer element $e is missing"
done
aacenc=avenc_aac
gst-inspect-1.0 avenc_aac >/dev/null 2>&1 || aacenc=voaacenc
gst-inspect-1.0 "$aacenc" >/dev/null 2>&1 || fail "no AAC encoder (avenc_aac, voaacenc)"

tmp=$(mktemp -d)
NGINX_PID=
SERVICE_PID=
LAUNCH_PID=
PROBE_PID=
stop_pid () {
  local pid=$1
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}
cleanup () {
  stop_pid "$PROBE_PID"
  stop_pid "$LAUNCH_PID"
  stop_pid "$SERVICE_PID"
  stop_pid "$NGINX_PID"
  if [ -n "${KEEP_TMP:-}" ]; then
    echo "kept $tmp"
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT

# ---- nginx-rtmp on a free port of 127.0.0.1, as the current user ----

free_port () {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_nginx () {
  local user= tries
  mkdir -p "$tmp/nginx" "$tmp/rec"
  # nginx started by root switches to an unprivileged user: stay who we are
  [ "$(id -u)" = 0 ] && user="user $(id -un) $(id -gn);"
  for tries in 1 2 3 4 5; do
    PORT=$(free_port)
    cat >"$tmp/nginx/nginx.conf" <<EOF
load_module $MODULE;
$user
daemon off;
master_process off;
worker_processes 1;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log info;
events { worker_connections 64; }
rtmp {
  server {
    listen 127.0.0.1:$PORT;
    application live {
      live on;
      record all;
      record_path $tmp/rec;
      record_unique off;
      allow publish 127.0.0.1;
      deny publish all;
      allow play 127.0.0.1;
      deny play all;
    }
  }
}
EOF
    : >"$tmp/nginx/error.log"
    nginx -p "$tmp/nginx" -c "$tmp/nginx/nginx.conf" \
        -e "$tmp/nginx/error.log" </dev/null >"$tmp/nginx/stdout" 2>&1 &
    NGINX_PID=$!
    for _ in $(seq 50); do
      if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
        echo "nginx-rtmp on 127.0.0.1:$PORT (pid $NGINX_PID)"
        return 0
      fi
      kill -0 "$NGINX_PID" 2>/dev/null || break
      sleep 0.1
    done
    echo "nginx did not start on port $PORT (attempt $tries):"
    tail -n 5 "$tmp/nginx/error.log" "$tmp/nginx/stdout"
    stop_pid "$NGINX_PID"
    NGINX_PID=
  done
  fail "nginx-rtmp did not start"
}

start_nginx

# ---- the reference service ----

mkfifo "$tmp/url"
"$service" --port 0 >"$tmp/url" 2>"$tmp/service.log" &
SERVICE_PID=$!
read -r -t 20 SERVICE_URL <"$tmp/url" || fail "the reference service did not start"
echo "reference service at $SERVICE_URL"

# ---- the restream ----

cat >"$tmp/steer.txt" <<EOF
3 prompt a lighthouse on a cliff as a storm rolls in
6 ping
$STOP_AT stop
EOF

rtmp=rtmp://127.0.0.1:$PORT/live/test
# -v prints the first audio buffer's running time (identity "origin"): the
# output timeline starts there, at the session's first media
timeout -k 5 $((STOP_AT + 35)) gst-launch-1.0 -e -v \
  directorsrc name=d url="$SERVICE_URL/director/start-session" \
      prompt="a harbour at dawn" control-script="$tmp/steer.txt" \
  d.video ! queue ! videoconvert \
      ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=24 \
      ! h264parse ! queue ! flvmux name=mux streamable=true \
      ! rtmp2sink location="$rtmp" \
  d.audio ! identity name=origin silent=false ! queue ! audioconvert \
      ! audioresample ! audio/x-raw,rate=44100,channels=2 ! "$aacenc" \
      ! aacparse ! queue ! mux. \
  >"$tmp/launch.log" 2>&1 &
LAUNCH_PID=$!

# the live reader: once nginx has the publisher, play the stream for a
# while and list its streams
for _ in $(seq 150); do
  grep -q "publish: name='test'" "$tmp/nginx/error.log" && break
  kill -0 "$LAUNCH_PID" 2>/dev/null || break
  sleep 0.1
done
if grep -q "publish: name='test'" "$tmp/nginx/error.log"; then
  timeout -k 2 15 ffprobe -v error -rw_timeout 10000000 \
      -show_entries stream=codec_type,codec_name -of csv=p=0 "$rtmp" \
      >"$tmp/live.txt" 2>"$tmp/live.err" &
  PROBE_PID=$!
fi

wait "$LAUNCH_PID"
rc=$?
LAUNCH_PID=
[ -n "$PROBE_PID" ] && wait "$PROBE_PID"
PROBE_PID=

show_logs () {
  echo "---- gst-launch (filtered)"
  grep -v "last-message\|latency" "$tmp/launch.log" | tail -n 40
  echo "---- nginx"
  tail -n 20 "$tmp/nginx/error.log"
  echo "---- service"
  tail -n 20 "$tmp/service.log"
}

if [ $rc -ne 0 ]; then
  show_logs
  [ $rc -eq 124 ] && fail "the pipeline did not end in time"
  fail "gst-launch-1.0 exited with $rc"
fi
grep -q "Got EOS from element" "$tmp/launch.log" || {
  show_logs
  fail "the pipeline did not end with EOS"
}
grep -q "publish: name='test'" "$tmp/nginx/error.log" || {
  show_logs
  fail "nginx saw no publisher"
}

# ---- the live reader's view ----

echo "live reader: $(tr '\n' ' ' <"$tmp/live.txt")"
grep -q "^h264,video" "$tmp/live.txt" && grep -q "^aac,audio" "$tmp/live.txt" \
  || { cat "$tmp/live.err"; show_logs; fail "the live reader did not see H.264 and AAC"; }

# ---- the recording ----

flv=$tmp/rec/test.flv
[ -s "$flv" ] || { show_logs; fail "nginx recorded nothing"; }

origin=$(grep -m1 "origin: last-message = chain" "$tmp/launch.log" |
  sed -n 's/.* pts: \([0-9]*\):\([0-9]*\):\([0-9.]*\),.*/\1 \2 \3/p' |
  awk '{ printf "%.3f", $1 * 3600 + $2 * 60 + $3 }')
[ -n "$origin" ] || { show_logs; fail "no first audio buffer in the log"; }
expected=$(awk -v s="$STOP_AT" -v o="$origin" 'BEGIN { printf "%.3f", s - o }')
echo "first media at running time $origin s: expected duration $expected s"

# span SELECTOR: seconds from the first packet's start to the last's end
span () {
  ffprobe -v error -select_streams "$1" \
      -show_entries packet=pts_time,duration_time -of csv=p=0 "$flv" |
    awk -F, '$1 ~ /^[0-9.]+$/ {
        end = $1 + ($2 ~ /^[0-9.]+$/ ? $2 : 0)
        if (n == 0 || $1 < min) min = $1
        if (end > max) max = end
        n++
      }
      END { if (n) printf "%.3f %d", max - min, n; else print "0 0" }'
}

streams=$(ffprobe -v error -show_entries stream=codec_type,codec_name \
    -of csv=p=0 "$flv" | tr '\n' ' ')
echo "recorded: $streams"
echo "$streams" | grep -q "h264,video" || fail "no H.264 video recorded"
echo "$streams" | grep -q "aac,audio" || fail "no AAC audio recorded"

ok=1
for s in v a; do
  read -r d n <<<"$(span "$s")"
  echo "recorded $s: $d s in $n packets"
  awk -v d="$d" -v e="$expected" -v t="$TOLERANCE" \
      'BEGIN { exit !(d >= e - t && d <= e + t) }' || {
    echo "stream $s lasts $d s, expected $expected +- $TOLERANCE s"
    ok=0
  }
done
[ $ok -eq 1 ] || { show_logs; fail "the recorded durations are off"; }
echo "PASS"
exit 0

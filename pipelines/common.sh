# Shared by the pipelines/ scripts: builds the project when needed, and
# starts the embedded reference service on 127.0.0.1 when no URL is given.
# Source it; it sets TOP, BUILD, GST_PLUGIN_PATH and SERVICE_URL.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$TOP/build}
. "$TOP/tests/deps.sh"

ensure_packages || exit 1
build_project "$TOP" "$BUILD" || { echo "build failed" >&2; exit 1; }
export GST_PLUGIN_PATH="$BUILD/ext/session${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"

SCRIPT_NAME=$(basename "$0")
SERVICE_PID=
# the embedded service's log: kept to explain a failure, removed at exit
SERVICE_LOG_TMP=
stop_service () {
  if [ -n "$SERVICE_PID" ]; then
    kill -TERM "$SERVICE_PID" 2>/dev/null
    wait "$SERVICE_PID" 2>/dev/null
    SERVICE_PID=
  fi
  [ -n "$SERVICE_LOG_TMP" ] && rm -f "$SERVICE_LOG_TMP"
  SERVICE_LOG_TMP=
  [ -n "${LAUNCH_LOG:-}" ] && rm -f "$LAUNCH_LOG"
  LAUNCH_LOG=
}
trap stop_service EXIT

# fail MESSAGE: one line saying why, then the last lines of the embedded
# service's log (when it was used), and exit 1.
fail () {
  echo "$SCRIPT_NAME: FAILED: $*" >&2
  if [ -n "${SERVICE_LOG_USED:-}" ] && [ -s "$SERVICE_LOG_USED" ]; then
    echo "the last lines of the reference service's log:" >&2
    tail -n 15 "$SERVICE_LOG_USED" | sed 's/^/  /' >&2
  fi
  exit 1
}

# launch ARGS...: gst-launch-1.0 ARGS, its messages shown and kept, so that
# launch_failed can say why it failed.
LAUNCH_LOG=
launch () {
  [ -n "$LAUNCH_LOG" ] || LAUNCH_LOG=$(mktemp)
  # stderr through tee (kept), stdout as it is
  { gst-launch-1.0 "$@" 2>&1 1>&3 3>&- | tee "$LAUNCH_LOG" >&2; } 3>&1
  return "${PIPESTATUS[0]}"
}

# launch_failed STATUS: fails with the first error gst-launch-1.0 printed.
launch_failed () {
  local why
  why=$(grep -m 1 -E "^ERROR: " "$LAUNCH_LOG" 2>/dev/null | sed 's/^ERROR: from element [^ ]*: //')
  fail "gst-launch-1.0 exited with status $1: ${why:-no error message}"
}

# check_media FILE SECONDS WIDTH HEIGHT FPS [audio]: fails unless FILE
# exists, ffprobe reads it, its video is WIDTHxHEIGHT at FPS, it has an
# audio stream when asked, and it lasts at least 80 % of SECONDS. Sets
# MEDIA_SUMMARY to one line describing the file.
check_media () {
  local file=$1 seconds=$2 width=$3 height=$4 fps=$5 audio=${6:-} info
  local v_w v_h v_rate a_rate dur min
  [ -s "$file" ] || fail "$file was not written (or is empty)"
  info=$(ffprobe -v error -show_entries \
      stream=codec_type,codec_name,width,height,avg_frame_rate,sample_rate \
      -show_entries format=duration -of flat "$file" 2>&1) \
    || fail "$file is not a playable media file: ffprobe: $(echo "$info" | head -n 2 | tr '\n' ' ')"
  v_w=$(echo "$info" | awk -F= '/codec_type="video"/ { split($1, a, "."); s = a[3] }
      s != "" && $1 == "streams.stream." s ".width" { print $2; exit }')
  v_h=$(echo "$info" | awk -F= '/codec_type="video"/ { split($1, a, "."); s = a[3] }
      s != "" && $1 == "streams.stream." s ".height" { print $2; exit }')
  v_rate=$(echo "$info" | awk -F= '/codec_type="video"/ { split($1, a, "."); s = a[3] }
      s != "" && $1 == "streams.stream." s ".avg_frame_rate" { gsub(/"/, "", $2); print $2; exit }')
  a_rate=$(echo "$info" | awk -F= '/codec_type="audio"/ { split($1, a, "."); s = a[3] }
      s != "" && $1 == "streams.stream." s ".sample_rate" { gsub(/"/, "", $2); print $2; exit }')
  dur=$(echo "$info" | awk -F= '$1 == "format.duration" { gsub(/"/, "", $2); print $2 }')
  [ -n "$v_w" ] || fail "$file has no video stream"
  [ "$v_w" = "$width" ] && [ "$v_h" = "$height" ] \
    || fail "$file: video is ${v_w}x${v_h}, expected ${width}x${height}"
  # the average rate of a short file can be off by a little: within 5 %
  awk -v r="$v_rate" -v f="$fps" 'BEGIN { split(r, a, "/"); x = a[2] ? a[1] / a[2] : 0;
      exit !(x >= f * 0.95 && x <= f * 1.05) }' \
    || fail "$file: video runs at $v_rate fps, expected $fps"
  if [ -n "$audio" ]; then
    [ -n "$a_rate" ] || fail "$file has no audio stream"
  fi
  min=$(awk -v s="$seconds" 'BEGIN { printf "%.1f", s * 0.8 }')
  awk -v d="${dur:-0}" -v m="$min" 'BEGIN { exit !(d + 0 >= m + 0) }' \
    || fail "$file lasts ${dur:-0} s, less than $min s (80 % of the $seconds s asked)"
  MEDIA_SUMMARY="${v_w}x${v_h} at $(awk -v r="$v_rate" 'BEGIN { split(r, a, "/"); printf "%.4g", a[2] ? a[1] / a[2] : 0 }') fps${a_rate:+, audio at $a_rate Hz}, $(printf '%.1f' "$dur") s"
}

# start_service [service flags...]: sets SERVICE_URL (the base URL) unless
# SERVICE_URL is already set (a service of your own). SERVICE_FLAGS adds
# flags of the embedded service (e.g. --fault-refuse=runner_server_error,
# to see how a script fails).
start_service () {
  [ -n "${SERVICE_URL:-}" ] && return 0
  local fifo
  fifo=$(mktemp -u)
  mkfifo "$fifo"
  if [ -n "${SERVICE_LOG:-}" ]; then
    SERVICE_LOG_USED=$SERVICE_LOG
  else
    SERVICE_LOG_TMP=$(mktemp)
    SERVICE_LOG_USED=$SERVICE_LOG_TMP
  fi
  # shellcheck disable=SC2086 # SERVICE_FLAGS is a list of words
  # its INFO lines (sessions, refusals) in the log, to explain a failure
  GST_DEBUG=${GST_DEBUG:+$GST_DEBUG,}session-service:4 GST_DEBUG_NO_COLOR=1 \
  "$BUILD/tools/service/gst-session-service" --port 0 "$@" \
      ${SERVICE_FLAGS:-} >"$fifo" \
      2>"$SERVICE_LOG_USED" &
  SERVICE_PID=$!
  if ! read -r -t 20 SERVICE_URL <"$fifo"; then
    rm -f "$fifo"
    fail "the reference service did not start"
  fi
  rm -f "$fifo"
  echo "reference service at $SERVICE_URL (pid $SERVICE_PID)" >&2
}

# the key goes through the environment: gst-launch logs its command line
[ -n "${API_KEY:-}" ] && export GST_SESSION_API_KEY="$API_KEY"

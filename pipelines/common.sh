# Shared by the pipelines/ scripts: builds the project when needed, and
# starts the embedded reference service on 127.0.0.1 when no URL is given.
# Source it; it sets TOP, BUILD, GST_PLUGIN_PATH and SERVICE_URL.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD_DIR:-$TOP/build}
. "$TOP/tests/deps.sh"

ensure_packages || exit 1
build_project "$TOP" "$BUILD" || { echo "build failed" >&2; exit 1; }
export GST_PLUGIN_PATH="$BUILD/ext/session${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"

SERVICE_PID=
stop_service () {
  if [ -n "$SERVICE_PID" ]; then
    kill -TERM "$SERVICE_PID" 2>/dev/null
    wait "$SERVICE_PID" 2>/dev/null
    SERVICE_PID=
  fi
}
trap stop_service EXIT

# start_service [service flags...]: sets SERVICE_URL (the base URL) unless
# SERVICE_URL is already set (a service of your own).
start_service () {
  [ -n "${SERVICE_URL:-}" ] && return 0
  local fifo
  fifo=$(mktemp -u)
  mkfifo "$fifo"
  "$BUILD/tools/service/gst-session-service" --port 0 "$@" >"$fifo" \
      2>"${SERVICE_LOG:-/dev/null}" &
  SERVICE_PID=$!
  if ! read -r -t 20 SERVICE_URL <"$fifo"; then
    rm -f "$fifo"
    echo "the reference service did not start" >&2
    exit 1
  fi
  rm -f "$fifo"
  echo "reference service at $SERVICE_URL (pid $SERVICE_PID)" >&2
}

# the key goes through the environment: gst-launch logs its command line
[ -n "${API_KEY:-}" ] && export GST_SESSION_API_KEY="$API_KEY"

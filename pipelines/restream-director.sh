#!/usr/bin/env bash
# Restreams a director session to an RTMP server: H.264 (x264enc) and AAC
# (avenc_aac, else voaacenc) in FLV, published with rtmp2sink, steered by
# pipelines/steer-director.txt. Runs until Ctrl-C (the stream is stopped
# cleanly: the session gets `stop`, the server an end of stream), or for
# DURATION seconds when that is set.
#
#   pipelines/restream-director.sh rtmp://live.example.com/app/STREAM-KEY
#   pipelines/restream-director.sh                 (a local RTMP server)
#   DURATION=60 pipelines/restream-director.sh [URL]
#
# Without a URL, nginx with its RTMP module (Debian: nginx,
# libnginx-mod-rtmp) is started as the current user on a free port of
# 127.0.0.1, with a generated configuration in a temporary directory, and
# the session goes to rtmp://127.0.0.1:PORT/live/director; the script
# prints that URL (watch it with `ffplay URL` or `gst-play-1.0 URL`).
# RECORD_DIR=dir makes that server also record the stream there
# (director.flv). The server is stopped when the script ends.
#
# Without SERVICE_URL, the embedded reference service is started on
# 127.0.0.1; with SERVICE_URL=http://host:port, that service is used
# (API_KEY=... is sent as its key, through GST_SESSION_API_KEY).
set -u
target=${1:-}
duration=${DURATION:-}
. "$(dirname "$0")/common.sh"

NGINX_DIR=
NGINX_PID=
stop_nginx () {
  if [ -n "$NGINX_PID" ]; then
    kill -TERM "$NGINX_PID" 2>/dev/null
    for _ in $(seq 50); do
      kill -0 "$NGINX_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$NGINX_PID" 2>/dev/null
    NGINX_PID=
  fi
  [ -n "$NGINX_DIR" ] && rm -rf "$NGINX_DIR"
  NGINX_DIR=
}
RECORD_DIR_TMP=
trap 'stop_nginx; [ -n "$RECORD_DIR_TMP" ] && rm -rf "$RECORD_DIR_TMP"; stop_service' EXIT

# start_nginx: a local RTMP server on 127.0.0.1; sets target.
start_nginx () {
  local module=/usr/lib/nginx/modules/ngx_rtmp_module.so port user tries
  command -v nginx >/dev/null && [ -f "$module" ] || {
    echo "no RTMP server: install nginx and libnginx-mod-rtmp, or give an" \
        "rtmp:// URL" >&2
    exit 1
  }
  NGINX_DIR=$(mktemp -d)
  user=
  # as root nginx would switch to an unprivileged user: stay who we are
  [ "$(id -u)" = 0 ] && user="user $(id -un) $(id -gn);"
  for tries in 1 2 3 4 5; do
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    cat >"$NGINX_DIR/nginx.conf" <<EOF
load_module $module;
$user
daemon off;
master_process off;
worker_processes 1;
pid $NGINX_DIR/nginx.pid;
error_log $NGINX_DIR/error.log info;
events { worker_connections 64; }
rtmp {
  server {
    listen 127.0.0.1:$port;
    application live {
      live on;
      ${RECORD_DIR:+record all; record_path $(realpath "$RECORD_DIR"); record_unique off;}
      allow publish 127.0.0.1;
      deny publish all;
      allow play 127.0.0.1;
      deny play all;
    }
  }
}
EOF
    # its own session: Ctrl-C stops the pipeline, not the server under it
    setsid nginx -p "$NGINX_DIR" -c "$NGINX_DIR/nginx.conf" \
        -e "$NGINX_DIR/error.log" </dev/null >/dev/null 2>&1 &
    NGINX_PID=$!
    for _ in $(seq 50); do
      if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        target=rtmp://127.0.0.1:$port/live/director
        echo "local RTMP server at rtmp://127.0.0.1:$port/live" \
            "(nginx, pid $NGINX_PID)" >&2
        return 0
      fi
      kill -0 "$NGINX_PID" 2>/dev/null || break
      sleep 0.1
    done
    # the port was taken meanwhile, or nginx failed: say why, try again
    tail -n 3 "$NGINX_DIR/error.log" >&2
    kill -KILL "$NGINX_PID" 2>/dev/null
    wait "$NGINX_PID" 2>/dev/null
    NGINX_PID=
  done
  echo "the local RTMP server did not start" >&2
  exit 1
}

if [ -z "$target" ]; then
  # the local server always records, so that what it received is checked
  if [ -n "${RECORD_DIR:-}" ]; then
    mkdir -p "$RECORD_DIR" || exit 1
    rm -f "$RECORD_DIR/director.flv"
  else
    RECORD_DIR_TMP=$(mktemp -d)
    RECORD_DIR=$RECORD_DIR_TMP
  fi
  start_nginx
fi
start_service

# steer_until FILE SECONDS: the actions of FILE due before SECONDS, then a
# stop at SECONDS (a control script's times never go back).
steer_until () {
  awk -v stop="$2" '
    function secs(t,   n, a) {
      if (t ~ /ms$/) return substr(t, 1, length(t) - 2) / 1000
      sub(/s$/, "", t)
      n = split(t, a, ":")
      if (n == 3) return a[1] * 3600 + a[2] * 60 + a[3]
      if (n == 2) return a[1] * 60 + a[2]
      return t + 0
    }
    /^[ \t]*(#|\r?$)/ { print; next }
    secs($1) < stop + 0 { print }
  ' "$1"
  echo "$2 stop"
}

script=$(mktemp --suffix=.txt)
if [ -n "$duration" ]; then
  steer_until "$TOP/pipelines/steer-director.txt" "$duration" >"$script"
else
  cp "$TOP/pipelines/steer-director.txt" "$script"
fi

aacenc=avenc_aac
gst-inspect-1.0 avenc_aac >/dev/null 2>&1 || aacenc=voaacenc

if [ -n "$duration" ]; then
  echo "restreaming to $target for $duration s" >&2
else
  echo "restreaming to $target until Ctrl-C" >&2
fi
# FLV takes AAC at 44.1 kHz best; a keyframe every 2 s, as RTMP services ask;
# flvmux waits up to 200 ms for a late stream, as directorsrc's fill over a
# stall or a renewal can be (see docs/reliability.md, the soak)
launch -e \
  directorsrc name=d url="$SERVICE_URL/director/start-session" \
      prompt="a lighthouse on a cliff at dusk" control-script="$script" \
  d.video ! queue ! videoconvert \
      ! x264enc tune=zerolatency speed-preset=veryfast key-int-max=48 \
          bitrate=2500 \
      ! h264parse ! queue ! flvmux name=mux streamable=true latency=200000000 \
      ! rtmp2sink location="$target" \
  d.audio ! queue ! audioconvert ! audioresample \
      ! audio/x-raw,rate=44100,channels=2 ! "$aacenc" bitrate=128000 \
      ! aacparse ! queue ! mux.
rc=$?
rm -f "$script"
[ $rc -eq 0 ] || launch_failed $rc
if [ -z "${1:-}" ]; then
  # what the local server received, once it has stopped and so closed the
  # file
  stop_nginx
  check_media "$RECORD_DIR/director.flv" "${duration:-0}" 1360 768 24 audio
  echo "the server received $MEDIA_SUMMARY" >&2
  [ -z "$RECORD_DIR_TMP" ] && echo "$(realpath "$RECORD_DIR")/director.flv"
fi
echo "$target"

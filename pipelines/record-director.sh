#!/usr/bin/env bash
# Records about 20 s of a director session, steered by
# pipelines/steer-director.txt (prompt versions and a ping) plus a stop, to
# an MP4 file (H.264 + AAC), and prints its path.
#
#   pipelines/record-director.sh [OUTPUT.mp4]
#   DURATION=30 pipelines/record-director.sh      (seconds, default 20)
#
# Without SERVICE_URL, the embedded reference service is started on
# 127.0.0.1; with SERVICE_URL=http://host:port, that service is used
# (API_KEY=... is sent as its key, through GST_SESSION_API_KEY).
set -u
out=${1:-$PWD/director.mp4}
duration=${DURATION:-20}
. "$(dirname "$0")/common.sh"
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

# AAC: libav's encoder, else VisualOn's
aacenc=avenc_aac
gst-inspect-1.0 avenc_aac >/dev/null 2>&1 || aacenc=voaacenc

# the stop: the element sends `stop`, waits for stream_exhausted, then
# ends both pads so mp4mux finalises the file
script=$(mktemp --suffix=.txt)
steer_until "$TOP/pipelines/steer-director.txt" "$duration" >"$script"

rm -f "$out"
launch -e \
  directorsrc name=d url="$SERVICE_URL/director/start-session" \
      prompt="a harbour at dawn, fishing boats leaving" control-script="$script" \
  d.video ! queue ! videoconvert \
      ! x264enc tune=zerolatency speed-preset=veryfast key-int-max=48 \
      ! h264parse ! queue ! mp4mux name=mux ! filesink location="$out" \
  d.audio ! queue ! audioconvert ! audioresample ! "$aacenc" ! aacparse \
      ! queue ! mux.
rc=$?
rm -f "$script"
[ $rc -eq 0 ] || launch_failed $rc
# the service's default size (768p, 16:9) at 24 fps, with sound
check_media "$out" "$duration" 1360 768 24 audio
echo "recorded $MEDIA_SUMMARY" >&2
echo "$out"

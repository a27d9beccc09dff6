#!/usr/bin/env bash
# Writes a director session as HLS (H.264 + AAC in MPEG-TS segments of
# about 2 s, and a playlist) into a directory with hlssink2, steered by
# pipelines/steer-director.txt, for DURATION seconds (default 20), and
# prints the playlist's path. Serve the directory over HTTP to play it, or
# open the playlist with `ffplay`, `gst-play-1.0` or `mpv`.
#
#   pipelines/hls-director.sh [DIRECTORY]          (default: ./director-hls)
#   DURATION=60 pipelines/hls-director.sh [DIRECTORY]
#
# Without SERVICE_URL, the embedded reference service is started on
# 127.0.0.1; with SERVICE_URL=http://host:port, that service is used
# (API_KEY=... is sent as its key, through GST_SESSION_API_KEY).
set -u
dir=${1:-$PWD/director-hls}
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

mkdir -p "$dir" || exit 1
dir=$(realpath "$dir")
rm -f "$dir"/segment*.ts "$dir/playlist.m3u8"

aacenc=avenc_aac
gst-inspect-1.0 avenc_aac >/dev/null 2>&1 || aacenc=voaacenc

script=$(mktemp --suffix=.txt)
steer_until "$TOP/pipelines/steer-director.txt" "$duration" >"$script"

# segments start at keyframes: exactly one every 48 frames (2 s at 24 fps,
# no scene-cut keyframes, no keyframe requests from hlssink2); the playlist
# keeps every segment (playlist-length=0) and gets #EXT-X-ENDLIST at the
# end of the stream
launch -e \
  directorsrc name=d url="$SERVICE_URL/director/start-session" \
      prompt="a night market in the rain, lanterns swaying" \
      control-script="$script" \
  d.video ! queue ! videoconvert \
      ! x264enc tune=zerolatency speed-preset=veryfast key-int-max=48 \
          option-string=scenecut=0 \
      ! h264parse ! queue ! hls.video \
  d.audio ! queue ! audioconvert ! audioresample \
      ! audio/x-raw,rate=48000 ! "$aacenc" ! aacparse ! queue ! hls.audio \
  hlssink2 name=hls target-duration=2 playlist-length=0 max-files=0 \
      send-keyframe-requests=false \
      location="$dir/segment%05d.ts" playlist-location="$dir/playlist.m3u8"
rc=$?
rm -f "$script"
[ $rc -eq 0 ] || launch_failed $rc
grep -q "^#EXT-X-ENDLIST" "$dir/playlist.m3u8" 2>/dev/null \
  || fail "$dir/playlist.m3u8 is missing or has no end (#EXT-X-ENDLIST)"
check_media "$dir/playlist.m3u8" "$duration" 1360 768 24 audio
echo "$(ls "$dir"/segment*.ts | wc -l) segments in $dir: $MEDIA_SUMMARY" >&2
echo "$dir/playlist.m3u8"

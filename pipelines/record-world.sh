#!/usr/bin/env bash
# Records about 10 s of a world session, steered by pipelines/steer-world.txt
# (a prompt change and some movement), to an MP4 file, and prints its path.
#
#   pipelines/record-world.sh [OUTPUT.mp4]
#
# Without SERVICE_URL, the embedded reference service is started on
# 127.0.0.1; with SERVICE_URL=http://host:port, that service is used
# (API_KEY=... is sent as its key, through GST_SESSION_API_KEY).
set -u
out=${1:-$PWD/world.mp4}
. "$(dirname "$0")/common.sh"
start_service

# the steering script, plus a stop at 10.5 s: the element sends `stop`,
# waits for stream_exhausted, and ends the stream so mp4mux finalises
script=$(mktemp --suffix=.txt)
cat "$TOP/pipelines/steer-world.txt" >"$script"
echo "10.5 stop" >>"$script"

rm -f "$out"
launch -e \
  worldsrc url="$SERVICE_URL/world/start-session" \
      prompt="a misty pine forest at dawn" control-script="$script" \
  ! videoconvert ! x264enc tune=zerolatency speed-preset=veryfast \
  ! mp4mux ! filesink location="$out"
rc=$?
rm -f "$script"
[ $rc -eq 0 ] || launch_failed $rc
# what was made: the world's size and rate, at least 80 % of the 10.5 s
check_media "$out" 10.5 1280 704 16
echo "recorded $MEDIA_SUMMARY" >&2
echo "$out"

#!/usr/bin/env bash
# Records a world session to WebM without re-encoding (decode=false: the
# VP8 stream as it arrived), for 10 s, and prints the file's path.
#
#   pipelines/record-world-webm.sh [OUTPUT.webm]
set -u
out=${1:-$PWD/world.webm}
. "$(dirname "$0")/common.sh"
start_service

script=$(mktemp --suffix=.txt)
cat "$TOP/pipelines/steer-world.txt" >"$script"
echo "10.5 stop" >>"$script"
rm -f "$out"
launch -e \
  worldsrc url="$SERVICE_URL/world/start-session" \
      decode=false prompt="a lighthouse on a cliff" control-script="$script" \
  ! webmmux ! filesink location="$out"
rc=$?
rm -f "$script"
[ $rc -eq 0 ] || launch_failed $rc
check_media "$out" 10.5 1280 704 16
echo "recorded $MEDIA_SUMMARY" >&2
echo "$out"

#!/usr/bin/env bash
# Shows a world session in a window (needs a display), steered by
# pipelines/steer-world.txt. Ctrl-C stops it.
#
#   pipelines/display-world.sh
set -u
. "$(dirname "$0")/common.sh"
start_service
launch -e \
  worldsrc url="$SERVICE_URL/world/start-session" \
      prompt="a floating market at sunset" \
      control-script="$TOP/pipelines/steer-world.txt" \
  ! videoconvert ! autovideosink
rc=$?
[ $rc -eq 0 ] || launch_failed $rc

#!/usr/bin/env bash
# The reference service with a plugin missing (the pango plugin, which
# provides textoverlay, hidden from GStreamer's registry) must end at once
# with exit status 2 and one line naming the element and the Debian
# package: never listen and then refuse every session with HTTP 500.
#
#   missing-element.sh SERVICE_BINARY
set -u
service=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

sysdir=$(pkg-config --variable=pluginsdir gstreamer-1.0)
[ -e "$sysdir/libgstpango.so" ] || { echo "no $sysdir/libgstpango.so"; exit 1; }
mkdir "$tmp/plugins"
for f in "$sysdir"/*.so; do
  [ "$(basename "$f")" = libgstpango.so ] || ln -s "$f" "$tmp/plugins/"
done

GST_REGISTRY_1_0=$tmp/registry.bin GST_PLUGIN_SYSTEM_PATH_1_0=$tmp/plugins \
  GST_PLUGIN_PATH_1_0= GST_PLUGIN_PATH= \
  timeout 60 "$service" --port 0 >"$tmp/out" 2>"$tmp/err"
rc=$?
echo "exit status $rc; stdout: $(cat "$tmp/out"); stderr: $(cat "$tmp/err")"
fail=0
[ $rc -eq 2 ] || { echo "FAIL: exit status $rc, expected 2"; fail=1; }
[ -s "$tmp/out" ] && { echo "FAIL: it printed a URL: it listened"; fail=1; }
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: not one line"; fail=1; }
grep -q "textoverlay" "$tmp/err" || { echo "FAIL: element not named"; fail=1; }
grep -q "gstreamer1.0-x" "$tmp/err" || { echo "FAIL: package not named"; fail=1; }

# and with every plugin there it starts (so the check is not always failing)
timeout 60 "$service" --port 0 >"$tmp/out2" 2>"$tmp/err2" &
pid=$!
for _ in $(seq 1 100); do
  [ -s "$tmp/out2" ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
grep -q "^http://127.0.0.1:" "$tmp/out2" \
  || { echo "FAIL: the service did not start with every plugin: $(cat "$tmp/err2")"; fail=1; }
kill -TERM $pid 2>/dev/null
wait $pid
exit $fail

# Debian 12 packages gst-session needs to build, test and run its pipelines
# and the docs' examples. Sourced by tests/run and the pipelines/ scripts.
# The deps suite (tests/deps/check) fails when the code uses a GStreamer
# element, a command or a file whose package is not here.
GST_SESSION_PACKAGES="
  meson ninja-build pkg-config gcc binutils indent python3
  libglib2.0-dev libjson-glib-dev libsoup-3.0-dev
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly gstreamer1.0-nice gstreamer1.0-libav
  gobject-introspection libgirepository1.0-dev gir1.2-gstreamer-1.0 python3-gi
  nettle-dev libssl-dev libsqlite3-dev ffmpeg clang libclang-rt-14-dev llvm-14 valgrind
  nginx libnginx-mod-rtmp gstreamer1.0-plugins-base-apps gstreamer1.0-x
  git openssl curl jq sqlite3 debootstrap iproute2 iputils-ping chromium coturn
"

# Installs whatever of GST_SESSION_PACKAGES is missing (only as root, only
# where apt-get exists); says what is missing otherwise.
ensure_packages () {
  missing=""
  for p in $GST_SESSION_PACKAGES; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
      || missing="$missing $p"
  done
  [ -z "$missing" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null || return 1
    apt-get install -y -qq --no-install-recommends $missing >/dev/null || return 1
  else
    echo "missing Debian packages:$missing (install them as root)" >&2
    return 1
  fi
}

# Configures (once) and builds the project in $1.
build_project () {
  top=$1
  build=$2
  mkdir -p "$build"
  if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" "$top" -Dwerror=true >"$build/setup.log" 2>&1 \
      || { cat "$build/setup.log"; return 1; }
  fi
  ninja -C "$build" >"$build/ninja.log" 2>&1 \
    || { tail -n 60 "$build/ninja.log"; return 1; }
}

#!/bin/sh
# ci-fresh.sh [BASE]: runs .ci/run as CI runs it, but on a fresh Debian 12
# that has only what .ci/run installs: a minimal Debian (debootstrap's
# minbase) in a chroot, with CUDA (which no package gives) and ../shared
# mounted read-only, and a clean clone of this checkout's HEAD.  A green
# CI on a machine a session prepared by hand can hide a missing install
# step; this cannot.
#
# BASE (default /var/tmp/ptx-ci-base) keeps the pristine Debian between
# runs; each run works on a fresh copy of it (BASE.run), removed at the
# end unless KEEP=1.  Needs root (debootstrap, chroot, mount) and Debian's
# mirror (the machine's own apt sources are copied in, so the same
# suites, security included, are reached).  Exit status: .ci/run's.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-/var/tmp/ptx-ci-base}
run=$base.run
shared=$(cd "${PTX_SHARED:-$top/../shared}" && pwd)
cuda=$(readlink -f /usr/local/cuda)
[ "$(id -u)" = 0 ] || { echo "ci-fresh: needs root (debootstrap, chroot, mount)" >&2; exit 2; }
[ -d "$cuda/bin" ] || { echo "ci-fresh: CUDA not found at /usr/local/cuda" >&2; exit 2; }

if [ ! -x "$base/bin/bash" ]; then
    command -v debootstrap >/dev/null 2>&1 || apt-get install -y -qq debootstrap >/dev/null
    rm -rf "$base"
    debootstrap --variant=minbase bookworm "$base" http://deb.debian.org/debian
fi

mounted=""
cleanup() {
    for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
    [ "${KEEP:-0}" = 1 ] || rm -rf "$run"
}
trap cleanup EXIT INT TERM
bind() {        # bind SRC DEST [ro]
    mkdir -p "$2"
    mount --bind "$1" "$2"
    mounted="$2 $mounted"
    [ "${3:-}" != ro ] || mount -o remount,bind,ro "$2"
}

rm -rf "$run"
cp -a "$base" "$run"
# the machine's apt sources in place of debootstrap's (which would name
# the same suite twice)
rm -f "$run/etc/apt/sources.list"
cp /etc/apt/sources.list.d/*.sources "$run/etc/apt/sources.list.d/" 2>/dev/null || true
[ ! -f /etc/apt/sources.list ] || cp /etc/apt/sources.list "$run/etc/apt/sources.list"
cp /etc/resolv.conf "$run/etc/resolv.conf"
bind /proc "$run/proc"
bind /dev "$run/dev"
bind /dev/pts "$run/dev/pts"
bind /sys "$run/sys"
bind "$cuda" "$run$cuda" ro
ln -sfn "$cuda" "$run/usr/local/cuda"
mkdir -p "$run/ci"
git clone -q "$top" "$run/ci/main"
bind "$shared" "$run/ci/shared" ro

echo "ci-fresh: .ci/run in a fresh Debian chroot ($run), HEAD $(git -C "$top" rev-parse --short HEAD)"
start=$(date +%s)
status=0
chroot "$run" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 CI=true \
    PATH=/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    sh -c 'cd /ci/main && bash .ci/run </dev/null' || status=$?
echo "ci-fresh: .ci/run exited $status after $(( $(date +%s) - start )) s"
exit "$status"

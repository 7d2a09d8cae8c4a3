#!/bin/sh
# Fills the build context ($1) for benchrig/busybox:1 from this machine's own files (no registry).
set -eu
ctx="${1:?usage: prepare.sh CONTEXT_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
bb=/bin/busybox

if [ ! -x "$bb" ]; then
  echo "prepare.sh: $bb not found; install a static busybox: apt-get install busybox-static" >&2
  exit 1
fi
# A dynamically linked busybox would need the host's libc inside a FROM scratch image.
if command -v file >/dev/null 2>&1; then
  if ! file -L "$bb" | grep -q 'statically linked'; then
    echo "prepare.sh: $bb is not statically linked; install the static one: apt-get install busybox-static" >&2
    exit 1
  fi
elif command -v ldd >/dev/null 2>&1 && ldd "$bb" >/dev/null 2>&1; then
  echo "prepare.sh: $bb is dynamically linked; install the static one: apt-get install busybox-static" >&2
  exit 1
fi

mkdir -p "$ctx/rootfs/bin" "$ctx/rootfs/etc"
cp "$bb" "$ctx/rootfs/bin/busybox"
chmod 0755 "$ctx/rootfs/bin/busybox"
cp "$here/Dockerfile" "$ctx/Dockerfile"
cp "$here/etc/passwd" "$here/etc/group" "$ctx/rootfs/etc/"
chmod 0644 "$ctx/rootfs/etc/passwd" "$ctx/rootfs/etc/group"

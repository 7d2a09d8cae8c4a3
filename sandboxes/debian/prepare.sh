#!/bin/sh
# Fills the build context ($1) for benchrig/debian:1, a glibc sandbox (Node and the CLI agents run
# in it), from Debian's own packages: `debootstrap --variant=minbase bookworm`, never a registry
# pull. The root is made once per machine and kept as a tarball under $BENCHRIG_CACHE (default
# /var/cache/benchrig, outside any repository); later builds reuse it. Other Debian sandboxes call
# it with ROOT_NAME (their tarball's name), INCLUDE (debootstrap --include) and DOCKERFILE_DIR set.
set -eu
ctx="${1:?usage: prepare.sh CONTEXT_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
cache="${BENCHRIG_CACHE:-/var/cache/benchrig}"
tarball="$cache/${ROOT_NAME:-debian-bookworm-minbase}.tar"

# The mirror of bookworm's main component among this machine's own apt sources (a mirror or proxy
# configured there, a local one or a caching proxy, is used); BENCHRIG_DEBIAN_MIRROR names another.
apt_mirror() {
  command -v apt-get >/dev/null 2>&1 || return 0
  apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 2>/dev/null |
    awk '$2 == "bookworm" && $3 == "main" { print $1; exit }'
}

if [ ! -s "$tarball" ]; then
  mirror="${BENCHRIG_DEBIAN_MIRROR:-$(apt_mirror)}"
  if [ -z "$mirror" ]; then
    echo "prepare.sh: this machine's apt sources have no Debian bookworm (main) to bootstrap from:" >&2
    echo "  add one to /etc/apt/sources.list.d/, or set BENCHRIG_DEBIAN_MIRROR to a Debian mirror's URL" >&2
    exit 1
  fi
  if ! command -v debootstrap >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      # A fresh machine may have no package lists yet: update once and try again.
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1 ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
    else
      echo "prepare.sh: debootstrap is missing: apt-get install debootstrap (as root)" >&2
      exit 1
    fi
  fi
  mkdir -p "$cache"
  root="$(mktemp -d "$cache/root-XXXXXX")"
  trap 'rm -rf "$root"' EXIT
  debootstrap --variant=minbase ${INCLUDE:+--include="$INCLUDE"} bookworm "$root" "$mirror" >&2
  rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"* 2>/dev/null || true
  # Written beside the cache, then renamed: a half-made tarball is never reused.
  tar -C "$root" -cf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
fi
cp "$tarball" "$ctx/rootfs.tar"
cp "${DOCKERFILE_DIR:-$here}/Dockerfile" "$ctx/Dockerfile"

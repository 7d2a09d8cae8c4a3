#!/usr/bin/env bash
# Makes a Docker engine and busybox-static available, offline-friendly: installs them from the
# distribution's packages when missing (Debian/Ubuntu as root), starts dockerd when it is not
# running, and waits for its socket. Elsewhere it says exactly what to do.
set -euo pipefail

need_install=()
command -v dockerd >/dev/null 2>&1 || need_install+=(docker.io)
# fleet tests run a second dockerd in its own network namespace (ip, nsenter) with TLS (openssl)
command -v ip >/dev/null 2>&1 || need_install+=(iproute2)
command -v openssl >/dev/null 2>&1 || need_install+=(openssl)
# the sandbox image is FROM scratch, so it needs the static busybox, not the dynamic one
if [ ! -x /bin/busybox ] || { command -v ldd >/dev/null 2>&1 && ldd /bin/busybox >/dev/null 2>&1; }; then
  need_install+=(busybox-static)
fi

if [ ${#need_install[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup-docker: installing ${need_install[*]} from the distribution's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need_install[@]}" >/dev/null
  else
    echo "setup-docker: missing ${need_install[*]}." >&2
    echo "  On Debian/Ubuntu run as root: apt-get install -y docker.io busybox-static" >&2
    echo "  Elsewhere: install Docker Engine (https://docs.docker.com/engine/install/) and a static busybox at /bin/busybox." >&2
    exit 1
  fi
fi

sock=${DOCKER_HOST:-unix:///var/run/docker.sock}
sock=${sock#unix://}
if ! docker version >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup-docker: starting dockerd"
    nohup dockerd >/var/log/benchrig-dockerd.log 2>&1 &
    for _ in $(seq 1 60); do
      [ -S "$sock" ] && docker version >/dev/null 2>&1 && break
      sleep 1
    done
  fi
  if ! docker version >/dev/null 2>&1; then
    echo "setup-docker: Docker is not running and could not be started here (see /var/log/benchrig-dockerd.log)." >&2
    echo "  Start it with: sudo systemctl start docker   (or: sudo dockerd &)" >&2
    exit 1
  fi
fi
echo "setup-docker: Docker $(docker version --format '{{.Server.Version}}') is ready"
# the report tests open pages in a real browser
bash "$(dirname "$0")/setup-browser.sh"

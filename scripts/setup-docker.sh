#!/usr/bin/env bash
# Makes a Docker engine and busybox-static (and, for the registry tests, docker-registry and htpasswd) available, offline-friendly: installs them from the
# distribution's packages when missing (Debian/Ubuntu as root), starts dockerd when none runs (never a
# second one, and never when DOCKER_HOST names a daemon elsewhere: that one is only checked), and
# waits for it to answer. Elsewhere it says exactly what to do.
set -euo pipefail

need_install=()
{ command -v dockerd >/dev/null 2>&1 && command -v docker >/dev/null 2>&1; } || need_install+=(docker.io)
# fleet tests run a second dockerd in its own network namespace (ip, nsenter) with TLS (openssl)
command -v ip >/dev/null 2>&1 || need_install+=(iproute2)
command -v openssl >/dev/null 2>&1 || need_install+=(openssl)
# the registry tests (test/e2e/registry-pull.test.ts) run Debian's registry, with htpasswd for basic auth
command -v docker-registry >/dev/null 2>&1 || need_install+=(docker-registry)
command -v htpasswd >/dev/null 2>&1 || need_install+=(apache2-utils)
# the sandbox image is FROM scratch, so it needs the static busybox, not the dynamic one
if [ ! -x /bin/busybox ] || { command -v ldd >/dev/null 2>&1 && ldd /bin/busybox >/dev/null 2>&1; }; then
  need_install+=(busybox-static)
fi

. "$(dirname "$0")/install-lib.sh"
install_missing setup-docker \
  'install Docker Engine (https://docs.docker.com/engine/install/) and a static busybox at /bin/busybox.' \
  ${need_install[@]+"${need_install[@]}"}

# Its log is appended to, never truncated: a daemon started earlier may still be writing to it.
log=/var/log/benchrig-dockerd.log
answers() { timeout 20 docker version >/dev/null 2>&1; }

if [ -n "${DOCKER_HOST:-}" ]; then
  # DOCKER_HOST names a daemon started elsewhere: it is checked, and nothing is started here.
  if ! why=$(timeout 20 docker version 2>&1 >/dev/null); then
    echo "setup-docker: Docker at DOCKER_HOST=$DOCKER_HOST does not answer: $(printf '%s\n' "$why" | grep -v '^\s*$' | tail -n 1)" >&2
    echo "  Nothing was started here: DOCKER_HOST names a daemon that runs elsewhere." >&2
    echo "  Start that daemon, correct DOCKER_HOST, or unset it to use (and start) the local one." >&2
    exit 1
  fi
elif ! answers; then
  waiting=1
  if pgrep -x dockerd >/dev/null 2>&1; then
    # One is running but not answering yet (starting up): wait for it, never start a second one.
    echo "setup-docker: dockerd (pid $(pgrep -x dockerd | tr '\n' ' ' | sed 's/ $//')) runs but does not answer yet; waiting for it"
  elif [ "$(id -u)" = 0 ]; then
    echo "setup-docker: starting dockerd (log: $log)"
    nohup dockerd >>"$log" 2>&1 &
  else
    waiting=0
  fi
  for _ in $(seq 1 $((60 * waiting))); do
    answers && break
    sleep 1
  done
  if ! answers; then
    echo "setup-docker: Docker does not answer at /var/run/docker.sock (see $log)." >&2
    if pgrep -x dockerd >/dev/null 2>&1; then
      echo "  A dockerd runs (pid $(pgrep -x dockerd | tr '\n' ' ' | sed 's/ $//')) but does not answer; a second one was not started." >&2
    else
      echo "  Start it with: sudo systemctl start docker   (or: sudo dockerd &)" >&2
    fi
    exit 1
  fi
fi
echo "setup-docker: Docker $(docker version --format '{{.Server.Version}}') is ready"
# the report tests open pages in a real browser
bash "$(dirname "$0")/setup-browser.sh"

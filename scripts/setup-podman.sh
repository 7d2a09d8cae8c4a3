#!/usr/bin/env bash
# Makes Podman's Docker-compatible service available for `[run] provider = "podman"` (docs/podman.md)
# and its tests: installs Debian's podman when missing (as root), starts `podman system service`
# rootful on its own socket when nothing answers there (never a second one), and waits for it to
# answer. It never touches Docker's daemon. CONTAINER_HOST (Podman's own variable) names another
# socket; one that names a service elsewhere (tcp://, ssh://) is only checked.
set -euo pipefail

url=${CONTAINER_HOST:-unix:///run/podman/podman.sock}
log=/var/log/benchrig-podman.log
answers() { timeout 20 podman --url "$url" version >/dev/null 2>&1; }

need_install=()
command -v podman >/dev/null 2>&1 || need_install+=(podman)
# Every sandbox runs under an init (HostConfig.Init); Podman's is catatonit, a package of its own.
[ -x /usr/libexec/podman/catatonit ] || [ -x /usr/bin/catatonit ] || need_install+=(catatonit)
. "$(dirname "$0")/install-lib.sh"
install_missing setup-podman https://podman.io/docs/installation ${need_install[@]+"${need_install[@]}"}

# Rootful Podman gives every container RLIMIT_NOFILE and RLIMIT_NPROC of 1048576 (Docker: its daemon's
# own). Where root cannot raise its hard limits that far (a VM's, a container's), every start fails
# ("error setting rlimit type 7"): the containers get the limits Podman itself runs with instead,
# its machine's hard nofile and at most the 32768 processes Podman gives itself (strace shows its
# setrlimit(RLIMIT_NPROC, 32768)). Written before the service starts: it reads the file then.
conf=/etc/containers/containers.conf.d/50-benchrig-ulimits.conf
if [ "$(id -u)" = 0 ] && ! (ulimit -Hn 1048576) 2>/dev/null; then
  nproc=$(ulimit -Hu)
  { [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; } && nproc=32768
  want=$(printf '# Written by benchrig scripts/setup-podman.sh: this machine caps root'"'"'s rlimits.\n[containers]\ndefault_ulimits = ["nofile=%s:%s", "nproc=%s:%s"]\n' \
    "$(ulimit -Hn)" "$(ulimit -Hn)" "$nproc" "$nproc")
  if [ "$(cat "$conf" 2>/dev/null)" != "$(printf '%b' "$want")" ]; then
    echo "setup-podman: this machine caps root's rlimits: containers get nofile $(ulimit -Hn), nproc $nproc ($conf)"
    mkdir -p "$(dirname "$conf")"
    printf '%b\n' "$want" >"$conf"
  fi
fi

# Docker sets iptables' FORWARD policy to DROP, and frames crossing a bridge go through iptables
# (br_netfilter): two containers of one internal Podman network, for which netavark adds no rule,
# could not reach each other. One rule in DOCKER-USER (the chain Docker leaves to the machine's
# admin) accepts frames bridged within one Podman bridge: never routed from one network to another.
if [ "$(id -u)" = 0 ] && command -v iptables >/dev/null 2>&1 && iptables -S DOCKER-USER >/dev/null 2>&1; then
  rule=(-i podman+ -o podman+ -m physdev --physdev-is-bridged -j ACCEPT)
  if ! iptables -C DOCKER-USER "${rule[@]}" 2>/dev/null; then
    echo "setup-podman: Docker's FORWARD policy drops bridged frames: accepting those within one Podman bridge (DOCKER-USER)"
    iptables -I DOCKER-USER "${rule[@]}"
  fi
fi

if ! answers; then
  case $url in
    unix://*) sock=${url#unix://} ;;
    *)
      echo "setup-podman: Podman at CONTAINER_HOST=$url does not answer; nothing was started here." >&2
      echo "  Start that service, correct CONTAINER_HOST, or unset it to use (and start) the local one." >&2
      exit 1
      ;;
  esac
  # The service of this socket may be starting up: wait for it rather than start a second one.
  if pgrep -f "podman system service.* $url" >/dev/null 2>&1; then
    echo "setup-podman: a Podman service for $url runs but does not answer yet; waiting for it"
  elif [ "$(id -u)" = 0 ]; then
    echo "setup-podman: starting podman system service on $url (log: $log)"
    mkdir -p "$(dirname "$sock")"
    # --time=0: it never exits for want of clients; its log is appended to, never truncated.
    # From /: the service's containers' conmon inherits its working folder, and a clone of this
    # repository that is deleted later would leave every new container failing to start.
    nohup env -C / podman system service --time=0 "$url" >>"$log" 2>&1 &
  else
    echo "setup-podman: the rootful Podman service is started as root: run this script as root" >&2
    exit 1
  fi
  for _ in $(seq 1 60); do
    answers && break
    sleep 1
  done
  if ! answers; then
    echo "setup-podman: Podman does not answer at $url (see $log)." >&2
    exit 1
  fi
fi
echo "setup-podman: Podman $(podman --url "$url" version --format '{{.Server.Version}}') is ready at $url"

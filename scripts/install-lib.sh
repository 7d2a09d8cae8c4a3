# Sourced by the setup scripts (setup-docker.sh, setup-podman.sh): installs what is missing from the
# distribution's packages (Debian/Ubuntu, as root), else says what to do and exits 1.
# install_missing WHO ELSEWHERE [PACKAGE...]: WHO names the script in messages, ELSEWHERE the remedy
# off Debian; no package: nothing to do.
install_missing() {
  local who=$1 elsewhere=$2
  shift 2
  [ $# -gt 0 ] || return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "$who: installing $* from the distribution's packages"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "$@" >/dev/null
  else
    echo "$who: missing $*." >&2
    echo "  On Debian/Ubuntu run as root: apt-get install -y $*" >&2
    echo "  Elsewhere: $elsewhere" >&2
    exit 1
  fi
}

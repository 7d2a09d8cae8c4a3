#!/usr/bin/env bash
# Builds the `docker compose` v2 CLI plugin from the Go module proxy into the peers' cache folder,
# once, for the perf suite's Inspect AI and Harbor comparisons (docs/performance.md): both drive
# their docker environments through `docker compose`, which Debian's docker.io does not ship.
# Nothing enters the repository. Prints the plugin's path on stdout; a second call only prints it.
#
#   scripts/build-compose.sh [VERSION]     (default v2.40.3)
#
# The plugin is placed in the cache folder and linked from ~/.docker/cli-plugins/docker-compose
# (where the docker CLI looks), unless a docker compose there already is another file.
# v2.40.3 talks to Docker Engine 20.10 (API 1.41): the client negotiates the API version down.
set -euo pipefail

version=${1:-v2.40.3}
cache=${BENCHRIG_PEER_CACHE:-/var/cache/benchrig/peers}
gocache=${BENCHRIG_CACHE:-/var/cache/benchrig}/go
dir=$cache/compose-$version
bin=$dir/docker-compose
plugins=${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins

link() {
  mkdir -p "$plugins"
  if [ -L "$plugins/docker-compose" ] || [ ! -e "$plugins/docker-compose" ]; then
    ln -sfn "$bin" "$plugins/docker-compose"
  fi
  echo "$bin"
}

if [ -x "$bin" ] && "$bin" version >/dev/null 2>&1; then
  link
  exit 0
fi

command -v go >/dev/null 2>&1 || { echo "build-compose: no \`go\` on PATH (Debian: apt-get install golang-go)" >&2; exit 1; }
echo "build-compose: building docker compose $version from the Go module proxy into $dir (once)" >&2
export GOMODCACHE=$gocache/mod GOCACHE=$gocache/build GOFLAGS=-mod=mod CGO_ENABLED=0
# The module has `exclude` directives, which `go install pkg@version` refuses: build from its source.
src=$(go mod download -json "github.com/docker/compose/v2@$version" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')
[ -d "$src" ] || { echo "build-compose: go mod download gave no source folder for $version" >&2; exit 1; }
work=$(mktemp -d)
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cp -r "$src/." "$work/"
chmod -R u+w "$work"
mkdir -p "$dir"
(cd "$work" && go build -trimpath \
  -ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=$version" \
  -o "$bin.tmp" ./cmd)
mv "$bin.tmp" "$bin"
link

#!/usr/bin/env bash
# Builds the binaries of the local cluster (docs/kubernetes.md, "a local cluster") once into the
# cache, from the module proxy Go's own configuration names (`go env GOPROXY`): the Kubernetes
# components into $BENCHRIG_CACHE/k8s/<version>/bin, kube-router, CoreDNS and the pause binary into
# $BENCHRIG_CACHE/k8s/addons/bin. A binary already built is never built again. Arguments name what to build (default: everything): Kubernetes commands
# (kube-apiserver, kubelet, ...), pause, kube-router, coredns.
#
# k8s.io/kubernetes replaces its staging modules (k8s.io/api, ...) with folders its module zip does not
# hold, so `go install k8s.io/kubernetes/cmd/x@version` refuses it: a small builder module requires it
# and replaces each staging module with the published k8s.io/<name> v0.<minor>.<patch> instead.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/k8s-env.sh"

export GOPATH=$k8s_cache/go GOMODCACHE=$k8s_cache/go/mod GOCACHE=$k8s_cache/go/build
export CGO_ENABLED=0 GOTOOLCHAIN=${GOTOOLCHAIN:-local}

cmds=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)
addons=(pause kube-router coredns)
if [ $# -gt 0 ]; then
  cmds=() addons=()
  for a in "$@"; do
    case $a in pause | kube-router | coredns) addons+=("$a") ;; *) cmds+=("$a") ;; esac
  done
fi

timed() { # name command...: runs a build at low priority and says how long it took
  local name=$1 start; shift
  start=$(date +%s)
  echo "k8s-build: building $name (first time only) ..."
  nice -n 10 "$@"
  echo "k8s-build: $name built in $(($(date +%s) - start))s"
}

build_kubernetes() {
  local src=$k8s_cache/k8s/$K8S_VERSION/builder missing=() c
  for c in ${cmds[@]+"${cmds[@]}"}; do [ -x "$k8s_bin/$c" ] || missing+=("$c"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  mkdir -p "$k8s_bin" "$src"
  if [ ! -f "$src/go.mod" ]; then
    # Fetched by `go` itself, from wherever its configuration says (no address named here).
    local mod
    mod=$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | awk -F'"' '$2 == "GoMod" { print $4 }')
    [ -s "$mod" ] || { echo "k8s-build: go mod download k8s.io/kubernetes@$K8S_VERSION gave no go.mod (see go env GOPROXY)" >&2; exit 1; }
    cp "$mod" "$src/kubernetes.mod"
    {
      printf 'module benchrig.local/k8sbuild\n\n%s\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n' \
        "$(grep -m1 '^go ' "$src/kubernetes.mod")" "$K8S_VERSION"
      grep '=> ./staging/' "$src/kubernetes.mod" | awk -v v="v0.${K8S_VERSION#v1.}" '{print "\t" $1 " => " $1 " " v}'
      echo ")"
    } >"$src/go.mod.tmp"
    mv "$src/go.mod.tmp" "$src/go.mod"
  fi
  local minor=${K8S_VERSION#v1.} ldflags="-s -w" kv
  minor=${minor%%.*}
  for kv in "gitVersion=$K8S_VERSION" "gitMajor=1" "gitMinor=$minor" "gitTreeState=clean" "buildDate=1970-01-01T00:00:00Z"; do
    ldflags="$ldflags -X k8s.io/component-base/version.$kv -X k8s.io/client-go/pkg/version.$kv"
  done
  for c in "${missing[@]}"; do
    [ -x "$k8s_bin/$c" ] && continue # built meanwhile by another k8s-build.sh
    (cd "$src" && GOFLAGS="-mod=mod -buildvcs=false" timed "$c $K8S_VERSION" \
      go build -trimpath -ldflags "$ldflags" -o "$k8s_bin/$c.tmp.$$" "k8s.io/kubernetes/cmd/$c")
    mv "$k8s_bin/$c.tmp.$$" "$k8s_bin/$c"
  done
}

# The sandbox's pause process: PID 1 of every pod, it reaps orphans and ends on SIGTERM/SIGINT.
build_pause() {
  [ -x "$addon_bin/pause" ] && return 0
  local src=$k8s_cache/k8s/addons/pause
  mkdir -p "$src" "$addon_bin"
  cat >"$src/main.go" <<'GO'
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	child := make(chan os.Signal, 16)
	signal.Notify(child, syscall.SIGCHLD)
	for {
		select {
		case <-stop:
			os.Exit(0)
		case <-child:
			for {
				pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
				if pid <= 0 || err != nil {
					break
				}
			}
		}
	}
}
GO
  printf 'module benchrig.local/pause\n\ngo 1.21\n' >"$src/go.mod"
  (cd "$src" && GOFLAGS=-buildvcs=false timed pause go build -trimpath -ldflags "-s -w" -o "$addon_bin/pause.tmp" .)
  mv "$addon_bin/pause.tmp" "$addon_bin/pause"
}

# kube-router enforces NetworkPolicy with iptables and ipsets; its module has no replace directives.
build_kube_router() {
  [ -x "$addon_bin/kube-router" ] && return 0
  mkdir -p "$addon_bin"
  GOBIN=$addon_bin GOFLAGS=-buildvcs=false timed "kube-router $KUBE_ROUTER_VERSION" \
    go install -trimpath -ldflags "-s -w" "github.com/cloudnativelabs/kube-router/v2/cmd/kube-router@$KUBE_ROUTER_VERSION"
}

# CoreDNS with only the plugins the cluster's DNS needs (its default build links every cloud's SDK).
build_coredns() {
  [ -x "$addon_bin/coredns" ] && return 0
  local src=$k8s_cache/k8s/addons/coredns-$COREDNS_VERSION
  mkdir -p "$src" "$addon_bin"
  cat >"$src/main.go" <<'GO'
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/forward"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/loadbalance"
	_ "github.com/coredns/coredns/plugin/log"
	_ "github.com/coredns/coredns/plugin/ready"
)

// the order in which the plugins run, as in CoreDNS's plugin.cfg
func init() {
	dnsserver.Directives = []string{"errors", "log", "health", "ready", "kubernetes", "loadbalance", "cache", "forward"}
}

func main() { coremain.Run() }
GO
  if [ ! -f "$src/go.mod" ]; then
    printf 'module benchrig.local/coredns\n\ngo 1.24.0\n\nrequire github.com/coredns/coredns %s\n' "$COREDNS_VERSION" >"$src/go.mod"
  fi
  (cd "$src" && GOFLAGS="-mod=mod -buildvcs=false" timed "coredns $COREDNS_VERSION" \
    go build -trimpath -ldflags "-s -w" -o "$addon_bin/coredns.tmp" .)
  mv "$addon_bin/coredns.tmp" "$addon_bin/coredns"
}

command -v go >/dev/null || { echo "k8s-build: go is missing (Go >= 1.25 builds Kubernetes $K8S_VERSION)" >&2; exit 1; }
build_kubernetes
for a in ${addons[@]+"${addons[@]}"}; do "build_${a//-/_}"; done

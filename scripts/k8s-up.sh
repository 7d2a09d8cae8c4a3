#!/usr/bin/env bash
# Starts a real single-node Kubernetes on this machine (docs/kubernetes.md, "a local cluster"): a
# registry on 127.0.0.1, etcd, a containerd of its own (Docker's is left alone), the control plane,
# the kubelet, kube-proxy, kube-router (NetworkPolicy) and CoreDNS, then a test namespace.
# Idempotent: what already runs is kept, what is missing is started; binaries come from the cache
# (scripts/k8s-build.sh builds them the first time). Stop and clean with scripts/k8s-down.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/k8s-env.sh"
. "$here/k8s-lib.sh"

t0=$(date +%s)
[ "$(id -u)" = 0 ] || die "must run as root (it starts a kubelet and a containerd)"
install_missing_packages
"$here/k8s-build.sh"
t_built=$(date +%s)

NODE_IP=$(node_ip)
[ -n "$NODE_IP" ] || die "no IPv4 address with a default route; set BENCHRIG_K8S_NODE_IP"
mkdir -p "$k8s_state" "$k8s_run" "$k8s_log" "$k8s_pki"
prepare_host
make_pki
write_configs

start_registry
start_etcd
start_containerd
import_pause_image
start_apiserver
bootstrap_objects
start_controller_manager
start_scheduler
start_kubelet
start_kube_proxy
start_kube_router
start_coredns
wait_node_ready

echo "k8s-up: cluster ready in $(($(date +%s) - t0))s (builds and package installs: $((t_built - t0))s)"
echo "  export KUBECONFIG=$KUBECONFIG_ADMIN    # kubectl: $k8s_bin/kubectl"
echo "  namespace: $K8S_NAMESPACE   registry: $K8S_REGISTRY (plain http)   logs: $k8s_log"

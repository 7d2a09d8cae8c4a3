# Shared settings of the local cluster (docs/kubernetes.md, "a local cluster"); sourced by
# k8s-build.sh, k8s-up.sh, k8s-down.sh and k8s-smoke.sh. Every value can be overridden from the
# environment.
K8S_VERSION=${K8S_VERSION:-v1.34.12}
KUBE_ROUTER_VERSION=${KUBE_ROUTER_VERSION:-v2.1.0}
COREDNS_VERSION=${COREDNS_VERSION:-v1.14.7}

k8s_cache=${BENCHRIG_CACHE:-/var/cache/benchrig}
# binaries, built once and shared by every start (and by machines that share the cache)
k8s_bin=$k8s_cache/k8s/$K8S_VERSION/bin
addon_bin=$k8s_cache/k8s/addons/bin
# everything a running cluster holds: removed by k8s-down.sh
k8s_state=${BENCHRIG_K8S_STATE:-/var/lib/benchrig-k8s}
k8s_run=${BENCHRIG_K8S_RUN:-/run/benchrig-k8s}
k8s_pki=$k8s_state/pki
k8s_log=$k8s_state/log
KUBECONFIG_ADMIN=$k8s_state/admin.kubeconfig

K8S_NODE=${BENCHRIG_K8S_NODE:-benchrig-node}
K8S_NAMESPACE=${BENCHRIG_K8S_NAMESPACE:-benchrig-test}
K8S_API_PORT=${BENCHRIG_K8S_API_PORT:-6443}
K8S_ETCD_PORT=${BENCHRIG_K8S_ETCD_PORT:-23790}
K8S_REGISTRY=${BENCHRIG_K8S_REGISTRY:-127.0.0.1:5100}
K8S_POD_CIDR=${BENCHRIG_K8S_POD_CIDR:-10.244.0.0/16}
K8S_NODE_POD_CIDR=${BENCHRIG_K8S_NODE_POD_CIDR:-10.244.0.0/24}
K8S_SERVICE_CIDR=${BENCHRIG_K8S_SERVICE_CIDR:-10.96.0.0/16}
K8S_API_SERVICE_IP=${BENCHRIG_K8S_API_SERVICE_IP:-10.96.0.1}
K8S_DNS_IP=${BENCHRIG_K8S_DNS_IP:-10.96.0.10}
K8S_DNS_PORT=${BENCHRIG_K8S_DNS_PORT:-1053}
K8S_BRIDGE=${BENCHRIG_K8S_BRIDGE:-benchk8s0}
K8S_PAUSE_IMAGE=benchrig.local/pause:1
containerd_sock=$k8s_run/containerd/containerd.sock

# the address pods reach the host at (the API server advertises it, CoreDNS listens on it)
node_ip() {
  if [ -n "${BENCHRIG_K8S_NODE_IP:-}" ]; then echo "$BENCHRIG_K8S_NODE_IP"; return; fi
  ip -4 route get 1.1.1.1 2>/dev/null | sed -n 's/.* src \([0-9.]*\).*/\1/p' | head -n 1
}

kc() { "$k8s_bin/kubectl" --kubeconfig "$KUBECONFIG_ADMIN" "$@"; }

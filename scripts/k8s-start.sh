# The daemons of the local cluster, in start order (docs/kubernetes.md, "a local cluster"); sourced
# by k8s-lib.sh. Each start_* keeps a daemon that already runs and waits until it answers.

pki_curl() { curl -fsS --cacert "$k8s_pki/ca.crt" --cert "$k8s_pki/admin.crt" --key "$k8s_pki/admin.key" "$@"; }
ctr_k8s() { ctr --address "$containerd_sock" --namespace k8s.io "$@"; }

start_registry() {
  start_daemon registry docker-registry serve "$k8s_state/registry/config.yml"
  wait_until 30 registry "an answer on http://$K8S_REGISTRY/v2/" curl -fsS "http://$K8S_REGISTRY/v2/"
}

start_etcd() {
  local client=http://127.0.0.1:$K8S_ETCD_PORT peer=http://127.0.0.1:$((K8S_ETCD_PORT + 10))
  start_daemon etcd "$(command -v etcd)" --logger=zap --name benchrig --data-dir "$k8s_state/etcd" \
    --listen-client-urls "$client" --advertise-client-urls "$client" \
    --listen-peer-urls "$peer" --initial-advertise-peer-urls "$peer" --initial-cluster "benchrig=$peer"
  wait_until 60 etcd "health on $client" curl -fsS "$client/health"
}

start_containerd() {
  mkdir -p "$k8s_run/containerd"
  start_daemon containerd "$(command -v containerd)" --config "$k8s_state/containerd/config.toml"
  wait_until 60 containerd "an answer on $containerd_sock" ctr --address "$containerd_sock" version
}

import_pause_image() {
  ctr_k8s images ls -q | grep -xF "$K8S_PAUSE_IMAGE" >/dev/null && return 0
  local root
  root=$(mktemp -d)
  install -m 755 "$addon_bin/pause" "$root/pause"
  oci_image "$K8S_PAUSE_IMAGE" "$root" '["/pause"]' "$root.tar"
  ctr_k8s images import --no-unpack "$root.tar" >/dev/null
  rm -rf "$root" "$root.tar"
  ctr_k8s images ls -q | grep -xF "$K8S_PAUSE_IMAGE" >/dev/null || die "the pause image did not import into containerd"
}

start_apiserver() {
  start_daemon kube-apiserver "$k8s_bin/kube-apiserver" \
    --etcd-servers="http://127.0.0.1:$K8S_ETCD_PORT" \
    --secure-port="$K8S_API_PORT" --bind-address=0.0.0.0 --advertise-address="$NODE_IP" \
    --service-cluster-ip-range="$K8S_SERVICE_CIDR" \
    --client-ca-file="$k8s_pki/ca.crt" \
    --tls-cert-file="$k8s_pki/apiserver.crt" --tls-private-key-file="$k8s_pki/apiserver.key" \
    --kubelet-client-certificate="$k8s_pki/apiserver-kubelet-client.crt" \
    --kubelet-client-key="$k8s_pki/apiserver-kubelet-client.key" \
    --kubelet-certificate-authority="$k8s_pki/ca.crt" \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$k8s_pki/sa.pub" --service-account-signing-key-file="$k8s_pki/sa.key" \
    --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
    --kubelet-preferred-address-types=InternalIP,Hostname \
    --allow-privileged=true --profiling=false
  wait_until 120 kube-apiserver "readiness on port $K8S_API_PORT" pki_curl "https://127.0.0.1:$K8S_API_PORT/readyz"
}

# the test namespace, RBAC for the add-ons that run on the host, and the kube-dns Service
bootstrap_objects() {
  kc apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Namespace
metadata: {name: $K8S_NAMESPACE}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: "benchrig:host-addons"}
rules:
- apiGroups: [""]
  resources: [namespaces, pods, services, endpoints, nodes]
  verbs: [get, list, watch]
- apiGroups: [discovery.k8s.io]
  resources: [endpointslices]
  verbs: [get, list, watch]
- apiGroups: [networking.k8s.io]
  resources: [networkpolicies]
  verbs: [get, list, watch]
- apiGroups: ["", events.k8s.io]
  resources: [events]
  verbs: [create, patch, update]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: "benchrig:host-addons"}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "benchrig:host-addons"}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: "benchrig:kube-router"}
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: "benchrig:coredns"}
---
apiVersion: v1
kind: Service
metadata:
  name: kube-dns
  namespace: kube-system
  labels: {k8s-app: kube-dns}
spec:
  clusterIP: $K8S_DNS_IP
  ports:
  - {name: dns, port: 53, protocol: UDP, targetPort: $K8S_DNS_PORT}
  - {name: dns-tcp, port: 53, protocol: TCP, targetPort: $K8S_DNS_PORT}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: kube-dns-host
  namespace: kube-system
  labels: {kubernetes.io/service-name: kube-dns, endpointslice.kubernetes.io/managed-by: benchrig}
addressType: IPv4
endpoints: [{addresses: [$NODE_IP], conditions: {ready: true}}]
ports:
- {name: dns, port: $K8S_DNS_PORT, protocol: UDP}
- {name: dns-tcp, port: $K8S_DNS_PORT, protocol: TCP}
EOF
}

start_controller_manager() {
  local kcfg=$k8s_state/controller-manager.kubeconfig
  start_daemon kube-controller-manager "$k8s_bin/kube-controller-manager" \
    --kubeconfig="$kcfg" --authentication-kubeconfig="$kcfg" --authorization-kubeconfig="$kcfg" \
    --bind-address=127.0.0.1 --leader-elect=false \
    --cluster-signing-cert-file="$k8s_pki/ca.crt" --cluster-signing-key-file="$k8s_pki/ca.key" \
    --root-ca-file="$k8s_pki/ca.crt" --service-account-private-key-file="$k8s_pki/sa.key" \
    --use-service-account-credentials=true \
    --allocate-node-cidrs=true --cluster-cidr="$K8S_POD_CIDR" --node-cidr-mask-size=24 \
    --service-cluster-ip-range="$K8S_SERVICE_CIDR"
  wait_until 60 kube-controller-manager "health on port 10257" curl -fsSk https://127.0.0.1:10257/healthz
}

start_scheduler() {
  local kcfg=$k8s_state/scheduler.kubeconfig
  start_daemon kube-scheduler "$k8s_bin/kube-scheduler" \
    --kubeconfig="$kcfg" --authentication-kubeconfig="$kcfg" --authorization-kubeconfig="$kcfg" \
    --bind-address=127.0.0.1 --leader-elect=false
  wait_until 60 kube-scheduler "health on port 10259" curl -fsSk https://127.0.0.1:10259/healthz
}

start_kubelet() {
  start_daemon kubelet "$k8s_bin/kubelet" --config="$k8s_state/kubelet/config.yaml" \
    --kubeconfig="$k8s_state/kubelet.kubeconfig" --root-dir="$k8s_state/kubelet" \
    --hostname-override="$K8S_NODE" --node-ip="$NODE_IP"
  wait_until 120 kubelet "health on 127.0.0.1:10248" curl -fsS http://127.0.0.1:10248/healthz
}

start_kube_proxy() {
  start_daemon kube-proxy "$k8s_bin/kube-proxy" --config="$k8s_state/kube-proxy.yaml"
  wait_until 60 kube-proxy "health on 127.0.0.1:10256" curl -fsS http://127.0.0.1:10256/healthz
}

start_kube_router() {
  start_daemon kube-router "$addon_bin/kube-router" --kubeconfig="$k8s_state/kube-router.kubeconfig" \
    --run-firewall=true --run-router=false --run-service-proxy=false \
    --hostname-override="$K8S_NODE" --service-cluster-ip-range="$K8S_SERVICE_CIDR" \
    --health-port=20244 --metrics-port=0
  wait_until 60 kube-router "health on 127.0.0.1:20244" curl -fsS http://127.0.0.1:20244/healthz
}

start_coredns() {
  start_daemon coredns "$addon_bin/coredns" -conf "$k8s_state/coredns/Corefile"
  wait_until 60 coredns "readiness on 127.0.0.1:18181" curl -fsS http://127.0.0.1:18181/ready
}

wait_node_ready() {
  wait_until 120 kubelet "node $K8S_NODE registered" kc get node "$K8S_NODE"
  wait_until 120 kubelet "node $K8S_NODE Ready" kc wait --for=condition=Ready "node/$K8S_NODE" --timeout=5s
  wait_until 60 kube-controller-manager "the default service account in $K8S_NAMESPACE" \
    kc -n "$K8S_NAMESPACE" get serviceaccount default
}

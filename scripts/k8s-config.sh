# Configuration files of the local cluster (docs/kubernetes.md, "a local cluster"); sourced by
# k8s-lib.sh. Written at every start, but only where their content changed (kube-proxy exits when
# its file is touched); a daemon that runs reads a changed file when it is started again.

put() { # FILE: stdin becomes FILE unless FILE already holds exactly that
  local tmp=$1.new
  cat >"$tmp"
  if cmp -s "$tmp" "$1"; then rm -f "$tmp"; else mv "$tmp" "$1"; fi
}

write_configs() {
  local k restrict_oom=false
  # CAP_SYS_RESOURCE is bit 24 of the bounding set
  (($(printf '%d' "0x$(awk '/^CapBnd/ {print $2}' /proc/self/status)") >> 24 & 1)) || restrict_oom=true
  for k in admin controller-manager scheduler kubelet kube-proxy kube-router coredns; do kubeconfig "$k" "$k"; done
  mkdir -p "$k8s_state/containerd/certs.d/$K8S_REGISTRY" "$k8s_state/cni/net.d" "$k8s_state/kubelet" \
    "$k8s_state/registry" "$k8s_state/coredns"

  put "$k8s_state/registry/config.yml" <<EOF
version: 0.1
log: {level: warn}
storage:
  filesystem: {rootdirectory: $k8s_state/registry/data}
  delete: {enabled: true}
http: {addr: $K8S_REGISTRY}
EOF

  # a containerd of its own: its own root, state and socket; Docker's containerd is not touched
  put "$k8s_state/containerd/config.toml" <<EOF
version = 2
root = "$k8s_state/containerd/root"
state = "$k8s_run/containerd/state"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper"]
[grpc]
  address = "$containerd_sock"
[plugins."io.containerd.internal.v1.opt"]
  path = "$k8s_state/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$K8S_PAUSE_IMAGE"
  netns_mounts_under_state_dir = true
  # without CAP_SYS_RESOURCE (containers, some VMs) no process may lower its oom_score_adj, and the
  # pause container's -998 makes runc fail: clamp to containerd's own score where that is the case
  restrict_oom_score_adj = $restrict_oom
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$k8s_state/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = "$k8s_state/containerd/certs.d"
EOF
  # the cluster's registry speaks plain http on loopback
  put "$k8s_state/containerd/certs.d/$K8S_REGISTRY/hosts.toml" <<EOF
server = "http://$K8S_REGISTRY"
[host."http://$K8S_REGISTRY"]
  capabilities = ["pull", "resolve", "push"]
EOF

  put "$k8s_state/cni/net.d/10-benchrig.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "benchrig-k8s",
  "plugins": [
    {
      "type": "bridge", "bridge": "$K8S_BRIDGE", "isGateway": true, "ipMasq": true, "hairpinMode": true,
      "ipam": {
        "type": "host-local", "dataDir": "$k8s_state/cni/ipam",
        "ranges": [[{ "subnet": "$K8S_NODE_POD_CIDR" }]], "routes": [{ "dst": "0.0.0.0/0" }]
      }
    },
    { "type": "portmap", "capabilities": { "portMappings": true } },
    { "type": "firewall", "backend": "iptables" }
  ]
}
EOF

  put "$k8s_state/kubelet/config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: true}
  x509: {clientCAFile: $k8s_pki/ca.crt}
authorization: {mode: Webhook}
tlsCertFile: $k8s_pki/kubelet-serving.crt
tlsPrivateKeyFile: $k8s_pki/kubelet-serving.key
containerRuntimeEndpoint: unix://$containerd_sock
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
clusterDomain: cluster.local
clusterDNS: [$K8S_DNS_IP]
resolvConf: /etc/resolv.conf
podCIDR: $K8S_NODE_POD_CIDR
healthzBindAddress: 127.0.0.1
serializeImagePulls: false
evictionHard: {memory.available: 100Mi, nodefs.available: 2%, imagefs.available: 2%, nodefs.inodesFree: 2%}
imageGCHighThresholdPercent: 98
imageGCLowThresholdPercent: 95
EOF

  put "$k8s_state/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $k8s_state/kube-proxy.kubeconfig}
hostnameOverride: $K8S_NODE
mode: iptables
clusterCIDR: $K8S_POD_CIDR
metricsBindAddress: 127.0.0.1:10249
healthzBindAddress: 127.0.0.1:10256
iptables: {localhostNodePorts: false}
conntrack: {maxPerCore: 0, min: 0}
nodePortAddresses: [primary]
EOF

  # CoreDNS runs on the host; the kube-dns Service sends port 53 of $K8S_DNS_IP to it
  put "$k8s_state/coredns/Corefile" <<EOF
.:$K8S_DNS_PORT {
  errors
  ready 127.0.0.1:18181
  kubernetes cluster.local in-addr.arpa ip6.arpa {
    kubeconfig $k8s_state/coredns.kubeconfig benchrig-local
    pods insecure
    fallthrough in-addr.arpa ip6.arpa
    ttl 5
  }
  cache 5
  forward . /etc/resolv.conf
  loadbalance
}
EOF
}

# oci_image NAME ROOTDIR ENTRYPOINT_JSON OUT.tar: a one-layer OCI image archive of ROOTDIR, for
# `ctr images import` (no Docker needed).
oci_image() {
  local name=$1 root=$2 entry=$3 out=$4 tmp ld ls cd cs md ms
  tmp=$(mktemp -d)
  mkdir -p "$tmp/blobs/sha256"
  tar --numeric-owner --owner=0 --group=0 --mtime=@0 --sort=name -C "$root" -cf "$tmp/layer.tar" .
  ld=$(sha256sum "$tmp/layer.tar" | cut -d' ' -f1)
  ls=$(stat -c %s "$tmp/layer.tar")
  mv "$tmp/layer.tar" "$tmp/blobs/sha256/$ld"
  printf '{"architecture":"amd64","os":"linux","config":{"Entrypoint":%s,"Env":["PATH=/bin"]},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
    "$entry" "$ld" >"$tmp/config"
  cd=$(sha256sum "$tmp/config" | cut -d' ' -f1)
  cs=$(stat -c %s "$tmp/config")
  mv "$tmp/config" "$tmp/blobs/sha256/$cd"
  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:%s","size":%s}]}' \
    "$cd" "$cs" "$ld" "$ls" >"$tmp/manifest"
  md=$(sha256sum "$tmp/manifest" | cut -d' ' -f1)
  ms=$(stat -c %s "$tmp/manifest")
  mv "$tmp/manifest" "$tmp/blobs/sha256/$md"
  printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s,"platform":{"architecture":"amd64","os":"linux"},"annotations":{"io.containerd.image.name":"%s","org.opencontainers.image.ref.name":"%s"}}]}' \
    "$md" "$ms" "$name" "${name##*:}" >"$tmp/index.json"
  echo '{"imageLayoutVersion":"1.0.0"}' >"$tmp/oci-layout"
  tar -C "$tmp" -cf "$out" oci-layout index.json blobs
  rm -rf "$tmp"
}

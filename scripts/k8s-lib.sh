# Functions of scripts/k8s-up.sh (docs/kubernetes.md, "a local cluster"). Sourced after k8s-env.sh.

die() {
  echo "k8s-up: $*" >&2
  exit 1
}

install_missing_packages() {
  local need=() pair
  for pair in etcd:etcd-server containerd:containerd runc:runc ctr:containerd docker-registry:docker-registry \
    ipset:ipset conntrack:conntrack iptables:iptables openssl:openssl curl:curl busybox:busybox-static; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
  done
  [ -x /usr/lib/cni/bridge ] && [ -x /usr/lib/cni/firewall ] || need+=(containernetworking-plugins)
  [ ${#need[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null 2>&1 || die "missing packages ${need[*]} and no apt-get to install them"
  echo "k8s-up: installing ${need[*]} from the distribution's packages"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null; }
}

prepare_host() {
  sysctl -qw net.ipv4.ip_forward=1
  [ -e /proc/sys/net/bridge/bridge-nf-call-iptables ] || modprobe br_netfilter 2>/dev/null || true
  [ -e /proc/sys/net/bridge/bridge-nf-call-iptables ] ||
    die "the kernel has no br_netfilter: NetworkPolicy between pods on the node's bridge cannot be enforced"
  sysctl -qw net.bridge.bridge-nf-call-iptables=1
  local cg
  cg=$(stat -fc %T /sys/fs/cgroup)
  if [ "$cg" != cgroup2fs ]; then
    [ -d /sys/fs/cgroup/memory ] && [ -d /sys/fs/cgroup/cpu ] && [ -d /sys/fs/cgroup/pids ] ||
      die "cgroup v1 without the memory, cpu or pids hierarchy mounted under /sys/fs/cgroup"
  fi
}

# --- daemons: a pid file per daemon in $k8s_run, its log in $k8s_log -------------------------------

running() {
  local f=$k8s_run/$1.pid pid exe
  [ -f "$f" ] || return 1
  read -r pid exe <"$f"
  kill -0 "$pid" 2>/dev/null && [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$exe" ]
}

start_daemon() { # name binary args...
  local name=$1
  shift
  running "$name" && return 0
  local exe pid i
  exe=$(readlink -f "$(command -v "$1")")
  setsid "$@" >>"$k8s_log/$name.log" 2>&1 </dev/null &
  pid=$!
  echo "$pid $exe" >"$k8s_run/$name.pid"
  # until setsid has exec'd the daemon, /proc/<pid>/exe is not the daemon's binary yet
  for ((i = 0; i < 100; i++)); do
    [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$exe" ] && break
    sleep 0.05
  done
  echo "k8s-up: started $name (log $k8s_log/$name.log)"
}

wait_until() { # seconds name what command...: until the command succeeds, while the daemon runs
  local secs=$1 name=$2 what=$3 i
  shift 3
  for ((i = 0; i < secs * 4; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    if ! running "$name"; then
      tail -n 20 "$k8s_log/$name.log" >&2 || true
      die "$name exited before $what (log $k8s_log/$name.log)"
    fi
    sleep 0.25
  done
  tail -n 20 "$k8s_log/$name.log" >&2 || true
  die "$name: no $what after ${secs}s (log $k8s_log/$name.log)"
}

# --- certificates ------------------------------------------------------------------------------------

cert() { # name subject ext [SANs]: a key and a certificate signed by the cluster's CA
  local name=$1 subj=$2 usage=$3 san=${4:-}
  [ -f "$k8s_pki/$name.crt" ] && return 0
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$k8s_pki/$name.key" -out "$k8s_pki/$name.csr" \
    -subj "$subj" 2>/dev/null
  {
    echo "keyUsage=critical,digitalSignature,keyEncipherment"
    echo "extendedKeyUsage=$usage"
    [ -n "$san" ] && echo "subjectAltName=$san"
  } >"$k8s_pki/$name.ext"
  openssl x509 -req -in "$k8s_pki/$name.csr" -CA "$k8s_pki/ca.crt" -CAkey "$k8s_pki/ca.key" \
    -CAcreateserial -days 3650 -sha256 -extfile "$k8s_pki/$name.ext" -out "$k8s_pki/$name.crt" 2>/dev/null
  rm -f "$k8s_pki/$name.csr" "$k8s_pki/$name.ext"
}

make_pki() {
  # a new node address needs new serving certificates (keys are ECDSA P-256: quick to make)
  if [ "$(cat "$k8s_pki/node-ip" 2>/dev/null)" != "$NODE_IP" ]; then
    rm -f "$k8s_pki/apiserver.crt" "$k8s_pki/kubelet-serving.crt"
    echo "$NODE_IP" >"$k8s_pki/node-ip"
  fi
  if [ ! -f "$k8s_pki/ca.crt" ]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$k8s_pki/ca.key" -out "$k8s_pki/ca.crt" \
      -days 3650 -subj "/CN=benchrig-k8s-ca" 2>/dev/null
  fi
  if [ ! -f "$k8s_pki/sa.pub" ]; then
    openssl ecparam -name prime256v1 -genkey -noout -out "$k8s_pki/sa.key" 2>/dev/null
    openssl ec -in "$k8s_pki/sa.key" -pubout -out "$k8s_pki/sa.pub" 2>/dev/null
  fi
  cert apiserver "/CN=kube-apiserver" serverAuth \
    "DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,DNS:localhost,IP:127.0.0.1,IP:$K8S_API_SERVICE_IP,IP:$NODE_IP"
  cert kubelet-serving "/O=system:nodes/CN=system:node:$K8S_NODE" serverAuth "DNS:$K8S_NODE,IP:$NODE_IP,IP:127.0.0.1"
  cert apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" clientAuth
  cert admin "/O=system:masters/CN=benchrig-admin" clientAuth
  cert controller-manager "/CN=system:kube-controller-manager" clientAuth
  cert scheduler "/CN=system:kube-scheduler" clientAuth
  cert kubelet "/O=system:nodes/CN=system:node:$K8S_NODE" clientAuth
  cert kube-proxy "/CN=system:kube-proxy" clientAuth
  cert kube-router "/CN=benchrig:kube-router" clientAuth
  cert coredns "/CN=benchrig:coredns" clientAuth
  chmod 600 "$k8s_pki"/*.key
}

kubeconfig() { # name cert
  put "$k8s_state/$1.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: benchrig-local
  cluster:
    server: https://127.0.0.1:$K8S_API_PORT
    certificate-authority: $k8s_pki/ca.crt
users:
- name: $2
  user:
    client-certificate: $k8s_pki/$2.crt
    client-key: $k8s_pki/$2.key
contexts:
- name: benchrig-local
  context:
    cluster: benchrig-local
    user: $2
    namespace: $K8S_NAMESPACE
current-context: benchrig-local
EOF
}

. "$(dirname "${BASH_SOURCE[0]}")/k8s-config.sh"
. "$(dirname "${BASH_SOURCE[0]}")/k8s-start.sh"

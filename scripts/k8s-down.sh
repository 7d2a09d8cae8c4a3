#!/usr/bin/env bash
# Stops the local cluster that scripts/k8s-up.sh started and removes its state (docs/kubernetes.md,
# "a local cluster"): pods, the daemons, their mounts, the node's bridge, the iptables rules and
# ipsets of kube-proxy, kube-router and the CNI plugins, the cgroups of the pods, etcd's data, the
# registry's images and the certificates. The binaries in $BENCHRIG_CACHE/k8s are kept. Safe to run
# when nothing runs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/k8s-env.sh"
. "$here/k8s-lib.sh"
[ "$(id -u)" = 0 ] || die "must run as root"

pid_of() {
  running "$1" || return 1
  cut -d' ' -f1 "$k8s_run/$1.pid"
}

stop_daemon() {
  local pid i
  pid=$(pid_of "$1") || return 0
  kill -TERM "$pid" 2>/dev/null
  for ((i = 0; i < 80; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
  kill -KILL "$pid" 2>/dev/null && echo "k8s-down: $1 did not stop on SIGTERM within 20s: killed"
  rm -f "$k8s_run/$1.pid"
}

# 1. pods: deleted through the API while the kubelet runs, so the CNI plugins tear their networks down
if running kube-apiserver && running kubelet && [ -f "$KUBECONFIG_ADMIN" ]; then
  kc delete pods --all --all-namespaces --force --grace-period=0 --wait=false >/dev/null 2>&1
  for ((i = 0; i < 40; i++)); do # at most 20s: step 3 kills what is left, step 5 removes its rules
    [ -z "$(ctr_k8s tasks ls 2>/dev/null | awk 'NR > 1 && $3 == "RUNNING"')" ] && break
    sleep 0.5
  done
fi

# 2. the add-ons and the node, with the rules they made
for d in coredns kube-router kube-proxy kubelet kube-scheduler kube-controller-manager kube-apiserver; do stop_daemon "$d"; done
[ -x "$k8s_bin/kube-proxy" ] && "$k8s_bin/kube-proxy" --cleanup >>"$k8s_log/kube-proxy.log" 2>&1
[ -x "$addon_bin/kube-router" ] && timeout 60 "$addon_bin/kube-router" --cleanup-config >>"$k8s_log/kube-router.log" 2>&1

# 3. containers left over, then containerd and its shims (found by this containerd's socket only)
if running containerd; then
  for t in $(ctr_k8s tasks ls -q 2>/dev/null); do ctr_k8s tasks kill -s SIGKILL "$t" >/dev/null 2>&1; done
  sleep 1
  for t in $(ctr_k8s tasks ls -q 2>/dev/null); do ctr_k8s tasks delete -f "$t" >/dev/null 2>&1; done
  for c in $(ctr_k8s containers ls -q 2>/dev/null); do ctr_k8s containers delete "$c" >/dev/null 2>&1; done
fi
stop_daemon containerd
for p in /proc/[0-9]*; do
  if tr '\0' ' ' 2>/dev/null <"$p/cmdline" | grep -q -- "-address $containerd_sock "; then kill -KILL "${p#/proc/}" 2>/dev/null; fi
done
stop_daemon etcd
stop_daemon registry

# 4. mounts (rootfs, volumes, network namespaces), deepest first
findmnt -rno TARGET | grep -E "^($k8s_state|$k8s_run)/" | sort -r | while read -r m; do umount -l "$m" 2>/dev/null; done

# 5. the network: the bridge, then whatever kube-proxy's, kube-router's and the kubelet's cleanup
# left (KUBE-* chains) and the CNI plugins' CNI-* chains, with the jumps to them. Only Kubernetes and
# CNI plugins name chains so; Docker's are left alone.
ip link del "$K8S_BRIDGE" 2>/dev/null
for ipt in iptables ip6tables; do
  command -v "$ipt" >/dev/null || continue
  for table in filter nat mangle; do
    "$ipt-save" -t "$table" 2>/dev/null | grep -E '^-A [A-Z]+ .*-j (CNI|KUBE)-' | sed 's/^-A /-D /' |
      while read -r rule; do eval "$ipt -t $table $rule" 2>/dev/null; done
    chains=$("$ipt-save" -t "$table" 2>/dev/null | sed -n 's/^:\(\(CNI\|KUBE\)-[^ ]*\) .*/\1/p')
    for chain in $chains; do "$ipt" -t "$table" -F "$chain" 2>/dev/null; done
    for chain in $chains; do "$ipt" -t "$table" -X "$chain" 2>/dev/null; done
  done
done

# 6. the pods' cgroups, then the state
for h in /sys/fs/cgroup/*/kubepods; do [ -d "$h" ] && find "$h" -depth -type d -exec rmdir {} \; 2>/dev/null; done
rm -rf "$k8s_state" "$k8s_run"
echo "k8s-down: the local cluster is stopped and its state removed (binaries kept in $k8s_cache/k8s)"

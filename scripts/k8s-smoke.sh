#!/usr/bin/env bash
# Checks the local cluster of scripts/k8s-up.sh end to end (docs/kubernetes.md, "a local cluster"):
# the node is Ready; an image pushed to the cluster's registry runs as pods; `kubectl exec` works;
# a Service name resolves through the cluster's DNS; a NetworkPolicy that denies ingress stops
# traffic between two pods and traffic flows again once it is deleted. Exits non-zero at the first
# check that fails, saying which.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/k8s-env.sh"
. "$here/k8s-lib.sh"
ns=$K8S_NAMESPACE
image=$K8S_REGISTRY/benchrig/smoke:1
fail() {
  echo "k8s-smoke: FAIL: $*" >&2
  exit 1
}
step() { echo "k8s-smoke: $*"; }

kc get node "$K8S_NODE" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' | grep -x True >/dev/null ||
  fail "node $K8S_NODE is not Ready"
step "node $K8S_NODE is Ready"

# a busybox image, pushed to the registry from a containerd namespace the kubelet does not use,
# so the kubelet has to pull it
root=$(mktemp -d)
mkdir -p "$root/bin" "$root/www" "$root/tmp"
install -m 755 "$(command -v busybox)" "$root/bin/busybox"
for a in sh sleep nc httpd nslookup cat echo ls printf; do ln -s busybox "$root/bin/$a"; done
echo "benchrig-smoke" >"$root/www/index.html"
oci_image "$image" "$root" '["/bin/sh"]' "$root.tar"
ctr --address "$containerd_sock" -n benchrig-push images import "$root.tar" >/dev/null
ctr --address "$containerd_sock" -n benchrig-push images push --plain-http "$image" >/dev/null
ctr --address "$containerd_sock" -n benchrig-push images rm "$image" >/dev/null
rm -rf "$root" "$root.tar"
curl -fsS "http://$K8S_REGISTRY/v2/benchrig/smoke/tags/list" | grep '"1"' >/dev/null || fail "the registry does not list $image"
step "pushed $image to the registry"

cleanup() { kc -n "$ns" delete pod,service,networkpolicy -l benchrig-smoke=1 --wait=false >/dev/null 2>&1 || true; }
trap cleanup EXIT
cleanup
kc -n "$ns" wait --for=delete pod -l benchrig-smoke=1 --timeout=60s >/dev/null 2>&1 || true
kc -n "$ns" apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata: {name: smoke-server, labels: {benchrig-smoke: "1", role: server}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - {name: main, image: "$image", imagePullPolicy: Always, command: [httpd, -f, -p, "8080", -h, /www]}
---
apiVersion: v1
kind: Pod
metadata: {name: smoke-client, labels: {benchrig-smoke: "1", role: client}}
spec:
  terminationGracePeriodSeconds: 1
  containers:
  - {name: main, image: "$image", imagePullPolicy: Always, command: [sleep, "3600"]}
---
apiVersion: v1
kind: Service
metadata: {name: smoke-server, labels: {benchrig-smoke: "1"}}
spec:
  clusterIP: None
  selector: {role: server}
  ports: [{port: 8080}]
EOF
kc -n "$ns" wait --for=condition=Ready pod -l benchrig-smoke=1 --timeout=120s >/dev/null ||
  fail "the pods did not become Ready: $(kc -n "$ns" get pods -l benchrig-smoke=1 -o wide; kc -n "$ns" get events --sort-by=.lastTimestamp | tail -n 5)"
step "pods from $image are Ready"

out=$(kc -n "$ns" exec smoke-client -- echo exec-works) || fail "kubectl exec failed"
[ "$out" = exec-works ] || fail "kubectl exec printed '$out'"
step "kubectl exec works"

server_ip=$(kc -n "$ns" get pod smoke-server -o jsonpath='{.status.podIP}')
# busybox's wget crashes (SIGSEGV) in Debian 12's busybox-static, so HTTP is spoken through nc
fetch() {
  kc -n "$ns" exec smoke-client -- sh -c "printf 'GET / HTTP/1.0\r\n\r\n' | nc -w 3 $1 8080" 2>/dev/null |
    grep -x benchrig-smoke
}
fetch "$server_ip" >/dev/null || fail "smoke-client cannot reach smoke-server at $server_ip:8080"
step "pod to pod traffic flows ($server_ip:8080)"

dns_ok=0
for _ in 1 2 3 4 5 6 7 8 9 10; do
  fetch "smoke-server.$ns.svc.cluster.local" >/dev/null && { dns_ok=1; break; }
  sleep 1
done
[ $dns_ok = 1 ] || fail "the Service name smoke-server.$ns.svc.cluster.local does not resolve to the server"
step "the Service name resolves through the cluster's DNS"

kc -n "$ns" apply -f - >/dev/null <<EOF
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: smoke-deny, labels: {benchrig-smoke: "1"}}
spec:
  podSelector: {matchLabels: {role: server}}
  policyTypes: [Ingress]
EOF
denied=0
for _ in $(seq 1 20); do
  fetch "$server_ip" >/dev/null || { denied=1; break; }
  sleep 1
done
[ $denied = 1 ] || fail "a NetworkPolicy denying ingress to smoke-server is not enforced after 20s"
step "a NetworkPolicy denying ingress is enforced"

kc -n "$ns" delete networkpolicy smoke-deny >/dev/null
allowed=0
for _ in $(seq 1 20); do
  fetch "$server_ip" >/dev/null && { allowed=1; break; }
  sleep 1
done
[ $allowed = 1 ] || fail "traffic does not flow again after the NetworkPolicy was deleted"
step "traffic flows again once the NetworkPolicy is deleted"
step "all checks passed"

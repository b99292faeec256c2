#!/usr/bin/env bash
# The local Kubernetes of TailLab's tests, built once into the user's cache from the Go module
# proxy: etcd 3.6, kube-apiserver, kube-controller-manager, kube-scheduler and kubectl v1.34 (the
# small main modules in scripts/kubernetes/: upstream's own main modules refuse `go install`) and
# kwok/kwokctl. Prints the folder that holds them. Cold: 6-12 min and ~5 GB of Go caches; a
# changed go.mod or main.go rebuilds in about a minute once the caches are warm.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
kubernetes_version=v1.34.4
kwok_version=v0.8.0
cache="${XDG_CACHE_HOME:-$HOME/.cache}/taillab/go"
# Named by a hash of the sources and versions: a changed go.mod or main.go builds a new set.
key=$(
  cd "$here/kubernetes"
  { find . -type f | LC_ALL=C sort | xargs sha256sum; echo "$kubernetes_version $kwok_version"; } |
    sha256sum | cut -c1-12
)
out="$cache/kubernetes-$kubernetes_version-$key"
if [ -f "$out/.complete" ]; then echo "$out"; exit 0; fi
command -v go >/dev/null || { echo "ensure-kubernetes: Go is required to build Kubernetes" >&2; exit 1; }
mkdir -p "$cache/mod" "$cache/build" "$cache/home"
# One build at a time: tests and `pnpm test` may ask together.
exec 9>"$cache/kubernetes.lock"
flock 9
if [ -f "$out/.complete" ]; then echo "$out"; exit 0; fi
echo "ensure-kubernetes: building Kubernetes $kubernetes_version, etcd and kwok $kwok_version" \
  "(first time only, 6-12 min)" >&2
rm -rf "$out.partial"
mkdir -p "$out.partial"
# HOME too: some modules' tools write there while building.
export GOMODCACHE="$cache/mod" GOCACHE="$cache/build" HOME="$cache/home" GOFLAGS=-trimpath
version_flags="-s -w -X k8s.io/component-base/version.gitVersion=$kubernetes_version"
version_flags+=" -X k8s.io/component-base/version.gitMajor=1"
version_flags+=" -X k8s.io/component-base/version.gitMinor=$(echo "$kubernetes_version" | cut -d. -f2)"
(
  cd "$here/kubernetes/control-plane"
  for component in kube-apiserver kube-controller-manager kube-scheduler kubectl; do
    go build -ldflags "$version_flags" -o "$out.partial/$component" "./$component" >&2
  done
)
(cd "$here/kubernetes/etcd" && go build -ldflags "-s -w" -o "$out.partial/etcd" . >&2)
GOBIN="$out.partial" GOFLAGS="$GOFLAGS -mod=mod" go install -ldflags "-s -w" \
  "sigs.k8s.io/kwok/cmd/kwok@$kwok_version" "sigs.k8s.io/kwok/cmd/kwokctl@$kwok_version" >&2
touch "$out.partial/.complete"
rm -rf "$out"
mv "$out.partial" "$out"
echo "$out"

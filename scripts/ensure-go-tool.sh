#!/usr/bin/env bash
# Builds a pinned Go program once into the user's cache and prints its binary's path; later
# calls reuse the cached binary. Usage: ensure-go-tool.sh NAME MODULE/PATH VERSION "HOW LONG"
set -euo pipefail
name="$1" package="$2" version="$3" duration="$4"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/taillab/go"
bin="$cache/bin/$name-$version"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
command -v go >/dev/null || { echo "ensure-$name: Go is required to build $name" >&2; exit 1; }
mkdir -p "$cache/bin" "$cache/mod" "$cache/build" "$cache/home"
echo "ensure-$name: building $name $version (first time only, $duration)" >&2
# HOME too: some modules' tools write there while building.
GOBIN="$cache/gobin" GOMODCACHE="$cache/mod" GOCACHE="$cache/build" HOME="$cache/home" \
  GOFLAGS=-mod=mod go install "$package@$version" >&2
mv "$cache/gobin/$(basename "$package")" "$bin"
echo "$bin"

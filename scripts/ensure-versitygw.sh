#!/usr/bin/env bash
# Builds the pinned versitygw (a strict S3 gateway) once into the user's cache and prints its
# path. ~2 min the first time; later calls reuse the cached binary.
set -euo pipefail
VERSITYGW_VERSION="v1.8.0"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/taillab/go"
bin="$cache/bin/versitygw-$VERSITYGW_VERSION"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
command -v go >/dev/null || { echo "ensure-versitygw: Go is required to build versitygw" >&2; exit 1; }
mkdir -p "$cache/bin" "$cache/mod" "$cache/build" "$cache/home"
echo "ensure-versitygw: building versitygw $VERSITYGW_VERSION (first time only, ~2 min)" >&2
GOBIN="$cache/gobin" GOMODCACHE="$cache/mod" GOCACHE="$cache/build" HOME="$cache/home" \
  GOFLAGS=-mod=mod go install "github.com/versity/versitygw/cmd/versitygw@$VERSITYGW_VERSION" >&2
mv "$cache/gobin/versitygw" "$bin"
echo "$bin"

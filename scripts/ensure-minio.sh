#!/usr/bin/env bash
# Builds the pinned MinIO server once into the user's cache and prints its path.
# A cold build takes ~5 min and ~1.5 GB RAM; later calls reuse the cached binary.
set -euo pipefail
MINIO_VERSION="v0.0.0-20260212201848-7aac2a2c5b7c"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/taillab/go"
bin="$cache/bin/minio-$MINIO_VERSION"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
command -v go >/dev/null || { echo "ensure-minio: Go is required to build MinIO" >&2; exit 1; }
mkdir -p "$cache/bin" "$cache/mod" "$cache/build" "$cache/home"
echo "ensure-minio: building MinIO $MINIO_VERSION (first time only, ~5 min)" >&2
GOBIN="$cache/gobin" GOMODCACHE="$cache/mod" GOCACHE="$cache/build" HOME="$cache/home" \
  GOFLAGS=-mod=mod go install "github.com/minio/minio@$MINIO_VERSION" >&2
mv "$cache/gobin/minio" "$bin"
echo "$bin"

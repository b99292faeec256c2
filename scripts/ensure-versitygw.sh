#!/usr/bin/env bash
# The pinned versitygw (a strict S3 gateway), built once into the user's cache (~2 min cold).
exec "$(dirname "${BASH_SOURCE[0]}")/ensure-go-tool.sh" versitygw \
  github.com/versity/versitygw/cmd/versitygw v1.8.0 "~2 min"

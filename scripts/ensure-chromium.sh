#!/usr/bin/env bash
# Debian's Chromium for the browser tests (reports and the UI). Playwright's own browser
# download is never used: it cannot reach its servers here.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: /usr/bin/chromium is missing; install it with: sudo apt-get install -y chromium" >&2
  exit 1
fi
echo "ensure-chromium: installing Debian's chromium (first time only)" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2

#!/usr/bin/env bash
# Debian's Chromium for the browser tests (reports and the UI), and Xvfb for the headed ones.
# Playwright's own browser download is never used: it cannot reach its servers here.
set -euo pipefail
# A CJK font too: the Chinese report and UI render as empty boxes without one.
if [ -x /usr/bin/chromium ] && [ -d /usr/share/fonts/truetype/wqy ] && [ -x /usr/bin/xvfb-run ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: install Debian's browser and a CJK font: sudo apt-get install -y chromium fonts-wqy-microhei xvfb xauth" >&2
  exit 1
fi
echo "ensure-chromium: installing Debian's chromium (first time only)" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei xvfb xauth >&2

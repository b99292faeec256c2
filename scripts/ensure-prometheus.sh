#!/usr/bin/env bash
# Debian's Prometheus server, which the live metrics test (apps/cli/src/metrics.prometheus.test.ts)
# runs to scrape a running TailLab: a real scraper reads the exposition, not a parser of ours.
# Prints the server's path.
set -euo pipefail
if [ -x /usr/bin/prometheus ]; then
  echo /usr/bin/prometheus
  exit 0
fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-prometheus: install Debian's Prometheus: sudo apt-get install -y --no-install-recommends prometheus" >&2
  exit 1
fi
echo "ensure-prometheus: installing Debian's prometheus (first time only)" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >&2
echo /usr/bin/prometheus

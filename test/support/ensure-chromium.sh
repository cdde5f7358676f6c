#!/usr/bin/env bash
# The onboarding-page test drives Debian's Chromium (never a browser download). Installs it when missing.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "the browser test needs Debian's chromium: run 'sudo apt-get install chromium fonts-liberation'" >&2
  exit 1
fi
echo "installing chromium for the browser test"
log=$(mktemp)
if ! {
  DEBIAN_FRONTEND=noninteractive apt-get -qq -o DPkg::Lock::Timeout=300 update &&
    DEBIAN_FRONTEND=noninteractive apt-get -qq -y -o DPkg::Lock::Timeout=300 install --no-install-recommends chromium fonts-liberation
} >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
rm -f "$log"

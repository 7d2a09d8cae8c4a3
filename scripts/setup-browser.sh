#!/usr/bin/env bash
# Makes Debian's Chromium available for the page tests (test/support/browser.ts drives
# /usr/bin/chromium through playwright-core): installs it from the distribution's packages when
# missing (Debian/Ubuntu as root), else says what to do. The browser tests fail without it.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "setup-browser: $(/usr/bin/chromium --version 2>/dev/null | tail -n 1) is ready"
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup-browser: installing chromium from the distribution's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  [ -x /usr/bin/chromium ] || { echo "setup-browser: chromium installed, but /usr/bin/chromium is missing" >&2; exit 1; }
  echo "setup-browser: $(/usr/bin/chromium --version 2>/dev/null | tail -n 1) is ready"
else
  echo "setup-browser: /usr/bin/chromium is missing (the report tests open pages in it)." >&2
  echo "  On Debian/Ubuntu run as root: apt-get install -y chromium" >&2
  echo "  Elsewhere: install Chromium and link it to /usr/bin/chromium." >&2
  exit 1
fi

#!/usr/bin/env bash
# Sets up table-companion on Debian or Raspberry Pi OS, idempotently:
# system packages (apt, as root or through sudo), a virtual environment in .venv, and
# the project installed into it.
#   scripts/setup.sh            the app (speech, fonts)
#   scripts/setup.sh --test     also the test tools, Debian's chromium for browser tests and
#                               axe-core from npm (into node_modules/) for their accessibility checks
#   scripts/setup.sh --start    set up, then start the table: the live camera when one is
#                               attached, otherwise the generated demo table
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-}"
case "$mode" in ""|--test|--start) ;; *) echo "setup: unknown option '$mode' (use --test or --start)" >&2; exit 2;; esac

packages=(python3-venv python3-dev espeak-ng libespeak-ng1 fonts-dejavu-core)
[ "$mode" = "--test" ] && packages+=(chromium fonts-liberation fonts-noto-core fonts-urw-base35)
# npm from Debian only where there is none: a Node.js installed another way brings its own
# npm, and Debian's package conflicts with it
[ "$mode" = "--test" ] && ! command -v npm >/dev/null && packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null; then
    echo "setup: this script installs system packages with apt (Debian, Raspberry Pi OS); install these by hand: ${missing[*]}" >&2
    exit 1
  elif [ "$(id -u)" = 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "setup: need root to install ${missing[*]}; run this script as root or install sudo" >&2
    exit 1
  fi
  echo "setup: installing system packages: ${missing[*]}" >&2
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
extras=""
[ "$mode" = "--test" ] && extras="[test]"
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extras}"
if [ "$mode" = "--test" ]; then
  # axe-core (package.json, pinned in package-lock.json) for the browser tests' accessibility checks
  npm install --no-audit --no-fund --silent
fi

if [ "$mode" = "--start" ]; then
  exec .venv/bin/companion start
fi

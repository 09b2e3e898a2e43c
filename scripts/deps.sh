#!/usr/bin/env bash
# Installs the Debian packages hpcnet builds with, only where missing. Idempotent and quiet
# when everything is present. Needs root (or sudo) only when something is missing.
set -euo pipefail
PKGS=(verilator catch2 cmake g++ make ccache libboost-context-dev libfmt-dev libcli11-dev nlohmann-json3-dev
      yosys gtkwave gnuplot-nox python3 xvfb imagemagick)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

#!/usr/bin/env bash
# Install the Debian 12 packages Tessera builds and tests with. Idempotent: when every
# package is already present it returns in well under a second without touching apt.
set -euo pipefail

PACKAGES=(
  build-essential cmake make git pkg-config
  libboost-dev libboost-program-options-dev libboost-graph-dev libboost-filesystem-dev
  libyaml-cpp-dev libspdlog-dev libfmt-dev catch2 nlohmann-json3-dev libbenchmark-dev
  clang libclang-rt-14-dev clang-format
  python3-jsonschema python3-yaml
  python3-dev pybind11-dev python3-numpy python3-pytest python3-pandas python3-matplotlib
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

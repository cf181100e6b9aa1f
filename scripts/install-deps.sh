#!/usr/bin/env bash
# Install the Debian 12 packages Tessera builds and tests with, and the npm packages of the HTML
# report (third_party/web, `npm ci`). Idempotent: when every
# package is already present it returns in well under a second without touching apt.
set -euo pipefail

PACKAGES=(
  build-essential cmake make git pkg-config
  libboost-dev libboost-program-options-dev libboost-graph-dev libboost-filesystem-dev
  libyaml-cpp-dev libspdlog-dev libfmt-dev catch2 nlohmann-json3-dev libbenchmark-dev
  clang libclang-rt-14-dev clang-format
  python3-jsonschema python3-yaml
  nodejs chromium
  python3-dev pybind11-dev python3-numpy python3-pytest python3-pandas python3-matplotlib
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# npm: Debian's package, unless the nodejs in place already has one (NodeSource's bundles it
# and conflicts with Debian's npm).
if ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The HTML report's JavaScript and the browser test's driver (docs/report.md): `npm ci` against
# the committed third_party/web/package-lock.json (its integrity hashes are the checksums),
# skipped when node_modules already holds exactly that lock file. puppeteer-core downloads no
# browser (the test drives Debian's chromium).
WEB="$(cd "$(dirname "$0")/.." && pwd)/third_party/web"
if cmp -s "$WEB/package-lock.json" "$WEB/node_modules/.tessera-package-lock.json"; then
  echo "install-deps: third_party/web/node_modules current"
else
  echo "install-deps: npm ci in third_party/web"
  (cd "$WEB" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  cp "$WEB/package-lock.json" "$WEB/node_modules/.tessera-package-lock.json"
fi

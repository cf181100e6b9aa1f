#!/usr/bin/env bash
# Install the Debian 12 packages Tessera builds and tests with, and the npm packages of the HTML
# report (third_party/web, `npm ci`). Idempotent: when every package of the profile is already
# present it returns in well under a second without touching apt.
#
#   scripts/install-deps.sh [--demo | --build | --test]      (default: --test, everything)
#
#   --demo   what `make demo` builds and runs: the compiler, CMake, the libraries tessera and its
#            plugins link, ccache (the compiler cache, docs/testing.md), Node.js with npm and the
#            report's chart libraries (`npm ci --omit=dev`: vega, vega-lite, vega-embed)
#   --build  --demo and what `make build` adds: the test programs (Catch2) and the Python module
#            (python3-dev, pybind11, numpy) and Open MPI (the MPI executor, its tests' mpirun)
#   --test   --build and what only the tests (and --png) need: clang with its sanitizer runtime
#            and clang-format, pytest and the Python packages the test scripts import, Google
#            Benchmark (`make bench`), Debian's chromium and the browser test's driver
#            (puppeteer-core, npm's dev dependencies)
set -euo pipefail

profile=test
case "${1:-}" in
  "" | --test) profile=test ;;
  --build) profile=build ;;
  --demo) profile=demo ;;
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0 ;;
  *) echo "install-deps: unknown option '$1' (expected --demo, --build or --test)" >&2; exit 2 ;;
esac

PACKAGES=(
  build-essential cmake make pkg-config ccache
  libboost-dev libboost-program-options-dev libboost-graph-dev libboost-filesystem-dev
  libyaml-cpp-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  nodejs
)
if [ "$profile" != demo ]; then
  PACKAGES+=(git catch2 python3-dev pybind11-dev python3-numpy libopenmpi-dev openmpi-bin)
fi
if [ "$profile" = test ]; then
  PACKAGES+=(
    clang libclang-rt-14-dev clang-format universal-ctags libbenchmark-dev
    python3-pytest python3-pandas python3-matplotlib python3-jsonschema python3-yaml
    chromium
  )
fi

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
  echo "install-deps: all ${#PACKAGES[@]} packages of --$profile present"
else
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  apt_t0=$SECONDS
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
  echo "install-deps: apt-get took $((SECONDS - apt_t0)) s"
fi

# The HTML report's JavaScript and the browser test's driver (docs/report.md): `npm ci` against
# the committed third_party/web/package-lock.json (its integrity hashes are the checksums),
# skipped when node_modules already holds exactly that lock file for this profile or a larger
# one. --demo installs the chart libraries alone (--omit=dev); --build and --test add the dev
# dependencies (puppeteer-core, which downloads no browser: it drives Debian's chromium).
WEB="$(cd "$(dirname "$0")/.." && pwd)/third_party/web"
FULL_MARK="$WEB/node_modules/.tessera-package-lock.json"
RUNTIME_MARK="$WEB/node_modules/.tessera-package-lock.runtime.json"
if cmp -s "$WEB/package-lock.json" "$FULL_MARK" ||
  { [ "$profile" = demo ] && cmp -s "$WEB/package-lock.json" "$RUNTIME_MARK"; }; then
  echo "install-deps: third_party/web/node_modules current"
elif [ "$profile" = demo ]; then
  echo "install-deps: npm ci --omit=dev in third_party/web"
  npm_t0=$SECONDS
  (cd "$WEB" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
  cp "$WEB/package-lock.json" "$RUNTIME_MARK"
  echo "install-deps: npm ci took $((SECONDS - npm_t0)) s"
else
  echo "install-deps: npm ci in third_party/web"
  npm_t0=$SECONDS
  (cd "$WEB" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  cp "$WEB/package-lock.json" "$FULL_MARK"
  echo "install-deps: npm ci took $((SECONDS - npm_t0)) s"
fi

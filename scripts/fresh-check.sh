#!/usr/bin/env bash
# Prove the two-command setup on a truly fresh Debian 12 system.
#
#   scripts/fresh-check.sh [WORKDIR]        (or TESSERA_FRESH_DIR=WORKDIR; default /var/tmp/tessera-fresh)
#
# 1. debootstraps a minimal (minbase) Debian 12 "bookworm" root once and caches it as
#    WORKDIR/bookworm-minbase.tar.gz; every run unpacks that BARE root again into WORKDIR/root,
#    so nothing a previous run installed survives;
# 2. writes the root's apt sources (bookworm, bookworm-updates, bookworm-security; main) on the
#    same mirror this machine's own apt uses;
# 3. clones the committed HEAD of this repository (not the working tree) into the root's /src;
# 4. mounts /proc and /dev, chroots in and runs README's two commands, `make demo` then
#    `make test`, as root, with a bare environment; `make demo` runs in two timed steps: its
#    packages (`scripts/install-deps.sh --demo`, which prints apt's and npm's seconds apart), then
#    `make demo` itself (configure, build, the default scenario: what remains once they are in);
# 5. prints each step's exit status and wall time, apt, npm and the build apart, the time to the
#    demo's printed result, and ctest's summary line (output kept in WORKDIR/deps.log,
#    WORKDIR/demo.log and WORKDIR/test.log). Mounts are undone on any exit.
#
# Run it as root, once per change to the setup (install-deps.sh, Makefile, CMake), not in CI.
# Options (environment): TESSERA_FRESH_MIRROR (Debian mirror URL, default: the host's),
# TESSERA_FRESH_REBUILD=1 (debootstrap again even if the tarball is cached),
# TESSERA_FRESH_KEEP=1 (leave WORKDIR/root in place after a passing run too; a failing run's
# root is always kept for inspection),
# JOBS (passed to make; default: nproc inside the root).
set -euo pipefail

REPO=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
WORK=${1:-${TESSERA_FRESH_DIR:-/var/tmp/tessera-fresh}}
ROOT=$WORK/root
TARBALL=$WORK/bookworm-minbase.tar.gz
SUITE=bookworm

log() { printf '\n=== fresh-check %s: %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf 'fresh-check: error: %s\n' "$*" >&2; exit 2; }
fmt_time() { local s=$1; printf '%d:%02d:%02d' $((s / 3600)) $((s % 3600 / 60)) $((s % 60)); }

[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, mount and chroot need it)"

# --- The mirror: the one this machine's apt reaches Debian's registry through. -----------------
host_mirror() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] || continue
    # one-line format: deb [opts] URI bookworm ...; deb822: URIs: URI (with Suites: bookworm)
    awk '
      /^[[:space:]]*deb[[:space:]]/ { for (i = 2; i <= NF; i++) if ($i ~ /^https?:\/\//) { u = $i; break }
                                      if (u ~ /\/debian\/?$/ && $0 ~ /[[:space:]]bookworm[[:space:]]/) { print u; exit } u = "" }
      /^URIs:/ { u = $2 }
      /^Suites:/ && u ~ /\/debian\/?$/ && $0 ~ /[[:space:]]bookworm([[:space:]]|$)/ { print u; exit }
      /^[[:space:]]*$/ { u = "" }' "$f"
  done | head -n1 || true
}
MIRROR=${TESSERA_FRESH_MIRROR:-$(host_mirror)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
MIRROR=${MIRROR%/}
SECURITY_MIRROR=${MIRROR%/debian}/debian-security

# --- Mounts and their cleanup. -------------------------------------------------------------------
MOUNTS=()
# shellcheck disable=SC2317  # invoked by the EXIT trap
cleanup() {
  local rc=$? i
  for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
    umount "${MOUNTS[i]}" 2>/dev/null || umount -l "${MOUNTS[i]}" 2>/dev/null ||
      echo "fresh-check: warning: could not unmount ${MOUNTS[i]}" >&2
  done
  MOUNTS=()
  # A passing run's root is removed; a failing one is kept for inspection (the next run
  # starts from the bare tarball either way).
  if [ "$rc" -eq 0 ] && [ "${TESSERA_FRESH_KEEP:-0}" != 1 ] && [ -d "$ROOT" ] && ! mounts_under "$ROOT"; then
    rm -rf --one-file-system "$ROOT"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mounts_under() { findmnt -rn -o TARGET | grep -q "^$1\(/\|$\)"; }
do_mount() { # do_mount TARGET mount-args...
  local target=$1; shift
  mkdir -p "$target"
  mount "$@" "$target"
  MOUNTS+=("$target")
}

# --- 1. The bare root: debootstrap once, then unpack the cached tarball every run. ---------------
mkdir -p "$WORK"
DEBOOTSTRAP_S=cached
DEBOOTSTRAP_RC=0
if [ ! -s "$TARBALL" ] || [ "${TESSERA_FRESH_REBUILD:-0}" = 1 ]; then
  if ! command -v debootstrap >/dev/null; then
    log "installing debootstrap on the host"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap
  fi
  STAGE=$WORK/bare
  mounts_under "$STAGE" && die "$STAGE has mounts under it; unmount them first"
  rm -rf --one-file-system "$STAGE"
  log "debootstrap --variant=minbase $SUITE from $MIRROR"
  t0=$SECONDS
  set +e
  debootstrap --variant=minbase "$SUITE" "$STAGE" "$MIRROR"
  DEBOOTSTRAP_RC=$?
  set -e
  DEBOOTSTRAP_S=$((SECONDS - t0))
  if [ "$DEBOOTSTRAP_RC" -ne 0 ]; then
    echo "fresh-check: debootstrap failed (exit $DEBOOTSTRAP_RC) after $(fmt_time "$DEBOOTSTRAP_S");" \
      "see $STAGE/debootstrap/debootstrap.log" >&2
    exit 1
  fi
  rm -rf "$STAGE"/var/cache/apt/archives/*.deb "$STAGE"/var/lib/apt/lists/*
  tar -C "$STAGE" --numeric-owner -czf "$TARBALL.tmp" .
  mv "$TARBALL.tmp" "$TARBALL"
  echo "debootstrap took $(fmt_time "$DEBOOTSTRAP_S") on $(date -u +%Y-%m-%dT%H:%MZ) from $MIRROR" >"$TARBALL.info"
  rm -rf --one-file-system "$STAGE"
  log "bare root cached in $TARBALL ($(du -h "$TARBALL" | cut -f1)), debootstrap took $(fmt_time "$DEBOOTSTRAP_S")"
fi

mounts_under "$ROOT" && die "$ROOT still has mounts under it (a previous run killed hard?); unmount them first"
log "unpacking the bare root into $ROOT"
rm -rf --one-file-system "$ROOT"
mkdir -p "$ROOT"
tar -C "$ROOT" --numeric-owner -xzf "$TARBALL"

# --- 2. apt sources (only Debian's registry is reachable) and name resolution. ------------------
rm -f "$ROOT"/etc/apt/sources.list.d/*
cat >"$ROOT/etc/apt/sources.list" <<EOF
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
deb $SECURITY_MIRROR $SUITE-security main
EOF
# If this machine's apt is told to accept Release files past their Valid-Until (a snapshot
# mirror), the root needs the same to reach it. This is about reaching the mirror, not packages.
if apt-config dump 2>/dev/null | grep -qi '^Acquire::Check-Valid-Until "false"'; then
  echo 'Acquire::Check-Valid-Until "false";' >"$ROOT/etc/apt/apt.conf.d/99fresh-check-mirror"
fi
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
cp -L /etc/hosts "$ROOT/etc/hosts"
# Likewise: where this machine reaches the registries through a TLS proxy whose certificate
# authority it added locally (/usr/local/share/ca-certificates), npm in the root must trust it
# too (NODE_EXTRA_CA_CERTS below); nothing else of the host's set-up is carried in.
EXTRA_CA=
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  cat /usr/local/share/ca-certificates/*.crt >"$ROOT/etc/fresh-check-extra-ca.pem"
  EXTRA_CA=/etc/fresh-check-extra-ca.pem
fi

# --- 3. A clean clone of the committed HEAD. ---------------------------------------------------
HEAD_COMMIT=$(git -C "$REPO" rev-parse HEAD)
HEAD_LINE=$(git -C "$REPO" log -1 --format='%h %s' HEAD)
log "cloning $REPO at $HEAD_LINE into $ROOT/src"
git clone -q --no-hardlinks "$REPO" "$ROOT/src"
git -C "$ROOT/src" checkout -q --detach "$HEAD_COMMIT"
git -C "$ROOT/src" remote remove origin   # the root must not see the host's repository
[ -z "$(git -C "$ROOT/src" status --porcelain)" ] || die "the clone is not clean"

# --- 4. Mounts, then README's two commands. ------------------------------------------------------
do_mount "$ROOT/proc" -t proc proc
do_mount "$ROOT/sys" -t sysfs sysfs
do_mount "$ROOT/dev" --bind /dev
if [ -d /dev/pts ]; then do_mount "$ROOT/dev/pts" --bind /dev/pts; fi

in_root() { # a bare login-like environment: no host PATH, variables or working directory
  chroot "$ROOT" /usr/bin/env -i HOME=/root TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    ${JOBS:+JOBS=$JOBS} ${EXTRA_CA:+NODE_EXTRA_CA_CERTS=$EXTRA_CA} /bin/bash -c "$1"
}

# A bare Debian 12 root has no `make` (priority optional; not in a default install either).
# README's first command cannot run without it, so say so and install make alone, so that the
# rest of the set-up is still checked; install-deps.sh installs everything else.
MAKE_PRESENT=yes
if ! in_root 'command -v make >/dev/null'; then
  MAKE_PRESENT=no
  log "NOTE: the bare root has no 'make'; installing it alone so README's commands can start"
  in_root 'export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq --no-install-recommends make'
fi

declare -A RC SECS
run_step() { # run_step NAME COMMAND
  local name=$1 cmd=$2 t0
  log "chroot: cd /src && $cmd"
  t0=$SECONDS
  set +e
  in_root "cd /src && $cmd" 2>&1 | tee "$WORK/$name.log"
  RC[$name]=${PIPESTATUS[0]}
  set -e
  SECS[$name]=$((SECONDS - t0))
  log "'$cmd' exited ${RC[$name]} after $(fmt_time "${SECS[$name]}")"
}
run_step deps "scripts/install-deps.sh --demo"
run_step demo "make demo"
run_step test "make test"

# --- 5. Summary. ---------------------------------------------------------------------------------
summary_line() { printf '  %-12s %-10s %s\n' "$1" "$2" "$3"; }
echo
echo "=== fresh-check summary: $HEAD_LINE"
echo "  root: Debian 12 ($SUITE, minbase) from $MIRROR; bare root had make: $MAKE_PRESENT"
summary_line step "exit" "wall time"
if [ "$DEBOOTSTRAP_S" = cached ]; then
  summary_line debootstrap "-" "cached: $(cat "$TARBALL.info" 2>/dev/null || echo "$TARBALL")"
else
  summary_line debootstrap "$DEBOOTSTRAP_RC" "$(fmt_time "$DEBOOTSTRAP_S")"
fi
apt_s=$(sed -n 's/^install-deps: apt-get took \([0-9]*\) s$/\1/p' "$WORK/deps.log" | tail -n1)
npm_s=$(sed -n 's/^install-deps: npm ci took \([0-9]*\) s$/\1/p' "$WORK/deps.log" | tail -n1)
summary_line "deps --demo" "${RC[deps]}" "$(fmt_time "${SECS[deps]}") (apt ${apt_s:-?} s, npm ${npm_s:-?} s)"
summary_line "make demo" "${RC[demo]}" "$(fmt_time "${SECS[demo]}") (configure, build, run)"
summary_line "to result" "-" "$(fmt_time $((SECS[deps] + SECS[demo]))) (make demo from a bare root)"
summary_line "make test" "${RC[test]}" "$(fmt_time "${SECS[test]}")"
ctest_line=$(grep -E '^[0-9]+% tests passed' "$WORK/test.log" | tail -n1 || true)
echo "  ctest: ${ctest_line:-no summary line (the suite did not run)}"
echo "  logs: $WORK/demo.log, $WORK/test.log"
if [ "${RC[deps]}" -eq 0 ] && [ "${RC[demo]}" -eq 0 ] && [ "${RC[test]}" -eq 0 ]; then
  echo "fresh-check: PASS"
  exit 0
fi
echo "fresh-check: FAIL"
exit 1

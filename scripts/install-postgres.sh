#!/usr/bin/env bash
# Installs what the PostgreSQL store tests need on Debian bookworm: PostgreSQL 15 server and its
# headers from Debian, and pgvector 0.8 built from Debian trixie's source package (bookworm has no
# pgvector package). Idempotent: every step is skipped when what it makes is already there.
# Run as root: sudo scripts/install-postgres.sh
set -euo pipefail

PG_BIN=/usr/lib/postgresql/15/bin
PG_CONFIG="$PG_BIN/pg_config"
TRIXIE_SOURCES=/etc/apt/sources.list.d/syndicate-trixie-src.sources

if [ "$(id -u)" -ne 0 ]; then
  echo "install-postgres.sh installs Debian packages: run it as root (sudo $0)" >&2
  exit 1
fi

updated=no
apt_update() {
  if [ "$updated" = no ]; then
    apt-get update -qq
    updated=yes
  fi
}

missing=()
for pkg in postgresql-15 postgresql-server-dev-15 dpkg-dev make gcc; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  apt_update
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

extension_dir="$("$PG_CONFIG" --sharedir)/extension"
if [ -f "$extension_dir/vector.control" ]; then
  echo "pgvector: installed ($(grep default_version "$extension_dir/vector.control"))"
  exit 0
fi

# Only source entries for trixie, so no binary package comes from it.
if [ ! -f "$TRIXIE_SOURCES" ]; then
  cat >"$TRIXIE_SOURCES" <<'SOURCES'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  updated=no
fi
apt_update

build_dir="$(mktemp -d)"
# apt-get source downloads as the _apt user, which must be able to write here.
chmod 755 "$build_dir"
trap 'rm -rf "$build_dir"' EXIT
(
  cd "$build_dir"
  apt-get source -qq pgvector
  cd pgvector-*/
  make -s PG_CONFIG="$PG_CONFIG"
  make -s install PG_CONFIG="$PG_CONFIG"
)
echo "pgvector: installed ($(grep default_version "$extension_dir/vector.control"))"

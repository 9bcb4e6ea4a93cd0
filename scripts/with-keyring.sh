#!/usr/bin/env bash
# Runs CMD inside a private D-Bus session with a throwaway, unlocked gnome-keyring, so keytar talks
# to a real Secret Service without touching the user's own keychain. Usage: scripts/with-keyring.sh CMD...
set -euo pipefail
if [[ $# -eq 0 ]]; then echo "usage: $0 CMD [ARGS...]" >&2; exit 2; fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/agent-studio-keyring.XXXXXX")
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
mkdir -p "$tmp/data" "$tmp/cache" "$tmp/runtime"
chmod 700 "$tmp/runtime"
export XDG_DATA_HOME="$tmp/data" XDG_CACHE_HOME="$tmp/cache" XDG_RUNTIME_DIR="$tmp/runtime"
set +e
dbus-run-session -- bash -c 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; "$@"' with-keyring "$@"
status=$?
set -e
exit $status

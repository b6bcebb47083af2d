# Shared by the deploy scripts: paths, logging, idempotent installs, release builds, stopping servers.
# shellcheck shell=bash
set -euo pipefail
PARLEY_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export PARLEY_ROOT
say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Debian packages Parley needs to build, test and run. Installed only when missing.
PARLEY_APT_PACKAGES=(libpq-dev libssl-dev postgresql postgresql-contrib pkg-config)

install_missing() {
    command -v swift >/dev/null || die "the Swift toolchain is not on PATH (install it from swift.org first)"
    local missing=()
    for package in "${PARLEY_APT_PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]}"
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    fi
}

# Stops a server this script started in the background (TERM, then waits for it), never
# failing: a cleanup under `set -e` must go on to stop its cluster even when the server exited
# non-zero or is gone already.
stop_server() { # $1 = its pid, or empty for none
    [ -n "${1:-}" ] || return 0
    kill -TERM "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# Release builds link the Swift runtime and Foundation statically, as the container image does
# (deploy/Dockerfile): what is measured and run here is what ships, and a static binary maps
# only the runtime code it uses (idle RSS ~17 MB less than with the shared libraries). They
# optimize across modules too: a request crosses ParleyHTTP, ParleyServer and ParleyCore, and
# inlining and specializing across them took 3% of a cache-hot screen's instructions
# (callgrind, deploy/profile-screen). A flag of the build, not of Package.swift: unsafe flags
# there would stop apps from depending on ParleyClient.
RELEASE_FLAGS=(-c release --static-swift-stdlib -Xswiftc -cross-module-optimization)
release_build() { # $1 = product; prints nothing, dies on a build error
    swift build "${RELEASE_FLAGS[@]}" --product "$1" >/dev/null
}
release_bin() { # $1 = product; the path of its release binary
    echo "$(swift build "${RELEASE_FLAGS[@]}" --show-bin-path)/$1"
}

# The one build deploy/test makes for the Swift tests and every later phase (schemathesis, the
# browser, the drills): optimized as shipped, so the suite exercises the code the release runs
# and runs at its speed (a debug build spends most of the suite in unspecialized generic code);
# `-enable-testing` for the `@testable` imports; `assert` kept on (`-assert-config Debug`);
# optimized across modules like RELEASE_FLAGS, so the tests run the code generation that ships.
# In a scratch directory of its own: the static release build above keeps its incremental state.
TEST_BUILD_FLAGS=(-c release -Xswiftc -enable-testing -Xswiftc -assert-config -Xswiftc Debug
    -Xswiftc -cross-module-optimization --scratch-path "$PARLEY_ROOT/.build-test")

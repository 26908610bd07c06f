#!/usr/bin/env bash
# install-deps.sh - installs the Debian packages that laplace's build and tests need.
# Does nothing when they are all present; uses sudo only when not root, and without
# sudo says which command a root user should run (status 1).
# --fuzz: also clang-14 and its libFuzzer runtime, for make fuzz.
set -euo pipefail

# INSTALL_DEPS_PACKAGES replaces the list (the tests use it to name a missing one).
read -r -a packages <<< "${INSTALL_DEPS_PACKAGES:-libinih-dev libmatheval-dev libcriterion-dev libstb-dev gnuplot-nox libopenmpi-dev openmpi-bin time}"
[ "${1:-}" = "--fuzz" ] && packages+=(clang-14 libclang-rt-14-dev)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo > /dev/null 2>&1; then
        echo "install-deps: missing ${missing[*]}; as root, run: apt-get update &&" \
            "apt-get install -y --no-install-recommends ${missing[*]}" >&2
        exit 1
    fi
    sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

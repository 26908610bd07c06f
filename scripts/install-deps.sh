#!/usr/bin/env bash
# install-deps.sh - installs the Debian packages that laplace's build and tests need.
# Does nothing when they are all present; uses sudo only when not root.
# --fuzz: also clang-14 and its libFuzzer runtime, for make fuzz.
set -euo pipefail

packages=(libinih-dev libmatheval-dev libcriterion-dev libstb-dev gnuplot-nox)
[ "${1:-}" = "--fuzz" ] && packages+=(clang-14 libclang-rt-14-dev)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

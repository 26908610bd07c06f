#!/usr/bin/env bash
# course_reference.sh - recomputes tests/data/course-512-float.serial, the serial
# reference of the lecture's problem that the GPU suite compares against (the
# serial run takes minutes, so the GPU machine does not repeat it).
set -euo pipefail
LAPLACE=${LAPLACE:-./laplace}
tmp=$(mktemp -d)
"$LAPLACE" config/course-512.ini --backend serial --output "$tmp/serial.dat" --csv > "$tmp/serial.csv"
{
    echo "# The serial reference of the lecture's problem, computed once on a CPU because it"
    echo "# takes minutes there (scripts/course_reference.sh writes this file):"
    echo "#   laplace config/course-512.ini --backend serial --output serial.dat --csv"
    echo "iterations $(tail -n 1 "$tmp/serial.csv" | cut -d, -f8)"
    echo "md5 $(md5sum "$tmp/serial.dat" | cut -d' ' -f1)"
} > tests/data/course-512-float.serial
rm -rf "$tmp"
cat tests/data/course-512-float.serial

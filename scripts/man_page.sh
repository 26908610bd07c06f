#!/usr/bin/env bash
# man_page.sh LAPLACE - the man page laplace(1), in roff, made from the program's own
# --help and --version (so the two never disagree); make install writes it.
set -euo pipefail
laplace=${1:?usage: man_page.sh ./laplace}
version=$("$laplace" --version | head -n 1 | cut -d' ' -f1-2)
help=$("$laplace" --help | sed '1s|^Usage: [^ ]*|Usage: laplace|')
escape() { sed -e 's/\\/\\e/g' -e 's/^\([.'"'"']\)/\\\&\1/'; }
cat <<ROFF
.TH LAPLACE 1 "$(date -u +%Y-%m-%d)" "$version" "User Commands"
.SH NAME
laplace \- the 2D Laplace, Poisson and heat equations by Jacobi iterations on several GPUs
.SH SYNOPSIS
.B laplace
[\fIOPTIONS\fR] [\fICONFIG.ini\fR]
.SH DESCRIPTION
The text of \fBlaplace --help\fR:
.PP
.nf
$(printf '%s\n' "$help" | escape)
.fi
.SH FILES
The presets installed under \fIPREFIX/share/laplace/config/\fR (default.ini, course-512.ini, ...).
.SH SEE ALSO
The README of the source tree: the lab step by step, the methods, the benchmark.
ROFF

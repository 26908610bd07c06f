#!/usr/bin/env bash
# man_page.sh LAPLACE [PREFIX [DESTDIR]] - the man page laplace(1), in roff, made from
# the program's own --help and --version (so the two never disagree), with the paths
# of an install under PREFIX (default /usr/local) in EXAMPLES and FILES; make install
# runs it on the binary it has just installed under DESTDIR/PREFIX, whose --help
# names its presets folder (DESTDIR, a staging root, is taken out of that path).
set -euo pipefail
laplace=${1:?usage: man_page.sh LAPLACE [PREFIX [DESTDIR]]}
prefix=${2:-/usr/local}
destdir=${3:-}
version=$("$laplace" --version | head -n 1 | cut -d' ' -f1-2)
help=$("$laplace" --help | sed '1s|^Usage: [^ ]*|Usage: laplace|')
if [ -n "$destdir" ]; then
    staged=$(cd "$destdir" && pwd -P)
    help=${help//"$staged"/}
fi
share="$prefix/share/laplace"
escape() { sed -e 's/\\/\\e/g' -e 's/^\([.'"'"']\)/\\\&\1/'; }
presets=$(cd "$(dirname "$0")/../config" 2>/dev/null && ls -- *.ini | tr '\n' ' ' || true)
plots=$(cd "$(dirname "$0")" && ls -- plot_*.gp | tr '\n' ' ')
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
$(printf '%s\n' "$help" | sed '/^Exit status:/,$d' | escape)
.fi
.SH EXAMPLES
.nf
$(escape <<EXAMPLES
# the lecture's problem (a preset, found by its bare name), on every GPU,
# compared with one GPU
laplace course-512.ini --compare

# without a GPU: host tiles, a picture, the convergence history and its plot
laplace --backend cpu --nx 128 --ny 128 --output plate.png --history plate.csv
laplace-plot history plate.csv

# one CSV row per run, into one table (stop column: converged, stagnated, ...)
laplace course-512.ini --partition 2x1 --compare --csv-append runs.csv

# the tiles, devices and memory of a run, without solving it
laplace heat-plate.ini --dry-run

# the lab's table and figure: a run per lattice side, its rows into lab.csv,
# then the figure (iterations and time against N, log-log) as lab-lab.png
laplace course-512.ini --sides 16,32,64,128 --csv-append lab.csv
laplace-plot lab lab.csv

# your own preset: start from an installed one
cp '$share/config/default.ini' mine.ini && laplace mine.ini
EXAMPLES
)
.fi
.SH EXIT STATUS
.nf
$(printf '%s\n' "$help" | sed -n '/^Exit status:/,$p' | sed 1d | escape)
.fi
.SH FILES
.TP
.I $prefix/bin/laplace
the program
.TP
.I $prefix/bin/laplace-plot
draws a CSV of laplace with gnuplot: laplace-plot lab|history|bench FILE.csv
.TP
.I $prefix/share/man/man1/laplace.1
this page
.TP
.I $prefix/share/doc/laplace/LICENSE
the licence, GPL-3.0-or-later
.TP
.I $share/config/
the presets ($presets), read by bare name when the current folder has no file of that name
.TP
.I $share/scripts/
the gnuplot scripts laplace-plot runs ($plots): plot_lab.gp for the lab sweep
(--sides), plot_history.gp for a --history file, plot_bench.gp, plot_sweep.gp and
plot_scaling.gp for the benchmark's CSVs
.TP
.I $share/install-manifest
the files make install wrote, which make uninstall removes
.TP
.I $share/install-sums
their checksums: make uninstall keeps a file changed since
.TP
.I $share/install-dirs
the folders make install made, which make uninstall removes where left empty
.SH SEE ALSO
.BR gnuplot (1),
.BR paraview (1);
the README of the source tree (the lab step by step) and its docs/ pages (options,
outputs, the methods, the benchmark).
ROFF

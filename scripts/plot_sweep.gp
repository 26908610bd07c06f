# plot_sweep.gp - the lattice sweep of laplace --bench (make plots), as a PNG next to
# its CSV: microseconds per iteration against the lattice side, log-log, one line for
# one device, one for 2 GPUs where the sweep has them (more than two), and one for all
# of them (the median of each point; every timed run as a dot), the floor of one device dashed (floor_us: the sweep's bytes at the copy
# bandwidth measured), the crossover marked and named in the title as the bench named
# it (the crossover column, bench_sweep_crossover in bench_sweep.c). A sweep of one GPU
# alone has no second line: the title gives its share of the floor at the largest
# lattice.
#
#   gnuplot -e "csv='results/bench-NVIDIA-H200-2026-11-23-sweep.csv'" scripts/plot_sweep.gp
#   -> results/bench-NVIDIA-H200-2026-11-23-sweep.png
#
# Columns are read by name (bench_sweep_csv_header), so columns added to the CSV do
# not move them.

if (!exists("csv")) {
    print "plot_sweep.gp: name the CSV: gnuplot -e \"csv='FILE-sweep.csv'\" scripts/plot_sweep.gp"
    exit status 2
}
base = (strlen(csv) > 4 && csv[strlen(csv)-3:] eq ".csv") ? csv[1:strlen(csv)-4] : csv

set datafile separator comma
set datafile commentschars "#"
set datafile columnheaders
set datafile missing NaN

# Devices of a partition "AxB": 1 on the one-device rows, all of them on the others.
tiles(s) = int(s[1:strstrt(s, "x") - 1]) * int(s[strstrt(s, "x") + 1:])
side(n) = tiles(strcol("partition")) == n

stats csv using (tiles(strcol("partition"))) nooutput
if (STATS_records == 0) {
    print sprintf("plot_sweep.gp: %s has no rows: nothing to plot", csv)
    exit
}
many = int(STATS_max)
stats csv using (strcol("backend") eq "gpu" ? 1 : 0) nooutput
unit = STATS_max > 0 ? "GPU" : "host thread"
stats csv using (column("crossover") == 1 ? column("nx") : 0) nooutput
crossover = int(STATS_max)
stats csv using "nx" nooutput
smallest = STATS_min; largest = STATS_max
stats csv using (words(strcol("us_per_iter_runs"))) nooutput
runs = int(STATS_max)

one = "1 ".unit
all = sprintf("%d %ss", many, unit)
stats csv using (column("nx") == largest && side(1) ? column("pct_of_floor") : NaN) nooutput
share = STATS_max
named = many == 1 \
    ? sprintf("%s against its floor: %.0f%% of it at %d^2", one, share, int(largest)) \
    : crossover > 0 \
    ? sprintf("crossover %d^2: %s faster than %s from there up", crossover, all, one) \
    : sprintf("no crossover found: %s not faster than %s at %d^2", all, one, int(largest))

# The k-th timed run of a row (us_per_iter_runs: the runs' values, space separated).
run(k) = words(strcol("us_per_iter_runs")) >= k ? real(word(strcol("us_per_iter_runs"), k)) : NaN

set terminal pngcairo size 1100,560 noenhanced font ",10"
set output base.".png"
set title sprintf("%s\n%s", csv, named)
set grid
# the legend right of the plot, where no point can fall under it (inside, at the
# top left, it covered the small lattices' points); the picture is wider for it
set key outside right top
set logscale x 2
set logscale y 10
set xrange [smallest / 1.3 : largest * 1.3]
set xtics ()
do for [e = 0:20] { n = 2**e; if (n >= smallest && n <= largest) { set xtics add (sprintf("%d", n) n) } }
set xlabel "lattice side n (n x n sites, float)"
set ylabel "microseconds per iteration (compute time / iterations)"
if (crossover > 0) {
    set arrow from crossover, graph 0 to crossover, graph 1 nohead dt 2 lw 1.5 lc rgb "#707070"
    set label "crossover" at crossover, graph 0.04 offset 0.7, 0 textcolor rgb "#505050"
}
# The one-device line, its runs and its floor; the all-devices line and its runs
# only where there is a second side (a sweep of one GPU alone has none).
one_side = 'csv using (side(1) ? column("nx") : NaN):"us_per_iter" with linespoints lw 2 \
    pt 7 lc 1 title one." (median)", \
    csv using (side(1) ? column("nx") : NaN):"floor_us" with lines dt 2 lw 1.5 \
    lc rgb "#505050" title "floor of ".one." (copy bandwidth)", \
    for [k = 1:runs] csv using (side(1) ? column("nx") : NaN):(run(k)) with points pt 6 \
    ps 0.6 lc 1 notitle'
all_side = many == 1 ? '' : ', csv using (side(many) ? column("nx") : NaN):"us_per_iter" \
    with linespoints lw 2 pt 7 lc 2 title all." (median)", \
    for [k = 1:runs] csv using (side(many) ? column("nx") : NaN):(run(k)) with points \
    pt 6 ps 0.6 lc 2 notitle'
# 2 GPUs, where a sweep of more than two has them
two = "2 ".unit."s"
two_side = many <= 2 ? '' : ', csv using (side(2) ? column("nx") : NaN):"us_per_iter" \
    with linespoints lw 2 pt 7 lc 3 title two." (median)", \
    for [k = 1:runs] csv using (side(2) ? column("nx") : NaN):(run(k)) with points \
    pt 6 ps 0.6 lc 3 notitle'
plot @one_side @two_side @all_side
set output
print sprintf("plot_sweep.gp: wrote %s.png (%s)", base, named)

# plot_bench.gp - the plots of one laplace --bench CSV (make plots), as PNGs next to it:
#   <csv>-scaling.png     compute time and parallel efficiency against GPUs, 16384^2
#   <csv>-updates.png     lattice updates per second against the lattice size
#   <csv>-bandwidth.png   the fraction of the copy bandwidth reached, against the size
#   <csv>-layouts.png     every NGx x NGy of the most GPUs at 16384^2: time and efficiency
# The first three plot the "scaling" group (default kernel, block and reduce, the
# squarest layout); the last adds the "layout" group. Points are every run; lines
# go through the mean of the two runs of a configuration.
# A bench without GPU has none of these: its matrix is the CPU baseline alone (the
# "cpu" group: host tiles on every core, one configuration run twice), drawn as
#   <csv>-cpu.png         each run's compute time, and its GB/s against the host's
#                         copy bandwidth measured by the same bench
#
#   gnuplot -e "csv='results/bench-NVIDIA-H200-2026-11-22.csv'" scripts/plot_bench.gp

if (!exists("csv")) {
    print "plot_bench.gp: name the CSV: gnuplot -e \"csv='FILE.csv'\" scripts/plot_bench.gp"
    exit status 2
}
base = (strlen(csv) > 4 && csv[strlen(csv)-3:] eq ".csv") ? csv[1:strlen(csv)-4] : csv

set datafile separator comma
set datafile commentschars "#"
set datafile columnheaders
set datafile missing NaN   # rows filtered out (NaN) do not break the lines

# The columns (bench_csv_header in bench.c).
c_precision = 2; c_nx = 3; c_partition = 5; c_compute = 12; c_glups = 15
c_fraction = 23; c_efficiency = 25; c_group = 27

# GPUs of a partition "AxB"; whether this row is a scaling run with that many GPUs
# and that precision.
gpus(s) = int(s[1:strstrt(s, "x") - 1]) * int(s[strstrt(s, "x") + 1:])
scaling(g, p) = strcol(c_group) eq "scaling" && gpus(strcol(c_partition)) == g \
                && strcol(c_precision) eq p
at(n, g, p) = scaling(g, p) && column(c_nx) == n

stats csv using (strcol(c_group) eq "scaling" ? 1 : 0) nooutput
if (STATS_sum == 0) {
    # ---- a bench without GPU: the CPU baseline, run by run --------------------
    c_gbps = 16; c_repeat = 21; c_copy = 22
    cpu(x) = strcol(c_group) eq "cpu" ? x : NaN
    stats csv using (cpu(1)) nooutput
    if (STATS_records == 0) {
        print sprintf("plot_bench.gp: %s has neither GPU nor CPU runs: nothing to plot", csv)
        exit
    }
    runs = STATS_records
    stats csv using (cpu(column(c_copy))) nooutput
    copy = STATS_max
    stats csv using (cpu(column(c_nx))) nooutput
    n_cpu = int(STATS_max)
    set terminal pngcairo size 1200,520 noenhanced font ",10"
    set output base."-cpu.png"
    set multiplot layout 1,2 title sprintf("%s: no GPU; the CPU baseline, %d^2 double on host tiles, every core", csv, n_cpu)
    set grid
    set xlabel "run"
    set xrange [0.4:runs + 0.6]
    set xtics 1
    set style fill solid 0.5
    set boxwidth 0.6
    set yrange [0:*]
    set key top right
    set ylabel "compute time (s)"
    plot csv using (cpu(column(c_repeat))):c_compute with boxes lc 1 title "compute time"
    set ylabel "GB/s (one read + one write per site)"
    set yrange [0:copy * 1.15]
    plot csv using (cpu(column(c_repeat))):c_gbps with boxes lc 2 title "host tiles", \
         copy with lines lw 1.5 dt 2 lc rgb "#707070" title sprintf("host copy %.1f GB/s", copy)
    unset multiplot
    set output
    print sprintf("plot_bench.gp: wrote the cpu PNG next to %s (a bench without GPU: its CPU baseline)", csv)
    exit
}
# (a) is drawn at 16384^2, or at the largest size run (LAPLACE_BENCH_QUICK).
stats csv using (strcol(c_group) eq "scaling" ? column(c_nx) : NaN) nooutput
largest = STATS_max
stats csv using ((strcol(c_group) eq "scaling" && column(c_nx) == 16384) ? 1 : 0) nooutput
n_a = STATS_sum > 0 ? 16384 : largest

set terminal pngcairo size 1200,520 noenhanced font ",10"
set grid
set key top left
# The GPU counts the scaling group ran (1 2 4 8, up to the machine's).
stats csv using (strcol(c_group) eq "scaling" ? gpus(strcol(c_partition)) : NaN) nooutput
counts = STATS_max >= 8 ? "1 2 4 8" : STATS_max >= 4 ? "1 2 4" : STATS_max >= 2 ? "1 2" : "1"
precisions = "float double"
lc_of(g) = g == 1 ? 1 : g == 2 ? 2 : g == 4 ? 4 : 7

# ---- (a) time and efficiency against GPUs ------------------------------------
set output base."-scaling.png"
set multiplot layout 1,2 title sprintf("%s: %d^2, the same iterations on 1, 2, 4 and 8 GPUs", csv, n_a)
set logscale x 2
set xrange [0.8:10]
set xtics ("1" 1, "2" 2, "4" 4, "8" 8)
set xlabel "GPUs"
set ylabel "compute time (s)"
set logscale y
plot for [p in precisions] csv using (at(n_a, gpus(strcol(c_partition)), p) \
         ? gpus(strcol(c_partition)) : NaN):c_compute smooth unique with linespoints \
         lw 2 title p." (mean)", \
     for [p in precisions] csv using (at(n_a, gpus(strcol(c_partition)), p) \
         ? gpus(strcol(c_partition)) : NaN):c_compute with points pt 6 notitle
unset logscale y
set ylabel "parallel efficiency T1 / (N TN)"
set yrange [0:1.15]
set key bottom left
plot for [p in precisions] csv using (at(n_a, gpus(strcol(c_partition)), p) \
         ? gpus(strcol(c_partition)) : NaN):c_efficiency smooth unique with linespoints \
         lw 2 title p." (mean)", \
     1 with lines lw 1.5 dt 2 lc rgb "#707070" title "ideal"
unset multiplot
set autoscale y
set key top left

# ---- (b) lattice updates per second against size -----------------------------
set output base."-updates.png"
set title sprintf("%s: lattice updates per second (scaling runs)", csv)
set autoscale x
set xtics auto
set logscale x 2
set logscale y
set xlabel "lattice n (n x n sites)"
set ylabel "Glups (1e9 site updates per second)"
plot for [i = 1:words(counts)] for [j = 1:2] csv using \
         (scaling(int(word(counts, i)), word(precisions, j)) ? column(c_nx) : NaN):c_glups \
         smooth unique with linespoints lw 2 lc lc_of(int(word(counts, i))) dt j \
         title sprintf("%s GPU%s %s", word(counts, i), i > 1 ? "s" : "", word(precisions, j))

# ---- (c) fraction of the copy bandwidth against size -------------------------
set output base."-bandwidth.png"
set title sprintf("%s: GB/s (one read + one write per site) / (GPUs x copy GB/s)", csv)
unset logscale y
set yrange [0:1.1]
set ylabel "fraction of the copy bandwidth"
set key bottom right
plot for [i = 1:words(counts)] for [j = 1:2] csv using \
         (scaling(int(word(counts, i)), word(precisions, j)) ? column(c_nx) : NaN):c_fraction \
         smooth unique with linespoints lw 2 lc lc_of(int(word(counts, i))) dt j \
         title sprintf("%s GPU%s %s", word(counts, i), i > 1 ? "s" : "", word(precisions, j)), \
     0.9 with lines lw 1.5 dt 2 lc rgb "#707070" title "target 0.9 (1 GPU, 16384^2)"

# ---- (d) every layout of the most GPUs at n_a ---------------------------------
# Layouts are placed by NGx on a log axis (1x8 at 1, 2x4 at 2, ...), so that the
# x-axis reads as "how many columns of GPUs".
set autoscale xy   # stats below obey the ranges of (c)
stats csv using ((strcol(c_group) eq "layout" && column(c_nx) == n_a) ? 1 : 0) nooutput
most = 0
if (STATS_sum > 0) {
    stats csv using ((strcol(c_group) eq "layout" && column(c_nx) == n_a) \
                     ? gpus(strcol(c_partition)) : NaN) nooutput
    most = int(STATS_max)
}
wrote = "scaling, updates, bandwidth"
if (most > 0) {
    ngx(s) = int(s[1:strstrt(s, "x") - 1])
    layout(g, p) = (strcol(c_group) eq "layout" || strcol(c_group) eq "scaling") \
                   && gpus(strcol(c_partition)) == g && strcol(c_precision) eq p \
                   && column(c_nx) == n_a
    set output base."-layouts.png"
    set multiplot layout 1,2 title sprintf("%s: %d^2 on %d GPUs, every layout NGx x NGy", csv, n_a, most)
    unset title
    set logscale x 2
    set xrange [0.7:most * 1.4]
    set xtics ()
    do for [x = 1:most] { if (most % x == 0) { set xtics add (sprintf("%dx%d", x, most / x) x) } }
    set xlabel "layout NGx x NGy"
    set ylabel "compute time (s)"
    set key top center
    unset logscale y
    set autoscale y
    plot for [p in precisions] csv using (layout(most, p) ? ngx(strcol(c_partition)) : NaN):c_compute \
             smooth unique with linespoints lw 2 title p." (mean)", \
         for [p in precisions] csv using (layout(most, p) ? ngx(strcol(c_partition)) : NaN):c_compute \
             with points pt 6 notitle
    set ylabel "parallel efficiency T1 / (N TN)"
    set yrange [0:1.15]
    set key bottom center
    plot for [p in precisions] csv using (layout(most, p) ? ngx(strcol(c_partition)) : NaN):c_efficiency \
             smooth unique with linespoints lw 2 title p." (mean)", \
         1 with lines lw 1.5 dt 2 lc rgb "#707070" title "ideal"
    unset multiplot
    wrote = wrote.", layouts"
}

set output
print sprintf("plot_bench.gp: wrote the %s PNGs next to %s", wrote, csv)

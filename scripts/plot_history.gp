# plot_history.gp - the convergence history of a run (laplace --history FILE.csv):
# the norm on a log scale against the iteration, as FILE-history.png next to the CSV,
# with the run's eps (the history's eps column) as a dashed line: where the run aims.
# A history without that column (written before it), or of a run without eps
# (--steps, eps 0), has no line.
#
#   gnuplot -e "csv='h.csv'" scripts/plot_history.gp      (or: make plots HISTORY=h.csv)

if (!exists("csv")) {
    print "plot_history.gp: name the history: gnuplot -e \"csv='h.csv'\" scripts/plot_history.gp"
    exit status 2
}
base = (strlen(csv) > 4 && csv[strlen(csv)-3:] eq ".csv") ? csv[1:strlen(csv)-4] : csv

set datafile separator comma
set datafile columnheaders
set terminal pngcairo size 900,520 noenhanced font ",10"
set output base."-history.png"
set title sprintf("%s: the norm at each check", csv)
set grid
set logscale y
set format y "%.0e"
set xlabel "iteration"
set ylabel "norm (log scale)"
# eps: the 4th column's value on the first row, when there is one and it is > 0.
eps = 0; STATS_records = 0; STATS_max = 0
stats csv using (column(4)) every ::0::0 nooutput
if (STATS_records > 0 && STATS_max > 0) { eps = STATS_max }
if (eps > 0) {
    set arrow from graph 0, first eps to graph 1, first eps nohead dt 2 lw 1.5 lc rgb "#c03030"
    set label sprintf("eps %g", eps) at graph 0.99, first eps right offset 0, 0.7 \
        textcolor rgb "#c03030"
    stats csv using (column(2) > 0 ? column(2) : NaN) nooutput
    # the line in view and clear of the bottom frame: a decade below the lower of eps
    # and the smallest norm (a converged run ends just below eps)
    bottom = (STATS_min < eps ? STATS_min : eps) / 10
    set yrange [bottom:*]
    print sprintf("plot_history.gp: the eps line at %g, the y axis from %g", eps, bottom)
}
set key off
plot csv using 1:2 with lines lw 2
set output
print sprintf("plot_history.gp: wrote %s-history.png", base)

# plot_history.gp - the convergence history of a run (laplace --history FILE.csv):
# the norm on a log scale against the iteration, as FILE-history.png next to the CSV.
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
set key off
plot csv using 1:2 with lines lw 2
set output
print sprintf("plot_history.gp: wrote %s-history.png", base)

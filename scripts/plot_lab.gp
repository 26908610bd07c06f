# plot_lab.gp - the lab sweep of laplace --sides (the course's figure): iterations and
# compute time against the lattice side N, on log-log axes, each with the line of
# least squares through the rows that converged or stagnated and its exponent (the
# same fit as the program's "fit" line: Jacobi's iterations grow as N^2, drawn as a
# dashed reference), titled with the backend, partition and precision of the rows, as
# FILE-lab.png next to the CSV.
#
#   ./laplace config/course-512.ini --sides 16,32,64,128,256 --csv-append lab.csv
#   gnuplot -e "csv='lab.csv'" scripts/plot_lab.gp      (or: make plots LAB=lab.csv)
#
# Columns are read by name (nx, iterations, time_compute_s, stop), so the CSV may hold
# more of them, in any order after the fixed ones.

if (!exists("csv")) {
    print "plot_lab.gp: name the CSV: gnuplot -e \"csv='lab.csv'\" scripts/plot_lab.gp"
    exit status 2
}
base = (strlen(csv) > 4 && csv[strlen(csv)-3:] eq ".csv") ? csv[1:strlen(csv)-4] : csv

set datafile separator comma
set datafile columnheaders
set datafile missing NaN

# A row that reached its end (converged or stagnated) is fitted; others are NaN.
reached(v) = (strcol("stop") eq "converged" || strcol("stop") eq "stagnated") ? v : NaN

# log y = a + b log N, by least squares (fit's own), for iterations and time.
fi(x) = ai + bi * x
ft(x) = at + bt * x
ai = 1; bi = 2; at = -10; bt = 3
set fit quiet nolog
fit fi(x) csv using (log(column("nx"))):(reached(log(column("iterations")))) via ai, bi
fit ft(x) csv using (log(column("nx"))):(reached(log(column("time_compute_s")))) via at, bt
print sprintf("plot_lab.gp: iterations ~ N^%.2f, compute time ~ N^%.2f", bi, bt)

# What the rows ran on (the last row's; laplace-plot warns when the rows differ), and
# the smallest N, where the N^2 reference line meets the fitted one.
backend = "?"; partition = "?"; precision = "?"
stats csv using (backend = strcol("backend"), partition = strcol("partition"), \
                 precision = strcol("precision"), column("nx")) nooutput
n0 = STATS_min
ref(x) = exp(fi(log(n0))) * (x / n0)**2
ran = sprintf("backend %s, partition %s, %s", backend, partition, precision)
print sprintf("plot_lab.gp: %s; the dashed line is N^2, Jacobi's iterations", ran)

set terminal pngcairo size 1100,480 noenhanced font ",10"
set output base."-lab.png"
set multiplot layout 1,2 title sprintf("%s: the lab sweep, log-log (%s)", csv, ran)
set logscale xy
set grid
set xlabel "lattice side N (N x N sites)"
set key top left

set ylabel "iterations"
set title sprintf("iterations ~ N^%.2f", bi)
plot csv using "nx":"iterations" with points pt 7 ps 1.2 title "run", \
     [x = 1:1e9] exp(fi(log(x))) with lines lw 2 title sprintf("fit: N^%.2f", bi), \
     [x = 1:1e9] ref(x) with lines dt 2 lw 1.5 lc "gray40" title "N^2 (Jacobi's)"

set ylabel "compute time (s)"
set title sprintf("compute time ~ N^%.2f", bt)
plot csv using "nx":"time_compute_s" with points pt 7 ps 1.2 title "run", \
     [x = 1:1e9] exp(ft(log(x))) with lines lw 2 title sprintf("fit: N^%.2f", bt)
unset multiplot
set output
print sprintf("plot_lab.gp: wrote %s-lab.png", base)

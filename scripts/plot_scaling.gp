# plot_scaling.gp - one PNG of two scripts/bench_scaling.sh tables (float and double,
# the same lattice): speed-up against GPUs, and the parallel efficiency of every
# layout NGx x NGy. Points are every run; speed-up and efficiency are against the
# faster 1x1 run of the same table.
#
#   gnuplot -e "float='f.csv'; double='d.csv'; out='scaling.png'" scripts/plot_scaling.gp

if (!exists("float") || !exists("double") || !exists("out")) {
    print "plot_scaling.gp: name the tables and the picture: gnuplot -e \"float='f.csv'; double='d.csv'; out='x.png'\" scripts/plot_scaling.gp"
    exit status 2
}

set datafile separator comma
# Only the runs: the rows that start with the quoted command line.
float_runs = "< grep '^\"laplace' ".float
double_runs = "< grep '^\"laplace' ".double
c_backend = 2; c_nx = 4; c_partition = 6; c_iterations = 9; c_compute = 13

layouts = "1x1 1x2 2x1 2x2 1x4 4x1 1x8 2x4 4x2 8x1"
gpus(s) = int(s[1:strstrt(s, "x") - 1]) * int(s[strstrt(s, "x") + 1:])
place(s) = sum [i = 1:words(layouts)] (word(layouts, i) eq s ? i : 0)

# T1 of each table: its faster 1x1 run; the lattice and iterations, for the title.
stats float_runs using (strcol(c_partition) eq "1x1" ? column(c_compute) : NaN) nooutput
t1_float = STATS_min
stats double_runs using (strcol(c_partition) eq "1x1" ? column(c_compute) : NaN) nooutput
t1_double = STATS_min
stats float_runs using (column(c_nx)) nooutput
n = int(STATS_max)
stats float_runs using (column(c_iterations)) nooutput
it_float = int(STATS_max)
stats double_runs using (column(c_iterations)) nooutput
it_double = int(STATS_max)
stats float_runs using (gpus(strcol(c_partition))) nooutput
most = int(STATS_max)

speedup(t1) = t1 / column(c_compute)
efficiency(t1) = t1 / (gpus(strcol(c_partition)) * column(c_compute))

set terminal pngcairo size 1200,520 noenhanced font ",10"
set output out
set multiplot layout 1,2 title sprintf("%d^2 Jacobi, norm every iteration: float %d iterations (1 GPU %.3f s), double %d (1 GPU %.3f s)", n, it_float, t1_float, it_double, t1_double)
set grid
set key top left
set logscale xy 2
set xrange [0.8:most * 1.25]
set yrange [0.8:most * 1.25]
set xtics ("1" 1, "2" 2, "4" 4, "8" 8)
set ytics ("1" 1, "2" 2, "4" 4, "8" 8)
set xlabel "GPUs"
set ylabel "speed-up T1 / TN"
plot float_runs using (gpus(strcol(c_partition))):(speedup(t1_float)) \
         with points pt 7 ps 1.2 title "float, every layout and run", \
     double_runs using (gpus(strcol(c_partition))):(speedup(t1_double)) \
         with points pt 6 ps 1.6 title "double, every layout and run", \
     x with lines dt 2 lc rgb "#707070" title "ideal"

unset logscale
set xrange [0.5:words(layouts) + 0.5]
set yrange [0:1.1]
set ytics auto
set xtics () rotate by 0
do for [i = 1:words(layouts)] { set xtics add (word(layouts, i) i) }
set xlabel "layout NGx x NGy"
set ylabel "parallel efficiency T1 / (N TN)"
set key bottom left
plot float_runs using (place(strcol(c_partition))):(efficiency(t1_float)) \
         with points pt 7 ps 1.2 title "float", \
     double_runs using (place(strcol(c_partition))):(efficiency(t1_double)) \
         with points pt 6 ps 1.6 title "double", \
     0.9 with lines dt 2 lc rgb "#707070" title "target 0.9 (8 GPUs, 16384^2 float)"
unset multiplot
set output
print sprintf("plot_scaling.gp: wrote %s", out)

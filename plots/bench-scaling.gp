# The simulator's own cost against the machine size, from `numasim bench -o
# results/bench-scaling.csv`: microseconds of wall time per (CPU x call) of
# the O(1) strategies (of the run whole, and at the margin: the difference of
# a run with 3 times the calls), and nanoseconds per simulated access of the
# scan, one point per scaling platform, log x. Flat lines mean the
# simulator's cost grows with the simulated work and nothing else. Wall times
# of one machine: the whole runs' first points are dominated by the start of
# each process, which the margin leaves out.
#
#   gnuplot -e "src='results/bench-scaling.csv'; outdir='plots'" bench-scaling.gp

if (!exists("src") || !exists("outdir")) {
    print "bench-scaling.gp: set src='CSV' and outdir='DIR' with -e"
    exit status 2
}
set datafile separator ','
set logscale x 2
set logscale y
set grid
set key top right
set xlabel 'simulated CPUs'
set termoption noenhanced
set title "numasim's own cost per unit of simulated work (numasim bench)"
do for [t in 'svg png'] {
    if (t eq 'svg') {
        set terminal svg size 1000,600 dynamic font 'Sans,12' background '#ffffff'
    } else {
        if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
            set terminal pngcairo size 1000,600 font 'Sans,11' background '#ffffff'
        } else {
            set terminal png size 1000,600 font 'Sans,10' background '#ffffff'
        }
    }
    set output outdir . '/bench-scaling.' . t
    set ylabel 'wall time per unit'
    plot src using 1:5 skip 1 with linespoints lw 2 pt 7 lc rgb '#2ca02c' \
             title 'O(1) strategies: us per (CPU x call), the run whole', \
         src using 1:9 skip 1 with linespoints lw 2 pt 9 dt 2 lc rgb '#1f77b4' \
             title 'O(1) strategies: us per (CPU x call) at the margin', \
         src using 1:8 skip 1 with linespoints lw 2 pt 5 lc rgb '#d62728' \
             title 'scan: ns per simulated access'
    unset output
}

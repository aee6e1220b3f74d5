# The spacing sweep on this host: median cycles per warm del_timer_sync call
# against the other work between two calls (measure.spacing_cycles), one
# colour per strategy, measured natively (solid, filled points) and
# predicted by the model on the fitted host platform (dashed, open points).
# Drawn by scripts/validate and plots/draw-all from
# results/spacing-sweep-host.csv and results/spacing-sweep-predicted.csv
# (numasim run CSVs of scenarios/spacing-sweep.ini). x is on a log scale;
# a spacing of 0 is drawn at 100 cycles, labelled 0.
#
#   gnuplot -e "host='results/spacing-sweep-host.csv'; pred='results/spacing-sweep-predicted.csv'; outdir='plots'" spacing-sweep.gp

if (!exists("host") || !exists("pred") || !exists("outdir")) {
    print "spacing-sweep.gp: set host='CSV', pred='CSV' and outdir='DIR' with -e"
    exit status 2
}
set datafile separator ','
# run CSV columns: 5 strategy, 9 median_cycles, 21 sweep_value
zero = 100
xv(v) = v > 0 ? v : zero
strategies = 'scan last_running singleshot naive base_tracking'
array COL[5] = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#8c564b']
# a call faster than the clock read is timed at 0 cycles, which a log
# axis cannot show: the range is taken over 1 cycle and up
yv(v) = v >= 1 ? v : 1
stats host using (xv($21)):(yv($9)) skip 1 nooutput
ymin = STATS_min_y; ymax = STATS_max_y; xmax = STATS_max_x
stats pred using (xv($21)):(yv($9)) skip 1 nooutput
ymin = STATS_min_y < ymin ? STATS_min_y : ymin
ymax = STATS_max_y > ymax ? STATS_max_y : ymax
xmax = STATS_max_x > xmax ? STATS_max_x : xmax
set logscale xy
set xrange [zero / 2 : xmax * 2]
set yrange [10 ** floor(log10(ymin) - 0.05) : 10 ** ceil(log10(ymax) + 0.05)]
set format y '%.0f'
do for [e = 1:6] { set ytics add (2 * 10 ** e, 5 * 10 ** e) }
set xtics ('0' zero)
do for [e = 3:9] { if (10.0 ** e <= xmax * 1.01) { set xtics add (sprintf('10^%d', e) 10.0 ** e) } }
set grid xtics ytics lc rgb '#dddddd'
set xlabel 'other work between two calls (measure.spacing_cycles, log scale)'
set ylabel 'cycles per warm del_timer_sync call (median, log scale)'
set key outside right top vertical Left reverse font ',9' box lc rgb '#bbbbbb'
set termoption noenhanced
set title 'spacing sweep on this host: measured (solid) and predicted (dashed)'
# one strategy's points, "x,median" sorted by x (awk: gnuplot would break
# the line at every other strategy's row)
pts(f, s) = sprintf("< awk -F, 'NR > 1 && $5 == \"%s\" { print ($21 > 0 ? $21 : %d) \",\" $9 }' '%s' | sort -t, -g", s, zero, f)
do for [t in 'svg png'] {
    if (t eq 'svg') {
        set terminal svg size 1000,650 dynamic font 'Sans,12' background '#ffffff'
    } else {
        if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
            set terminal pngcairo size 1000,650 font 'Sans,10' background '#ffffff'
        } else {
            set terminal png size 1000,650 font 'Sans,9' background '#ffffff'
        }
    }
    set termoption noenhanced
    set output outdir . '/spacing-sweep.' . t
    plot for [i = 1:words(strategies)] pts(host, word(strategies, i)) using 1:2 \
             with linespoints lw 1.8 pt 7 lc rgb COL[i] title word(strategies, i) . ' measured', \
         for [i = 1:words(strategies)] pts(pred, word(strategies, i)) using 1:2 \
             with linespoints lw 1.4 dt 2 pt 6 lc rgb COL[i] title word(strategies, i) . ' predicted'
}

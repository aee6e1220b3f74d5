# Predicted against measured cycles per del_timer_sync call on this host, one
# point per cell (scenario, strategy, cache), log-log, with y = x and the 25%
# band. Drawn by scripts/validate and plots/draw-all from
# results/host-validation.csv (medians). The horizontal error bars span the
# K repeat medians of each measured cell (measured_min, measured_max: columns
# 10 and 11; a CSV without them is drawn without bars).
#
#   gnuplot -e "src='results/host-validation.csv'; outdir='plots'" host-validation.gp

if (!exists("src") || !exists("outdir")) {
    print "host-validation.gp: set src='CSV' and outdir='DIR' with -e"
    exit status 2
}
set datafile separator ','
set key off
set logscale xy
set grid
set xlabel 'measured on the host (median cycles per call)'
set ylabel 'predicted by the model (median cycles per call)'
stats src using 4:5 skip 1 nooutput
lo = (STATS_min_x < STATS_min_y ? STATS_min_x : STATS_min_y) / 2
hi = (STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y) * 2
lo = lo < 1 ? 1 : lo
set xrange [lo:hi]
set yrange [lo:hi]
set termoption noenhanced
set title 'numasim on this host: prediction (fitted to latency probes only) against measurement'
lab(s, st, c) = (s eq 'paper-table' ? '' : s . ' ') . st . ' ' . c
col(c) = c eq 'cold' ? 0x1f77b4 : 0xd62728
do for [t in 'svg png'] {
    if (t eq 'svg') {
        set terminal svg size 900,700 dynamic font 'Sans,12' background '#ffffff'
    } else {
        if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
            set terminal pngcairo size 900,700 font 'Sans,10' background '#ffffff'
        } else {
            set terminal png size 900,700 font 'Sans,9' background '#ffffff'
        }
    }
    set termoption noenhanced
    set output outdir . '/host-validation.' . t
    plot x with lines lc rgb '#444444' dt 1 title 'y = x', \
         1.25 * x with lines lc rgb '#aaaaaa' dt 2, \
         x / 1.25 with lines lc rgb '#aaaaaa' dt 2, \
         src skip 1 using 5:4:(valid(10) ? $10 : $5):(valid(11) ? $11 : $5):(col(strcol(3))) \
             with xerrorbars pt 7 ps 1.3 lc rgb variable, \
         src skip 1 using 5:4:(lab(strcol(1), strcol(2), strcol(3))) with labels offset 1,0.6 left font ',8'
}

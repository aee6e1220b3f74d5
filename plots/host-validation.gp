# Predicted against measured cycles per del_timer_sync call on this host, one
# point per cell (scenario, strategy, cache), log-log, with y = x and the 25%
# band. Drawn by scripts/validate and plots/draw-all from
# results/host-validation.csv (medians). The horizontal error bars span the
# K repeat medians of each measured cell (measured_min, measured_max: columns
# 10 and 11; a CSV without them is drawn without bars).
# Below it, when the CSV has the split halves (host_factor, model_factor,
# pass: columns 15 to 17), a second panel gives both factors per cell: the
# host's odd repeats against its even ones (grey) and the model against each
# half, their mean (green where it passes, at most the host's; red where not).
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
stats src using 4 skip 1 nooutput
halves = STATS_columns >= 17
if (halves) {
    stats src using 15:16 skip 1 nooutput
    ncell = STATS_records
    fhi = (STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y) * 1.15
    fhi = fhi < 1.5 ? 1.5 : fhi
}
set xrange [lo:hi]
set yrange [lo:hi]
set termoption noenhanced
set title 'numasim on this host: prediction (fitted to latency probes only) against measurement'
lab(s, st, c) = (s eq 'paper-table' ? '' : s . ' ') . st . ' ' . c
col(c) = c eq 'cold' ? 0x1f77b4 : 0xd62728
pcol(p) = p eq 'yes' ? 0x2ca02c : 0xd62728
do for [t in 'svg png'] {
    if (t eq 'svg') {
        set terminal svg size 900,(halves ? 1150 : 700) dynamic font 'Sans,12' background '#ffffff'
    } else {
        if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
            set terminal pngcairo size 900,(halves ? 1150 : 700) font 'Sans,10' background '#ffffff'
        } else {
            set terminal png size 900,(halves ? 1150 : 700) font 'Sans,9' background '#ffffff'
        }
    }
    set termoption noenhanced
    set output outdir . '/host-validation.' . t
    if (halves) {
        set multiplot
        set lmargin at screen 0.1
        set rmargin at screen 0.97
        set size 1,0.6
        set origin 0,0.4
    }
    plot x with lines lc rgb '#444444' dt 1 title 'y = x', \
         1.25 * x with lines lc rgb '#aaaaaa' dt 2, \
         x / 1.25 with lines lc rgb '#aaaaaa' dt 2, \
         src skip 1 using 5:4:(valid(10) ? $10 : $5):(valid(11) ? $11 : $5):(col(strcol(3))) \
             with xerrorbars pt 7 ps 1.3 lc rgb variable, \
         src skip 1 using 5:4:(lab(strcol(1), strcol(2), strcol(3))) with labels offset 1,0.6 left font ',8'
    if (halves) {
        set size 1,0.4
        set origin 0,0
        unset logscale
        set logscale y
        set title 'split halves: the host (odd repeats against even) and the model (against each half, mean)'
        set xlabel ''
        set ylabel 'factor max/min (log)'
        set xrange [-0.6:ncell - 0.4]
        set yrange [1:fhi]
        set xtics rotate by 45 right font ',8' nomirror
        set ytics (1, 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100) nomirror
        set grid ytics
        set key top left
        set style fill solid 0.8 noborder
        set boxwidth 0.38
        plot src skip 1 using ($0 - 0.2):(valid(15) ? $15 : 1/0):xtic(lab(strcol(1), strcol(2), strcol(3))) \
                 with boxes lc rgb '#888888' title 'host: odd against even repeats', \
             src skip 1 using ($0 + 0.2):(valid(16) ? $16 : 1/0):(pcol(strcol(17))) \
                 with boxes lc rgb variable title 'model: mean against the halves (green: passes)'
        unset multiplot
        # the next terminal starts from the scatter's settings
        set logscale xy
        set xrange [lo:hi]
        set yrange [lo:hi]
        set xtics norotate autofreq font '' mirror
        set ytics autofreq mirror
        unset grid
        set grid
        set key off
        set xlabel 'measured on the host (median cycles per call)'
        set ylabel 'predicted by the model (median cycles per call)'
        set title 'numasim on this host: prediction (fitted to latency probes only) against measurement'
        set style fill empty
    }
}

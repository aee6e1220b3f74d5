# Generic sweep chart: the swept value (x) against the mean cycles per call,
# one line per platform x strategy x cache state.
#
#   gnuplot -e "in='PREP.gp'; out='NAME.png'; term='png'" sweep.gp
#
# term: png (pngcairo when gnuplot has it, else libgd png), pngcairo or svg.
# in:   a gnuplot file written by plots/draw-all that defines
#         name, key           scenario name and swept key ("background.ops_per_tick")
#         numeric             1 if every swept value is a number, else 0
#         nx, XL[1..nx]       the swept values in order (tick labels when not numeric)
#         logx                1 to draw x on a log scale (numeric, positive, wide range)
#         nser, SN[1..nser]   series labels ("numa32 scan warm")
#               SC[i]         strategy colour number, SD[i] 1 = warm / 2 = cold,
#               SP[i]         platform number (point type)
#         $sweep              one block per series (index i-1), rows "x mean_cycles"
#                             (x is the value, or its position when not numeric)

if (!exists("in") || !exists("out")) {
    print "sweep.gp: set in='PREPARED.gp' and out='FILE' with -e"
    exit status 2
}
if (!exists("term")) term = 'png'
if (term eq 'svg') {
    set terminal svg size 1000,600 dynamic font 'Sans,12' background '#ffffff'
} else {
    if (term eq 'pngcairo' || (term eq 'png' && strstrt(GPVAL_TERMINALS, 'pngcairo') > 0)) {
        set terminal pngcairo size 1000,600 font 'Sans,11' background '#ffffff'
    } else {
        set terminal png size 1000,600 font 'Sans,10' background '#ffffff'
    }
}
set termoption noenhanced
set output out

load in

array COL[8] = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f']
col(i) = COL[(i - 1) % 8 + 1]
array PT[6] = [7, 5, 9, 11, 13, 15]
ptype(p) = PT[(p - 1) % 6 + 1]

# (stats before any "set logscale": a log axis would drop zero values)
stats $sweep using 1:2 nooutput
xmin = STATS_min_x; xmax = STATS_max_x
ybot = 10 ** floor(log10(STATS_min_y) - 0.05)
ytop = 10 ** ceil(log10(STATS_max_y) + 0.05)

set title sprintf("%s: mean cost per call against %s", name, key)
set ylabel "cycles per del_timer_sync call (mean, log scale)"
set xlabel key . (logx ? " (log scale)" : "")
set logscale y
set format y "%.0f"
set yrange [ybot:ytop]
set mytics 10
set ytics nomirror
set xtics nomirror
if (!numeric) {
    set xrange [0.7:nx + 0.3]
    set xtics ()
    do for [i=1:nx] { set xtics add (XL[i] i) }
} else {
    if (logx) {
        set logscale x
        set xrange [xmin / 1.15 : xmax * 1.15]
    } else {
        span = (xmax > xmin) ? xmax - xmin : 1
        set xrange [xmin - 0.04 * span : xmax + 0.04 * span]
    }
}
set grid xtics ytics lc rgb '#dddddd'
set border 3
set key outside right top vertical Left reverse samplen 3 spacing 1.1 font ',9' box lc rgb '#bbbbbb'

plot for [i=1:nser] $sweep index (i - 1) using 1:2 with linespoints \
         lw 1.5 lc rgb col(SC[i]) dt SD[i] pt ptype(SP[i]) ps 1.1 title SN[i]

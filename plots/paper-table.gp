# Cycles per del_timer_sync call as clustered bars, log y: one cluster per
# platform x cache state, one bar per strategy, plus the measured reference
# cells as points on the bar of the strategy they were measured with.
#
#   gnuplot -e "in='PREP.gp'; out='paper-table.png'; term='png'" paper-table.gp
#
# term: png (pngcairo when gnuplot has it, else libgd png), pngcairo or svg.
# in:   a gnuplot file written by plots/draw-all that defines
#         nc, CL[1..nc]       cluster labels ("numa32\nwarm")
#         ns, SN[1..ns]       strategies shown, in bar order
#             SC[1..ns]       their colour number (1 = scan ... 5 = base_tracking)
#         $bars               rows "cluster strategy mean_cycles" (1-based)
#         nref, $ref          rows "cluster strategy measured_cycles"
#         title_extra         scenario description for the title (may be "")
#       and may define
#         chart_title, ylab   the title and the y label, instead of the
#                             del_timer_sync ones (migration, modern-table)
#         width               the chart's width in pixels (default 1000)

if (!exists("in") || !exists("out")) {
    print "paper-table.gp: set in='PREPARED.gp' and out='FILE' with -e"
    exit status 2
}
load in

if (!exists("width")) width = 1000
if (!exists("term")) term = 'png'
if (term eq 'svg') {
    set terminal svg size width,600 dynamic font 'Sans,12' background '#ffffff'
} else {
    if (term eq 'pngcairo' || (term eq 'png' && strstrt(GPVAL_TERMINALS, 'pngcairo') > 0)) {
        set terminal pngcairo size width,600 font 'Sans,11' background '#ffffff'
    } else {
        set terminal png size width,600 font 'Sans,10' background '#ffffff'
    }
}
set termoption noenhanced
set output out

# One colour per strategy, the same in every chart.
array COL[8] = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f']
col(i) = COL[(i - 1) % 8 + 1]

bw = 0.8 / ns                           # bar width
bx(c, s) = c + (s - (ns + 1) / 2.0) * bw  # bar centre

stats $bars using 3 nooutput
lo = STATS_min; hi = STATS_max
if (nref > 0) {
    stats $ref using 3 nooutput
    lo = (STATS_min < lo) ? STATS_min : lo
    hi = (STATS_max > hi) ? STATS_max : hi
}
ybot = 10 ** floor(log10(lo) - 0.5)       # every bar at least half a decade tall
ytop = 10 ** ceil(log10(hi) + 0.05)

if (!exists("chart_title")) chart_title = sprintf("del_timer_sync cost per strategy%s\n(bars: simulated mean%s)", title_extra, nref > 0 ? "; points: measured on hardware" : "")
if (!exists("ylab")) ylab = "cycles per del_timer_sync call (log scale)"
set title chart_title
set ylabel ylab
set xlabel "platform, cache state" offset 0,-0.6
set bmargin 5
set logscale y
set format y "%.0f"
set yrange [ybot:ytop]
set xrange [0.3:nc + 0.5]
set xtics scale 0 nomirror
set xtics ()
do for [i=1:nc] { set xtics add (CL[i] i) }
set ytics nomirror
set mytics 10
set grid ytics lc rgb '#dddddd'
set border 3
set key outside right top vertical Left reverse samplen 2 spacing 1.3 box lc rgb '#bbbbbb'
set style fill solid 0.85 border lc rgb '#333333'

bars = "for [j=1:ns] $bars using (column(2) == j ? bx(column(1), j) : NaN):3:(bx(column(1), j) - bw / 2):(bx(column(1), j) + bw / 2):(ybot):3 with boxxyerror lc rgb col(SC[j]) title SN[j], " . \
       "$bars using (bx(column(1), column(2))):(ybot * 1.15):(column(3) >= ybot * 10 ** 0.45 ? sprintf('%.0f', column(3)) : '') with labels rotate by 90 left offset 0,0.2 font ',8' tc rgb '#ffffff' notitle"
refs = "$ref using (bx(column(1), column(2))):3 with points pt 9 ps 2.2 lc rgb '#000000' title 'measured (Gustafson 2004)', " . \
       "$ref using (bx(column(1), column(2))):3:(sprintf('%.0f', column(3))) with labels right offset -1.2,0 font ',8' tc rgb '#000000' notitle"

if (nref > 0) {
    plot @bars, @refs
} else {
    plot @bars
}

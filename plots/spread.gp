# Spread of the per-call cost: for each strategy (x) and each platform x cache
# state, whiskers from min to max and a box from median to p95, log y.
#
#   gnuplot -e "in='PREP.gp'; out='paper-table-spread.png'; term='png'" spread.gp
#
# term: png (pngcairo when gnuplot has it, else libgd png), pngcairo or svg.
# in:   a gnuplot file written by plots/draw-all that defines
#         ns, SN[1..ns]       strategies (x categories)
#         nk, KN[1..nk]       series labels ("numa32 warm")
#             KP[1..nk]       platform number of the series (colour)
#             KW[1..nk]       1 if the series is cache-warm (solid fill), else 0
#         $spread             rows "strategy series min median p95 max" (1-based)
#         title_extra         scenario description for the title (may be "")

if (!exists("in") || !exists("out")) {
    print "spread.gp: set in='PREPARED.gp' and out='FILE' with -e"
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

# One colour per platform; warm = dark fill, cold = pale fill.
array PCOL[6] = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b']
pcol(p) = PCOL[(p - 1) % 6 + 1]

bw = 0.8 / nk
sx(s, k) = s + (k - (nk + 1) / 2.0) * bw

stats $spread using 3 nooutput
lo = STATS_min
stats $spread using 6 nooutput
hi = STATS_max
ybot = 10 ** floor(log10(lo) - 0.05)
ytop = 10 ** ceil(log10(hi) + 0.05)

set title sprintf("Spread of the per-call cost%s\n(whiskers: min to max; box: median to p95; dot: median)", title_extra)
set ylabel "cycles per del_timer_sync call (log scale)"
set xlabel "strategy"
set logscale y
set format y "%.0f"
set yrange [ybot:ytop]
set xrange [0.5:ns + 0.5]
set xtics scale 0 nomirror
set xtics ()
do for [i=1:ns] { set xtics add (SN[i] i) }
set ytics nomirror
set mytics 10
set grid ytics lc rgb '#dddddd'
set border 3
# Separators between the strategies.
do for [i=1:ns-1] { set arrow from i + 0.5, graph 0 to i + 0.5, graph 1 nohead lc rgb '#cccccc' dt 3 }
set key outside right top vertical Left reverse samplen 2 spacing 1.3 box lc rgb '#bbbbbb'
set boxwidth bw * 0.75 absolute

plot for [k=1:nk] $spread using (column(2) == k ? sx(column(1), k) : NaN):4:3:6:5 \
         with candlesticks whiskerbars 0.6 lw 1.5 lc rgb pcol(KP[k]) \
         fs solid (KW[k] ? 0.75 : 0.2) border lc rgb pcol(KP[k]) title KN[k], \
     for [k=1:nk] $spread using (column(2) == k ? sx(column(1), k) : NaN):4 \
         with points pt 7 ps 0.6 lc rgb '#000000' notitle

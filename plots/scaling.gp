# Scaling with the machine size: mean cycles per call against the number of
# CPUs, log-log, one line (with points) per strategy x cache state.
#
#   gnuplot -e "in='PREP.gp'; out='scaling.png'; term='png'" scaling.gp
#
# term: png (pngcairo when gnuplot has it, else libgd png), pngcairo or svg.
# in:   a gnuplot file written by plots/draw-all that defines
#         nser, SN[1..nser]   series labels ("scan warm")
#               SC[i]         strategy colour number, SD[i] 1 = warm / 2 = cold
#         $scaling            one block per series (index i-1), rows "cpus mean_cycles"
#         title_extra         scenario description for the title (may be "")
#       and may define chart_title and ylab, the title and the y label
#       (scaling-61's: timer_delete_sync), and distinct_points = 1 for a
#       point type per strategy (larger for the first strategy's series)

if (!exists("in") || !exists("out")) {
    print "scaling.gp: set in='PREPARED.gp' and out='FILE' with -e"
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

stats $scaling using 1:2 nooutput
e0 = int(floor(log(STATS_min_x) / log(2) + 1e-9))
e1 = int(ceil(log(STATS_max_x) / log(2) - 1e-9))
xlo = 2.0 ** e0
xhi = 2.0 ** e1
ybot = 10 ** floor(log10(STATS_min_y) - 0.05)
ytop = 10 ** ceil(log10(STATS_max_y) + 0.05)

if (!exists("chart_title")) chart_title = sprintf("Scaling with machine size%s\n(generated fat-tree platforms; solid: cache-warm, dashed: cache-cold)", title_extra)
if (!exists("ylab")) ylab = "cycles per del_timer_sync call (mean, log scale)"
set title chart_title
set ylabel ylab
set xlabel "CPUs (log scale)"
set logscale xy
set xrange [xlo / 1.3 : xhi * 1.3]
set yrange [ybot:ytop]
set format y "%.0f"
set xtics ()
do for [e=e0:e1] { set xtics add (sprintf("%d", 2**e) 2**e) }
set xtics nomirror
set ytics nomirror
set mytics 10
set grid xtics ytics lc rgb '#dddddd'
set border 3
set key outside right top vertical Left reverse samplen 3 spacing 1.2 box lc rgb '#bbbbbb'

# With distinct_points, each strategy has its own point type and the earlier
# ones larger points, so that lines lying on each other stay visible.
if (!exists("distinct_points")) distinct_points = 0
array PTW[6] = [7, 9, 5, 11, 13, 15]
array PTC[6] = [6, 8, 4, 10, 12, 14]
ptype(i) = !distinct_points ? (SD[i] == 1 ? 7 : 6) : (SD[i] == 1 ? PTW[(SC[i] - 1) % 6 + 1] : PTC[(SC[i] - 1) % 6 + 1])
psize(i) = !distinct_points ? 1.1 : (SC[i] == SC[1] ? 2.2 : 1.1)

plot for [i=1:nser] $scaling index (i - 1) using 1:2 with linespoints \
         lw 1.8 lc rgb col(SC[i]) dt SD[i] pt ptype(i) ps psize(i) title SN[i]

# The 2.6 and the 6.1 timer wheel against the number of armed timers, two
# panels: left, the tick's cycles (mean, p99 and max, log-log); right, how
# late the timers fired (mean and max in jiffies, and the largest lateness
# as a share of the timer's timeout, which the 6.1 wheel bounds at 1/8).
#
#   gnuplot -e "in='PREP.gp'; out='wheel.png'; term='png'" wheel.gp
#
# term: png (pngcairo when gnuplot has it, else libgd png), pngcairo or svg.
# in:   a gnuplot file written by plots/draw-all that defines
#         nser, SN[1..nser]   series labels ("2.6 wheel", "6.1 wheel")
#               SC[i]         strategy colour number (as in the other charts)
#         $wheel              one block per series (index i-1), rows "timers
#                             mean_cycles p99_cycles max_cycles
#                             late_mean_jiffies late_max_jiffies late_max_share"
#         title_extra         scenario description for the title (may be "")
#         platforms           the platform's name (or "N platforms")

if (!exists("in") || !exists("out")) {
    print "wheel.gp: set in='PREPARED.gp' and out='FILE' with -e"
    exit status 2
}
if (!exists("term")) term = 'png'
if (term eq 'svg') {
    set terminal svg size 1300,620 dynamic font 'Sans,12' background '#ffffff'
} else {
    if (term eq 'pngcairo' || (term eq 'png' && strstrt(GPVAL_TERMINALS, 'pngcairo') > 0)) {
        set terminal pngcairo size 1300,620 font 'Sans,11' background '#ffffff'
    } else {
        set terminal png size 1300,620 font 'Sans,10' background '#ffffff'
    }
}
set termoption noenhanced
set output out

load in

array COL[8] = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f']
col(i) = COL[(i - 1) % 8 + 1]

# (stats before any "set logscale": a log axis would drop zero values)
stats $wheel using 1 nooutput
e0 = int(floor(log10(STATS_min) + 1e-9)); e1 = int(ceil(log10(STATS_max) - 1e-9))
stats $wheel using 2 nooutput
ylo = STATS_min
stats $wheel using 4 nooutput
yhi = STATS_max
stats $wheel using 3 nooutput
ylo = (STATS_min < ylo) ? STATS_min : ylo
stats $wheel using 6 nooutput
lmax = STATS_max
stats $wheel using 7 nooutput
smax = STATS_max
ybot = 10 ** floor(log10(ylo) - 0.05)
ytop = 10 ** ceil(log10(yhi) + 0.05)
# the lines in the lower 55%, the key above them
ltop = (lmax > 0) ? lmax * 1.8 : 1
stop = 100 * ((smax > 0.125 ? smax : 0.125) * 1.8)

set multiplot layout 1,2 title sprintf("Tick cost and expiry lateness against the armed timers, 2.6 wheel (cascading) vs 6.1 wheel (no cascade), %s%s", platforms, title_extra)

xtic(e) = sprintf("%.0f", 10 ** e)
set logscale x
set xrange [10 ** e0 / 1.5 : 10 ** e1 * 1.5]
set xtics ()
do for [e=e0:e1] { set xtics add (xtic(e) 10 ** e) }
set xtics nomirror
set mxtics 10
set xlabel "timers armed on the base (log scale)"
set border 3
set grid xtics ytics lc rgb '#dddddd'

# --- left: the tick's cost ---
set title "cycles per tick of CPU 0 (solid: mean, dashed: p99, dotted: max)"
set ylabel "cycles per tick (log scale)"
set logscale y
set yrange [ybot:ytop]
set format y "%.0f"
set ytics nomirror
set mytics 10
set key top left Left reverse samplen 3 spacing 1.1 font ',9' box lc rgb '#bbbbbb' opaque
plot for [i=1:nser] $wheel index (i - 1) using 1:2 with linespoints lw 2 lc rgb col(SC[i]) dt 1 pt 7 ps 1.0 title SN[i] . " mean", \
     for [i=1:nser] $wheel index (i - 1) using 1:3 with linespoints lw 1.5 lc rgb col(SC[i]) dt 2 pt 6 ps 1.0 title SN[i] . " p99", \
     for [i=1:nser] $wheel index (i - 1) using 1:4 with linespoints lw 1.2 lc rgb col(SC[i]) dt 3 pt 2 ps 1.0 title SN[i] . " max"

# --- right: lateness ---
set title sprintf("how late the timers fired (largest share: right axis; dotted line: 1/8)")
unset logscale y
set mytics default
set yrange [0:ltop]
set format y "%g"
set ylabel "lateness (jiffies of 1 ms)"
set y2range [0:stop]
set y2tics nomirror format "%.0f%%"
set y2label "largest lateness / timeout (%)"
set border 11
set key top left Left reverse samplen 3 spacing 1.1 font ',9' box lc rgb '#bbbbbb' opaque
plot for [i=1:nser] $wheel index (i - 1) using 1:5 with linespoints lw 2 lc rgb col(SC[i]) dt 1 pt 7 ps 1.0 title SN[i] . " mean lateness", \
     for [i=1:nser] $wheel index (i - 1) using 1:6 with linespoints lw 1.5 lc rgb col(SC[i]) dt 2 pt 6 ps 1.0 title SN[i] . " max lateness", \
     for [i=1:nser] $wheel index (i - 1) using 1:($7 * 100) axes x1y2 with linespoints lw 1.2 lc rgb col(SC[i]) dt 4 pt 4 ps 1.0 title SN[i] . " largest share (%)", \
     12.5 axes x1y2 with lines lw 1 lc rgb '#555555' dt 3 title "1/8 of the timeout (6.1 bound)"

unset multiplot

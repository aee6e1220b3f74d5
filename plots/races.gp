# Safety of the strategies under the race scenarios: violations and oopses
# per strategy, one group per race-*.csv scenario. The y axis is logarithmic
# in (count + 1) so that a zero sits on the axis and every bar carries its
# count as a label: a 0 is always printed.
#
#   gnuplot -e "in='PREP.gp'; out='races.png'; term='png'" races.gp
#
# term: png (pngcairo when gnuplot has it, else libgd png), pngcairo or svg.
# in:   a gnuplot file written by plots/draw-all that defines
#         ncat, CAT[1..ncat]  x category labels (strategy names)
#         ng, GN[1..ng]       scenario names
#             GLO[g], GHI[g]  first and last category of scenario g
#         $races              rows "category violations oopses" (1-based)

if (!exists("in") || !exists("out")) {
    print "races.gp: set in='PREPARED.gp' and out='FILE' with -e"
    exit status 2
}
if (!exists("term")) term = 'png'
if (term eq 'svg') {
    set terminal svg size 1400,650 dynamic font 'Sans,12' background '#ffffff'
} else {
    if (term eq 'pngcairo' || (term eq 'png' && strstrt(GPVAL_TERMINALS, 'pngcairo') > 0)) {
        set terminal pngcairo size 1400,650 font 'Sans,11' background '#ffffff'
    } else {
        set terminal png size 1400,650 font 'Sans,10' background '#ffffff'
    }
}
set termoption noenhanced
set output out

load in

stats $races using ($2 > $3 ? $2 : $3) nooutput
top = STATS_max + 1
ytop = 10 ** (ceil(log10(top) + 0.25))
if (ytop < 100) ytop = 100

set title "Race scenarios: safety violations and oopses per strategy\n(summed over platforms, cache states and seeds of each scenario)"
set ylabel "count per scenario (log scale of count + 1; 0 on the axis)"
set xlabel "strategy (grouped by race scenario, named along the top)"
set logscale y
set yrange [1:ytop]
set ytics () nomirror
set ytics add ("0" 1)
do for [e=0:ceil(log10(ytop))] { set ytics add (sprintf("%.0f", 10**e) 10**e + 1) }
set mytics 1
set grid ytics lc rgb '#dddddd'
set xrange [0.4:ncat + 0.6]
set xtics scale 0 nomirror rotate by 30 right
set xtics ()
do for [i=1:ncat] { set xtics add (CAT[i] i) }
# Scenario names along the top, dotted separators between scenarios.
set x2range [0.4:ncat + 0.6]
set x2tics scale 0
set x2tics ()
do for [g=1:ng] { set x2tics add (GN[g] (GLO[g] + GHI[g]) / 2.0) }
do for [g=1:ng-1] { set arrow from GHI[g] + 0.5, graph 0 to GHI[g] + 0.5, graph 1 nohead lc rgb '#888888' dt 2 }
set border 15
set key outside right top vertical Left reverse samplen 2 spacing 1.3 box lc rgb '#bbbbbb'
set style fill solid 0.85 border lc rgb '#333333'

bw = 0.36
plot $races using ($1 - bw / 2):($2 + 1):($1 - bw):($1):(1):($2 + 1) with boxxyerror lc rgb '#d62728' title 'safety violations', \
     $races using ($1 + bw / 2):($3 + 1):($1):($1 + bw):(1):($3 + 1) with boxxyerror lc rgb '#555555' title 'oopses', \
     $races using ($1 - bw / 2):($2 + 1):(sprintf('%d', $2)) with labels offset 0,0.6 font ',9' tc rgb '#d62728' notitle, \
     $races using ($1 + bw / 2):($3 + 1):(sprintf('%d', $3)) with labels offset 0,0.6 font ',9' tc rgb '#333333' notitle

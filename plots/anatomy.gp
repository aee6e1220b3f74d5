# The anatomy of a del_timer_sync call: one bar per platform x cache x
# strategy, stacked by where the cycles went (each access kind, cpu_relax,
# other work), as a share of the call, with the mean cycles written on top.
# Shares, not cycles, on the y axis: scan costs 2-3 orders of magnitude more
# than the others, and a linear axis would hide their anatomy.
#
#   gnuplot -e "in='PREP.gp'; out='anatomy.png'; term='png'" anatomy.gp
#
# in: a gnuplot file written by plots/draw-all that defines
#       nseg, SEG[1..nseg]   segment names, bottom to top
#       nb, BL[1..nb]        bar labels ("scan"), BT[1..nb] their mean cycles
#       ng, GL[1..ng], GX[1..ng]   group labels ("numa32 warm") and centres
#       $seg                 rows "x share_lo share_hi segment" (shares in %)
#       title_extra          scenario and calls, for the title

if (!exists("in") || !exists("out")) {
    print "anatomy.gp: set in='PREPARED.gp' and out='FILE' with -e"
    exit status 2
}
if (!exists("term")) term = 'png'
if (term eq 'svg') {
    set terminal svg size 1200,650 dynamic font 'Sans,12' background '#ffffff'
} else {
    if (term eq 'pngcairo' || (term eq 'png' && strstrt(GPVAL_TERMINALS, 'pngcairo') > 0)) {
        set terminal pngcairo size 1200,650 font 'Sans,11' background '#ffffff'
    } else {
        set terminal png size 1200,650 font 'Sans,10' background '#ffffff'
    }
}
set termoption noenhanced
set output out
load in

# Kind colours: hits grey, upgrade teal, local blue, remote orange, c2c pink
# and red, relax yellow, other work green (the same as the Paje trace).
array COL[8] = ['#bdbdbd', '#00cccc', '#3333e6', '#e68000', '#ff99b3', '#e60000', '#ffd900', '#33b333']

set title 'Where the cycles of one del_timer_sync call go' . title_extra
set ylabel 'share of the call (%)'
set yrange [0:112]
set ytics 0, 20, 100
set xrange [0:nb + 1]
set xtics () rotate by -45 scale 0 font ',9'
do for [i = 1:nb] { set xtics add (BL[i] i) }
do for [g = 1:ng] { set label GL[g] at GX[g], -22 center font ',11' }
set bmargin 7
set grid ytics
set key outside right top vertical title 'cycles in'
set style fill solid 0.9 border rgb '#404040'
do for [i = 1:nb] { if (BT[i] == BT[i]) { set label sprintf('%.0f', BT[i]) at i, 103 center font ',8' } }
plot for [k = 1:nseg] $seg using ($4 == k ? $1 : NaN):(($2 + $3) / 2):(0.38):(($3 - $2) / 2) \
     with boxxyerror lc rgb COL[k] title SEG[k]

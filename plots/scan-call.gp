# One del_timer_sync call of the scan strategy on numa32 (warm cache), probe
# by probe, drawn from its Paje trace: x = cycles into the call, y = the CPU
# whose running_timer the probe read, colour = what the read found (a hit,
# or the kind of miss it paid). A bar spans the probe's cycles; the dot
# marks its start, so that 6-cycle hits stay visible.
#
#   gnuplot -e "in='PREP.gp'; out='scan-call.png'; term='png'" scan-call.gp
#
# in: a gnuplot file written by plots/draw-all that defines
#       nkind, KN[1..nkind]  kinds (1 = hit)
#       $probes              rows "start end probed_cpu kind" (cycles into the call)
#       ncalls               the call's cycles; nprobes; ncpu; summary

if (!exists("in") || !exists("out")) {
    print "scan-call.gp: set in='PREPARED.gp' and out='FILE' with -e"
    exit status 2
}
if (!exists("term")) term = 'png'
if (term eq 'svg') {
    set terminal svg size 1100,650 dynamic font 'Sans,12' background '#ffffff'
} else {
    if (term eq 'pngcairo' || (term eq 'png' && strstrt(GPVAL_TERMINALS, 'pngcairo') > 0)) {
        set terminal pngcairo size 1100,650 font 'Sans,11' background '#ffffff'
    } else {
        set terminal png size 1100,650 font 'Sans,10' background '#ffffff'
    }
}
set termoption noenhanced
set output out
load in

array COL[6] = ['#7f7f7f', '#00cccc', '#3333e6', '#e68000', '#ff66a3', '#e60000']

set title sprintf("One scan call on numa32, warm: %d cycles, %d probes (%s)", ncalls, nprobes, summary)
set xlabel 'cycles into the call'
set ylabel 'probed CPU'
set xrange [0:ncalls * 1.02]
set yrange [-1:ncpu]
set ytics 0, 2, ncpu - 1
set grid xtics ytics
set key outside right top title 'the read found'
set style fill solid 0.9 noborder
plot for [k = 1:nkind] $probes using ($4 == k ? ($1 + $2) / 2.0 : NaN):3:(($2 - $1) / 2.0):(0.35) \
         with boxxyerror lc rgb COL[k] title KN[k], \
     for [k = 1:nkind] $probes using ($4 == k ? $1 : NaN):3 with points pt 7 ps 0.6 lc rgb COL[k] notitle

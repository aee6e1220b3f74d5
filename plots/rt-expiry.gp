# Deleting a timer whose function is running: where the caller's cycles go,
# against the function's cycles, log-log, one panel per platform: spinning
# (relax_cycles, solid), asleep on the expiry_lock or other work
# (work_cycles, dashed) and the whole call (mean cycles, dotted), one colour
# per strategy. Series that are 0 at every point (no spinning, no sleeping)
# cannot be drawn on a log axis; their key entry says so.
#
#   gnuplot -e "in='PREP.gp'; out='rt-expiry.png'; term='png'" rt-expiry.gp
#
# term: png (pngcairo when gnuplot has it, else libgd png), pngcairo or svg.
# in:   a gnuplot file written by plots/draw-all that defines
#         np, PL[1..np]       platform names (one panel each)
#         nser, SN[1..nser]   series labels (strategy, and cache state when several)
#               SC[i]         strategy colour number, SP[i] its platform's panel
#               RP[i], WP[i]  1 when relax_cycles, work_cycles is positive somewhere
#         $rt                 one block per series (index i-1), rows
#                             "function_cycles relax_cycles work_cycles mean_cycles"
#         title_extra         scenario description for the title (may be "")

if (!exists("in") || !exists("out")) {
    print "rt-expiry.gp: set in='PREPARED.gp' and out='FILE' with -e"
    exit status 2
}
load in

if (!exists("term")) term = 'png'
width = np > 1 ? 1300 : 1000
if (term eq 'svg') {
    set terminal svg size width,620 dynamic font 'Sans,12' background '#ffffff'
} else {
    if (term eq 'pngcairo' || (term eq 'png' && strstrt(GPVAL_TERMINALS, 'pngcairo') > 0)) {
        set terminal pngcairo size width,620 font 'Sans,11' background '#ffffff'
    } else {
        set terminal png size width,620 font 'Sans,10' background '#ffffff'
    }
}
set termoption noenhanced
set output out

array COL[8] = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f']
col(i) = COL[(i - 1) % 8 + 1]
pos(v) = (v > 0) ? v : NaN

# (stats before any "set logscale": a log axis would drop zero values)
stats $rt using 1 nooutput
e0 = int(floor(log10(STATS_min) + 1e-9)); e1 = int(ceil(log10(STATS_max) - 1e-9))
ylo = 1e300; yhi = 0
do for [c=2:4] {
    stats $rt using (pos(column(c))) nooutput
    if (STATS_records > 0 && STATS_min < ylo) { ylo = STATS_min }
    if (STATS_records > 0 && STATS_max > yhi) { yhi = STATS_max }
}
ybot = 10 ** floor(log10(ylo) - 0.05)
ytop = 10 ** ceil(log10(yhi) + 0.05)

set multiplot layout 1,np title sprintf("Deleting a timer while its function runs: spinning (6.1) or sleeping on the expiry_lock (6.1 PREEMPT_RT)%s\nsolid: the caller spinning (relax_cycles); dashed: asleep, or other work (work_cycles); dotted: the whole call (mean cycles)", title_extra)

set logscale xy
set xrange [10 ** e0 / 1.5 : 10 ** e1 * 1.5]
set yrange [ybot:ytop]
set xtics ()
do for [e=e0:e1] { set xtics add (sprintf("%.0f", 10 ** e) 10 ** e) }
set xtics nomirror
set ytics nomirror
set mxtics 10
set mytics 10
set format y "%.0f"
set xlabel "the timer function's cycles (log scale)"
set ylabel "the caller's cycles per delete (log scale)"
set border 3
set grid xtics ytics lc rgb '#dddddd'
set key top left Left reverse samplen 3 spacing 1.1 font ',9' box lc rgb '#bbbbbb' opaque

do for [p=1:np] {
    set title PL[p]
    cmd = ""
    do for [i=1:nser] {
        if (SP[i] == p) {
            r = RP[i] ? sprintf("$rt index %d using 1:(pos($2)) with linespoints lw 2 lc rgb '%s' dt 1 pt 7 ps 1.1 title '%s spinning'", i - 1, col(SC[i]), SN[i]) \
                      : sprintf("keyentry with linespoints lw 2 lc rgb '%s' dt 1 pt 7 ps 1.1 title '%s spinning: 0'", col(SC[i]), SN[i])
            w = WP[i] ? sprintf("$rt index %d using 1:(pos($3)) with linespoints lw 2 lc rgb '%s' dt 2 pt 6 ps 1.1 title '%s asleep/other work'", i - 1, col(SC[i]), SN[i]) \
                      : sprintf("keyentry with linespoints lw 2 lc rgb '%s' dt 2 pt 6 ps 1.1 title '%s asleep/other work: 0'", col(SC[i]), SN[i])
            m = sprintf("$rt index %d using 1:(pos($4)) with linespoints lw 1.2 lc rgb '%s' dt 3 pt 1 ps 1.0 title '%s whole call'", i - 1, col(SC[i]), SN[i])
            cmd = cmd . (cmd eq "" ? "" : ", ") . r . ", " . w . ", " . m
        }
    }
    eval "plot " . cmd
}

unset multiplot

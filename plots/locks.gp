# One timer base's lock under contention, two panels against the number of
# contending CPUs (log x): left, the contenders' cycles per lock operation
# (log y); right, Jain's fairness index of how many operations each CPU did
# (1: all the same; 1/n: one CPU did them all). One line per platform x lock
# kind: colour per kind, point type and dash per platform.
#
#   gnuplot -e "in='PREP.gp'; out='locks.png'; term='png'" locks.gp
#
# term: png (pngcairo when gnuplot has it, else libgd png), pngcairo or svg.
# in:   a gnuplot file written by plots/draw-all that defines
#         nser, SN[1..nser]   series labels ("numa32 ticket")
#               SC[i]         lock kind number (1 tas, 2 ticket, 3 qspinlock)
#               SP[i]         platform number (point type, dash)
#         $locks              one block per series (index i-1), rows
#                             "cpus cycles_per_op fairness"
#         title_extra         scenario description for the title (may be "")

if (!exists("in") || !exists("out")) {
    print "locks.gp: set in='PREPARED.gp' and out='FILE' with -e"
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

# the lock kinds' own colours (not the strategies')
array KCOL[6] = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b']
kcol(i) = KCOL[(i - 1) % 6 + 1]
array PT[6] = [7, 5, 9, 11, 13, 15]
ptype(p) = PT[(p - 1) % 6 + 1]

stats $locks using 1:2 nooutput
e0 = int(floor(log(STATS_min_x) / log(2) + 1e-9))
e1 = int(ceil(log(STATS_max_x) / log(2) - 1e-9))
ybot = 10 ** floor(log10(STATS_min_y) - 0.05)
ytop = 10 ** ceil(log10(STATS_max_y) + 0.05)

set multiplot layout 1,2 title sprintf("One timer base's lock under contention: test-and-set, ticket and queued spinlock%s", title_extra)

set logscale x 2
set xrange [2.0 ** e0 / 1.3 : 2.0 ** e1 * 1.3]
set xtics ()
do for [e=e0:e1] { set xtics add (sprintf("%d", 2**e) 2**e) }
set xtics nomirror
set xlabel "contending CPUs (log scale)"
set ytics nomirror
set border 3
set grid xtics ytics lc rgb '#dddddd'
set key top left Left reverse samplen 3 spacing 1.1 font ',9' box lc rgb '#bbbbbb' opaque

# --- left: cycles per operation ---
set title "the contenders' cycles per lock operation (taken twice per operation)"
set ylabel "cycles per operation (log scale)"
set logscale y
set yrange [ybot:ytop]
set format y "%.0f"
set mytics 10
plot for [i=1:nser] $locks index (i - 1) using 1:2 with linespoints \
         lw 1.8 lc rgb kcol(SC[i]) dt SP[i] pt ptype(SP[i]) ps 1.2 title SN[i]

# --- right: fairness ---
set title "fairness (Jain's index of the operations per CPU; 1/n: one CPU did all)"
unset logscale y
set mytics default
set yrange [0:1.1]
set ytics 0, 0.1, 1 format "%.1f"
set ylabel "fairness index"
set key bottom left
# lines on each other (every fair lock at 1): larger points for the first
# kinds and the first platform, so that each stays visible
fps(i) = (SP[i] == 1 ? 1.0 : 0.6) * (SC[i] < 4 ? 2.6 - 0.7 * (SC[i] - 1) : 1.0)
plot for [i=1:nser] $locks index (i - 1) using 1:3 with linespoints \
         lw 1.8 lc rgb kcol(SC[i]) dt SP[i] pt ptype(SP[i]) ps fps(i) title SN[i], \
     (1.0 / x) with lines lw 1 lc rgb '#555555' dt 3 title "1/n"

unset multiplot

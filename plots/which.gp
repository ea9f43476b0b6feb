# "Which should I use?" drawn: report.txt's table (tables.which_data),
# one colour per system as in the other plots.  Above, (a): the median ns
# per event against writers (log), lines joining only measured writer
# counts.  Below, one row per system in the table's order: (b) the
# lossless rate with the system's own consumer at 1 writer (solid) and
# at the most writers (pale), (b) that consumer's CPU per MB, (c) the
# drop fraction at the most writers.  A system without a figure has no
# point or bar there; a panel without any says so.
name = "which"
load 'plots/common.gp'
if (fmt eq "png") { set terminal pngcairo size 1100,950 enhanced font ",11" } else { set terminal svg size 1100,950 enhanced font ",11" }
set output dir."/".name.".".fmt
wmax = about("writers_max") + 0
# has(c): column c has a figure for some system ("# without c:" names
# the systems that have none).
has(c) = words(about("without ".c)) < n
wo_ns = " ".about("without ns_per_event")." "
# The layout follows the longest system name (about 8 pixels a
# character at this font, on 1100): the names left of the bars, the key
# right of panel (a).
maxlen = 0
do for [i=1:n] { if (strlen(us(word(series, i))) > maxlen) { maxlen = strlen(us(word(series, i))) } }
left = (maxlen * 8 + 25) / 1100.0
left = left < 0.12 ? 0.12 : left > 0.35 ? 0.35 : left
keyx = 1 - ((maxlen + (words(about("without ns_per_event")) ? 14 : 0)) * 8 + 45) / 1100.0
keyx = keyx > 0.72 ? 0.72 : keyx < 0.5 ? 0.5 : keyx
# The three bar panels, side by side right of the names.
w = (0.97 - left - 0.10) / 3
# step(x): the tics' step for a largest figure x, at most four steps
# up to it, of 1, 2 or 5 times a power of 10.
p10(x) = 10**floor(log10(x / 4.0))
step(x) = x / p10(x) <= 4 ? p10(x) : x / (2 * p10(x)) <= 4 ? 2 * p10(x) : x / (5 * p10(x)) <= 4 ? 5 * p10(x) : 10 * p10(x)
set format x "%g"
# The largest figures of the bar panels, for their tics (before any range is set).
if (has("lossless_M")) { stats dat using (column("lossless_M")) name "L" nooutput }
if (has("cpu_ms_per_mb")) { stats dat using (column("cpu_ms_per_mb")) name "C" nooutput }
set multiplot title about("title")."\n".cond noenhanced

# (a) ns per event against writers.
set lmargin at screen left
set rmargin at screen keyx - 0.04
set tmargin at screen 0.83
set bmargin at screen 0.56
set title "(a) ns per event, nothing reading: median of the runs (log)" noenhanced
set xlabel "writer kthreads (one per vCPU)" offset 0,0.5
set xtics 1
set xrange [0.5:wmax + 0.5]
set logscale y
set key at screen keyx, screen 0.83 left top noenhanced title "system" left reverse Left samplen 2
if (has("ns_per_event")) {
	plot for [i=1:n] dat using (strcol("series") eq word(series, i) ? column("writers") + dodge(i) : NaN):(column("ns_per_event")) \
		with linespoints lw 2 lc lc_(i) pt pt_(i) ps 1.3 title us(word(series, i)).(strstrt(wo_ns, " ".word(series, i)." ") ? " (none in (a))" : "")
} else {
	# No figure at all: the key alone, and why the panel is empty.
	set yrange [100:10000]
	set label 1 sprintf("no figure at %d-byte records in this run", about("size") + 0) at graph 0.5, 0.5 center
	plot for [i=1:n] NaN with linespoints lw 2 lc lc_(i) pt pt_(i) ps 1.3 title us(word(series, i))
}
unset label 1
unset logscale y
set yrange [*:*]
set key off
unset xlabel

# Below: one row per system, y = -i, labelled on the left panel only.
set tmargin at screen 0.42
set bmargin at screen 0.08
set yrange [-(n + 0.5):-0.5]
set ytics scale 0 noenhanced
set grid noytics xtics
set style fill solid 1.0 noborder
set xrange [0:*]
set offsets 0, graph 0.32, 0, 0

set ytics ()
do for [i=1:n] { set ytics add (us(word(series, i)) -i) }
set lmargin at screen left
set rmargin at screen left + w
set title sprintf("(b) lossless rate, own consumer (relay:\nrelaytrace's better reader), M records/s\n1 writer (solid), %d writers (pale)", wmax) noenhanced
# A panel without any figure plots nothing (gnuplot 5.4 crashes on bars
# and labels of a data file without a valid point).
if (!has("lossless_M")) { set xrange [0:1]; set xtics autofreq; set label 1 "no figure in this run" at graph 0.5, 0.5 center; plot NaN notitle } else {
set xtics 0, step(L_max)
plot for [i=1:n] dat using (strcol("series") eq word(series, i) && column("writers") == 1 ? column("lossless_M") : NaN):(-i + 0.2):(0):(column("lossless_M")):(-i + 0.02):(-i + 0.38) \
	with boxxyerror lc lc_(i) notitle, \
     for [i=1:n] dat using (strcol("series") eq word(series, i) && column("writers") == wmax && wmax != 1 ? column("lossless_M") : NaN):(-i - 0.2):(0):(column("lossless_M")):(-i - 0.38):(-i - 0.02) \
	with boxxyerror lc lc_(i) fs transparent solid 0.4 notitle, \
     for [i=1:n] dat using (strcol("series") eq word(series, i) && column("writers") == 1 ? column("lossless_M") : NaN):(-i + 0.2):(sprintf("%.3f", column("lossless_M"))) \
	with labels left offset char 0.5,0 font ",9" notitle, \
     for [i=1:n] dat using (strcol("series") eq word(series, i) && column("writers") == wmax && wmax != 1 ? column("lossless_M") : NaN):(-i - 0.2):(sprintf("%.3f", column("lossless_M"))) \
	with labels left offset char 0.5,0 font ",9" notitle
}
unset label 1
set xrange [0:*]

set ytics ()
do for [i=1:n] { set ytics add ("" -i) }
set lmargin at screen left + w + 0.05
set rmargin at screen left + 2 * w + 0.05
set title "(b) that consumer's CPU,\nms per MB recorded" noenhanced
if (!has("cpu_ms_per_mb")) { set xrange [0:1]; set xtics autofreq; set label 1 "no figure in this run" at graph 0.5, 0.5 center; plot NaN notitle } else {
set xtics 0, step(C_max)
plot for [i=1:n] dat using (strcol("series") eq word(series, i) ? column("cpu_ms_per_mb") : NaN):(-i):(0):(column("cpu_ms_per_mb")):(-i - 0.3):(-i + 0.3) \
	with boxxyerror lc lc_(i) notitle, \
     for [i=1:n] dat using (strcol("series") eq word(series, i) ? column("cpu_ms_per_mb") : NaN):(-i):(sprintf("%.1f", column("cpu_ms_per_mb"))) \
	with labels left offset char 0.5,0 font ",9" notitle
}
unset label 1

set lmargin at screen left + 2 * w + 0.10
set rmargin at screen 0.97
set offsets 0, 0, 0, 0
set xrange [0:125]
set xtics 0, 25, 100
set title sprintf("(c) overload, %d writers: %% of\nwrites refused or lost, live consumer", wmax) noenhanced
if (!has("drop_frac")) { set label 1 "no figure in this run" at graph 0.5, 0.5 center; plot NaN notitle } else {
plot for [i=1:n] dat using (strcol("series") eq word(series, i) ? 100 * column("drop_frac") : NaN):(-i):(0):(100 * column("drop_frac")):(-i - 0.3):(-i + 0.3) \
	with boxxyerror lc lc_(i) notitle, \
     for [i=1:n] dat using (strcol("series") eq word(series, i) ? 100 * column("drop_frac") : NaN):(-i):(sprintf("%.1f%%", 100 * column("drop_frac"))) \
	with labels left offset char 0.5,0 font ",9" notitle
}
unset multiplot

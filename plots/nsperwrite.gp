# Cost of one write against record size.
# Usage: gnuplot -e "dir='results/<timestamp>'" plots/nsperwrite.gp
load 'plots/common.gp'
set title "relay\\_trace cost per write vs record size, non-flight (median, bars: min-max)\n{/*0.8 ".cond."}"
set xlabel "record size (bytes)"
set ylabel "time per trace\\_write() (ns, emulated)"
set logscale x 2
set logscale y
set offsets 0, 0, 0, 0
do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1100,650 enhanced font ",11" } else { set terminal svg size 1100,650 enhanced font ",11" }
	set output dir."/nsperwrite.".fmt
	plot dir."/nsw.dat" using 1:2:3:4 with yerrorlines lw 2 pt 7 title "global, 1 writer", \
	     ''             using 1:5:6:7 with yerrorlines lw 2 pt 5 title "per-CPU, 1 writer", \
	     ''             using 1:14:15:16 with yerrorlines lw 2 dt 2 pt 6 title "global, max writers", \
	     ''             using 1:17:18:19 with yerrorlines lw 2 dt 2 pt 4 title "per-CPU, max writers"
}

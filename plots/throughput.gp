# Throughput against writers, global vs per-CPU, min-max error bars.
# Usage: gnuplot -e "dir='results/<timestamp>'" plots/throughput.gp
load 'plots/common.gp'
set title "relay\\_trace throughput vs writers (64-byte records, median of runs, bars: min-max)\n{/*0.8 ".cond."}"
set xlabel "writer kthreads (one per CPU)"
set ylabel "records written (M rec/s)"
set xtics 1
set yrange [0:*]
set offsets 0.2, 0.2, 0, 0
do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1100,650 enhanced font ",11" } else { set terminal svg size 1100,650 enhanced font ",11" }
	set output dir."/throughput.".fmt
	plot dir."/tput.dat" using 1:2:3:4 with yerrorlines lw 2 pt 7 title "global, non-flight", \
	     ''               using 1:5:6:7 with yerrorlines lw 2 pt 5 title "per-CPU, non-flight", \
	     ''               using 1:8:9:10 with yerrorlines lw 1 dt 2 pt 6 title "global, flight", \
	     ''               using 1:11:12:13 with yerrorlines lw 1 dt 2 pt 4 title "per-CPU, flight"
}

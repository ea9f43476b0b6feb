# Global over per-CPU throughput, per record size.
# Usage: gnuplot -e "dir='results/<timestamp>'" plots/ratio.gp
load 'plots/common.gp'
sizes = system("cat '".dir."/sizes.txt'")
set title "global / per-CPU throughput ratio, non-flight (medians; 1 = no cost for the shared lock)\n{/*0.8 ".cond."}"
set xlabel "writer kthreads (one per CPU)"
set ylabel "throughput ratio global / per-CPU"
set xtics 1
set yrange [0:*]
set offsets 0.2, 0.2, 0, 0
do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1100,650 enhanced font ",11" } else { set terminal svg size 1100,650 enhanced font ",11" }
	set output dir."/ratio.".fmt
	plot for [i=1:words(sizes)] dir."/ratio.dat" using 1:(column(i+1)) with linespoints lw 2 pt 7 title word(sizes, i)."-byte records", \
	     1 with lines dt 3 lc rgb "gray" notitle
}

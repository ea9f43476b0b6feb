# Records dropped because the buffer was full, non-flight runs.
# Usage: gnuplot -e "dir='results/<timestamp>'" plots/dropped.gp
load 'plots/common.gp'
set title "records dropped per run, non-flight (median; drained by relay-drain)\n{/*0.8 ".cond."}"
set xlabel "writers and record size"
set ylabel "dropped records per run"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics rotate by -45
set yrange [0:*]
do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1100,650 enhanced font ",11" } else { set terminal svg size 1100,650 enhanced font ",11" }
	set output dir."/dropped.".fmt
	plot dir."/dropped.dat" using 2:xtic(1) title "global", '' using 3 title "per-CPU"
}

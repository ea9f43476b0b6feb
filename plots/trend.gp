# Write-path cost across changes, from results/history.csv (via trend.dat).
# Usage: gnuplot -e "dir='results'" plots/trend.gp
set grid
set key outside right top
set border 3
set tics nomirror
set title "relay\\_trace write-path cost across runs (history.csv, keyed by series hash)\n{/*0.8 bench-cost: instructions under -icount, deterministic; make bench: TCG time, noisy}"
set xlabel "run (date, series hash)"
set ylabel "cost per write (ns; under -icount: instructions)"
set xtics rotate by -45
set yrange [0:*]
set datafile missing "NaN"
labels = system("cat '".dir."/trend-labels.txt'")
do for [fmt in "png svg"] {
	if (fmt eq "png") { set terminal pngcairo size 1200,650 enhanced font ",11" } else { set terminal svg size 1200,650 enhanced font ",11" }
	set output dir."/trend.".fmt
	plot for [i=1:5] dir."/trend.dat" using 1:(column(i+2)):xtic(2) with linespoints lw 2 pt 7 title system("sed -n ".i."p '".dir."/trend-labels.txt'")
}

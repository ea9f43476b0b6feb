# The write path's cost across changes, from results/history.csv: one
# plot per unit (never instructions and emulated ns on one axis), each
# from its self-describing results/trend-<unit>.dat (series and unit in
# its "#" lines; bench-user/report/history.py).
# Usage: gnuplot -e "dir='results'; fmt='png'" plots/trend.gp
units = system("cd '".dir."' && ls trend-*.dat 2>/dev/null | sed 's/^trend-//; s/[.]dat$//'")
do for [u in units] {
	name = "trend-".u
	load 'plots/common.gp'
	set title about("title") noenhanced
	set xlabel "run (date, kernel, series hash)"
	set ylabel about("unit")." per write"
	set xtics rotate by -45 noenhanced
	set yrange [0:*]
	plot for [s in series] dat using (column("run")):(column(s)):xtic(2) with linespoints lw 2 pt 7 title us(s)
}

# The write path's cost across changes, from results/history.csv: one
# plot per unit (never instructions and emulated ns on one axis), its
# series taken from the data (bench-user/report/history.py).
# Usage: gnuplot -e "dir='results'; fmt='png'" plots/trend.gp
units = system("cat '".dir."/trend.units'")
do for [u in units] {
	name = "trend-".u
	load 'plots/common.gp'
	series = system("cat '".dir."/trend-".u.".series'")
	set title "relay_trace write path across runs (results/history.csv), unit: ".u noenhanced
	set xlabel "run (date, kernel, series hash)"
	set ylabel u." per write"
	set xtics rotate by -45 noenhanced
	set yrange [0:*]
	plot for [s in series] dir."/trend-".u.".dat" using (column("run")):(column(s)):xtic(2) with linespoints lw 2 pt 7 title us(s)
}

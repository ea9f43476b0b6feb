# (a) Write-path cost: ns per successful write against writers, median of
# the runs with min-max bars, for each kind, at one record size.
name = "cost"
load 'plots/common.gp'
ref = system("cat '".dir."/ref_size.txt'")
series = system("cat '".dir."/cost.series'")
set title "(a) relay_trace write-path cost under contention, ".ref."-byte records, nothing reading; median of runs, bars: min-max\n".cond noenhanced
set xlabel "writer kthreads (one per vCPU)"
set ylabel "ns per successful write (emulated)"
set xtics 1
set xrange [0.5:4.5]
set yrange [0:*]
plot for [s in series] dir."/cost.dat" using (strcol("series") eq s ? column("writers") : NaN):(column("median")):(column("min")):(column("max")) \
	with yerrorlines lw 2 pt 7 title us(s)

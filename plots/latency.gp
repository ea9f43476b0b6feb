# (a) Per-write latency percentiles against writers (one write in 16
# timed alone, log-scale histogram in the module).
name = "latency"
load 'plots/common.gp'
set title about("title")."\n".cond noenhanced
set xlabel "writer kthreads (one per vCPU)"
set ylabel "latency of one write (ns, emulated; bucket upper bound)"
set logscale y
set xtics 1
set xrange [0.5:4.5]
n = words(series)
plot for [i=1:n] dat using (strcol("series") eq word(series, i) ? column("writers") : NaN):(column("p99")):(column("p99min")):(column("p99max")) \
	with yerrorlines lw 2 pt 7 lc i title word(series, i)." p99", \
     for [i=1:n] dat using (strcol("series") eq word(series, i) ? column("writers") : NaN):(column("p50")) \
	with points pt 6 ps 1.5 lc i title word(series, i)." p50"

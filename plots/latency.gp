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
plot for [i=1:n] dat using (strcol("series") eq word(series, i) ? column("writers") + dodge(i) : NaN):(column("p99")):(column("p99min")):(column("p99max")) \
	with yerrorlines lw 2 lc lc_(i) dt dt_(i) pt pt_(i) ps 1.2 title us(word(series, i)), \
     for [i=1:n] dat using (strcol("series") eq word(series, i) ? column("writers") + dodge(i) : NaN):(column("p50")) \
	with points pt 2 ps 1.5 lc lc_(i) notitle, \
     NaN with points pt 2 ps 1.5 lc "black" title "p50 (each in its colour)"

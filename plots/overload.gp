# (c) Drop fraction under overload against writers, min-max over runs.
name = "overload"
load 'plots/common.gp'
set title about("title")."\n".cond noenhanced
set xlabel "writer kthreads (one per vCPU)"
set ylabel "refused / attempted writes"
set xtics 1
set xrange [0.5:4.5]
set yrange [0:1]
plot for [s in series] dat using (strcol("series") eq s ? column("writers") : NaN):(column("median")):(column("min")):(column("max")) \
	with yerrorlines lw 2 pt 7 title us(s)

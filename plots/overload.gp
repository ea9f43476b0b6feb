# (c) Drop fraction under overload against writers, per system (and
# record size, dashed, if several): median of the runs, bars: min-max.
# A writer count that was not measured breaks the line.
name = "overload"
load 'plots/common.gp'
set title about("title")."\n".cond noenhanced
set xlabel "writer kthreads (one per vCPU)"
set ylabel "refused or lost / attempted writes"
set xtics 1
set xrange [0.5:4.5]
set yrange [0:1]
plot for [i=1:n] dat using (strcol("series") eq word(series, i) ? column("writers") + dodge(i) : NaN):(column("median")):(column("min")):(column("max")) \
	with yerrorlines lw 2 lc lc_(i) dt dt_(i) pt pt_(i) ps 1.2 title us(word(series, i))

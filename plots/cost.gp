# (a) Write-path cost: ns per successful write against writers, median of
# the runs with min-max bars, for each kind, at one record size, on a log
# axis (4 writers of the global mode reach 10 times the rest); below, each
# kind's ratio to relay per-CPU at the same writers, where 1-2 writers'
# differences show.
name = "cost"
load 'plots/common.gp'
if (fmt eq "png") { set terminal pngcairo size 1100,900 enhanced font ",11" } else { set terminal svg size 1100,900 enhanced font ",11" }
set output dir."/".name.".".fmt
set multiplot
set xtics 1
set xrange [0.5:4.5]
set lmargin 12
set rmargin 30
set size 1, 0.62
set origin 0, 0.38
set title about("title")."\n".cond noenhanced
set ylabel "ns per successful write (emulated, log)"
set logscale y
set format x ""
plot for [i=1:n] dat using (strcol("series") eq word(series, i) ? column("writers") + dodge(i) : NaN):(column("median")):(column("min")):(column("max")) \
	with yerrorlines lw 2 lc lc_(i) dt dt_(i) pt pt_(i) ps 1.2 title us(word(series, i))
unset title
set size 1, 0.38
set origin 0, 0
set format x "%g"
set xlabel "writer kthreads (one per vCPU)"
set ylabel "ratio to relay per-CPU (log)"
set key off
plot for [i=1:n] dat using (strcol("series") eq word(series, i) ? column("writers") + dodge(i) : NaN):(column("ratio_percpu")) \
	with linespoints lw 2 lc lc_(i) dt dt_(i) pt pt_(i) ps 1.2 notitle, 1 with lines lc "black" dt 3 notitle
unset multiplot

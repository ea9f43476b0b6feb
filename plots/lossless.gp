# (b) The highest aggregate rate with no write refused or lost, bisected,
# against writers, per system and reader (relay: mmap, read(2) dashed);
# median of the bisections, bars: min-max.  A writer count that was not
# measured breaks the line (the data file's blank lines).
name = "lossless"
load 'plots/common.gp'
set title about("title")."\n".cond noenhanced
set xlabel "writer kthreads (one per vCPU)"
set ylabel "records per second, none lost, all writers (M, emulated)"
set xtics 1
set xrange [0.5:4.5]
set yrange [0:*]
set offsets 0, 0, graph 0.05, 0
plot for [i=1:n] dat using (strcol("series") eq word(series, i) ? column("writers") + dodge(i) : NaN):(column("median")):(column("min")):(column("max")) \
	with yerrorlines lw 2 lc lc_(i) dt dt_(i) pt pt_(i) ps 1.2 title us(word(series, i))

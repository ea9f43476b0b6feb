# (b) The highest aggregate rate with no refused write, bisected, against
# writers, per mode and reader (mmap, read); median of the bisections,
# bars: min-max.
name = "lossless"
load 'plots/common.gp'
set title about("title")."\n".cond noenhanced
set xlabel "writer kthreads (one per vCPU)"
set ylabel "successful writes per second, all writers (M, emulated)"
set xtics 1
set xrange [0.5:4.5]
set yrange [0:*]
plot for [s in series] dat using (strcol("series") eq s ? column("writers") : NaN):(column("median")):(column("min")):(column("max")) \
	with yerrorlines lw 2 pt 7 title us(s)

# (b) The highest aggregate rate with no refused write, against writers;
# the bar reaches up to the next offered rate, which dropped records.
name = "lossless"
load 'plots/common.gp'
set title about("title")."\n".cond noenhanced
set xlabel "writer kthreads (one per vCPU)"
set ylabel "successful writes per second, all writers (M, emulated)"
set xtics 1
set xrange [0.5:4.5]
set yrange [0:*]
plot for [s in series] dat using (strcol("series") eq s ? column("writers") : NaN):(column("lossless")):(column("lossless")):(column("next_offered")) \
	with yerrorlines lw 2 pt 7 title us(s)

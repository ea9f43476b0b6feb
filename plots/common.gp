# Shared by the plot scripts: the caller sets `dir` (a results folder),
# `fmt` (png or svg) and `name` (the plot), then loads this.  The plot's
# data is dir/name.dat, self-describing (bench-user/report/plotdata.py):
# "# key: value" lines -- title, conditions, series, ... -- that about()
# reads, then a header of column names and the rows.
if (!exists("dir") || !exists("fmt") || !exists("name")) { print "usage: gnuplot -e \"dir='results/X'; fmt='png'\" plots/NAME.gp"; exit status 2 }
dat = dir."/".name.".dat"
# about(key): the value of a "# key: value" line of the data file; a key
# on several lines gives them all, one per line.
about(key) = system(sprintf("sed -n 's/^# %s: //p' '%s'", key, dat))
if (strlen(about("series")) == 0) { print dat.": no '# series:' line"; exit status 1 }
series = about("series")
cond = about("conditions")
# Series names are one word each (gnuplot's `for [s in ...]` splits on
# blanks): the key shows "_" as a blank.
us(s) = strstrt(s, "_") ? us(s[1:strstrt(s, "_") - 1]." ".s[strstrt(s, "_") + 1:]) : s
# The series' styles, from the data file's "# colours:" and "# dashes:"
# lines (one word per series, in the order of "# series:"): a system has
# one colour in every plot (its place in bench-user/report/variants.py),
# its other modes, readers or sizes the same colour, dashed, with open
# points.  i counts the series from 1.
colours = about("colours")
dashes = about("dashes")
n = words(series)
lc_(i) = (word(colours, i) + 0 - 1) % 12 + 1
dt_(i) = word(dashes, i) + 0
pt_(i) = word("7 6 5 4 9 8", (dt_(i) - 1) % 6 + 1) + 0
# Series side by side at each writer count, a little apart, so that
# points and bars measured at the same count do not hide each other.
dodge(i) = n > 1 ? (i - (n + 1) / 2.0) * (0.32 / n < 0.05 ? 0.32 / n : 0.05) : 0
# Twelve colours told apart by most readers (Okabe-Ito's eight, then
# four more), and again after twelve.
set linetype 1 lc rgb "#0072B2"
set linetype 2 lc rgb "#D55E00"
set linetype 3 lc rgb "#009E73"
set linetype 4 lc rgb "#CC79A7"
set linetype 5 lc rgb "#E69F00"
set linetype 6 lc rgb "#56B4E9"
set linetype 7 lc rgb "#000000"
set linetype 8 lc rgb "#8C564B"
set linetype 9 lc rgb "#7B3294"
set linetype 10 lc rgb "#999999"
set linetype 11 lc rgb "#B8860B"
set linetype 12 lc rgb "#E41A1C"
set linetype cycle 12
if (fmt eq "png") { set terminal pngcairo size 1100,650 enhanced font ",11" } else { if (fmt eq "svg") { set terminal svg size 1100,650 enhanced font ",11" } else { print "fmt must be png or svg"; exit status 2 } }
set output dir."/".name.".".fmt
set grid
set key outside right top noenhanced
set border 3
set tics nomirror
set datafile missing "nan"
# Columns are read by the names in the data file's header: a renamed
# column makes gnuplot stop with an error instead of plotting the wrong one.
set datafile columnheaders

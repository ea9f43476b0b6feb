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

# Shared by the plot scripts: the caller sets `dir` (a results folder),
# `fmt` (png or svg) and `name` (the plot), then loads this.
if (!exists("dir") || !exists("fmt") || !exists("name")) { print "usage: gnuplot -e \"dir='results/X'; fmt='png'\" plots/NAME.gp"; exit status 2 }
# The conditions, two lines of conditions.txt, broken before the kernel
# package so that the title fits the plot's width.
cond = system("sed -n 1,2p '".dir."/conditions.txt' 2>/dev/null | sed 's/; \\(linux-source\\)/\\n\\1/'")
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
# Columns are read by the names in each .dat file's header: a renamed
# column makes gnuplot stop with an error instead of plotting the wrong one.
set datafile columnheaders

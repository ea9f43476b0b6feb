# Shared settings; the caller sets `dir` (a results folder) and `name`.
cond = system("cat '".dir."/conditions.txt' 2>/dev/null")
set grid
set key outside right top
set border 3
set tics nomirror

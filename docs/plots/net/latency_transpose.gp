set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net/latency_transpose.png"
set title "8x8 mesh, transpose traffic: latency against offered load"
set xlabel "offered load (flits/node/cycle)"
set ylabel "average latency (cycles)"
set grid
set key outside below center horizontal
set yrange [0:114.883]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
0.02 18.176297968397293
0.05 18.41789568345324
0.1 18.77706606942889
0.15 19.38540923150131
0.2 20.364324060517326
0.25 21.98849674133694
0.3 26.98243038875545
0.32499999999999996 43.99197677921082
EOD
$d1 << EOD
0.02 18.312415349887132
0.05 18.98111510791367
0.1 21.104591265397538
0.125 25.87750501002004
0.1375 43.653240214390124
0.15 307.37651677373304
EOD
$d2 << EOD
0.02 18.312415349887132
0.05 18.98111510791367
0.1 21.10481522956327
0.125 25.87839965645577
0.1375 43.65811271723242
0.15 307.44387937187724
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "adbr", \
     $d1 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 1 lw 1.5 title "dorvct", \
     $d2 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 1 lw 1.5 title "dorwh"

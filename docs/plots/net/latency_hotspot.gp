set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net/latency_hotspot.png"
set title "8x8 mesh, hotspot traffic: latency against offered load"
set xlabel "offered load (flits/node/cycle)"
set ylabel "average latency (cycles)"
set grid
set key outside below center horizontal
set yrange [0:104.478]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
0.02 16.57426314775573
0.05 17.224029258423467
0.1 18.883751651254954
0.125 23.408919851957826
0.1375 105.97229775662814
EOD
$d1 << EOD
0.02 16.609901753034098
0.05 17.344175550540815
0.1 19.364907918253166
0.125 32.90594967810158
0.13125 68.40094941403352
EOD
$d2 << EOD
0.02 16.609901753034098
0.05 17.349311337639094
0.1 19.775662444634392
0.125 42.04245327030137
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "adbr", \
     $d1 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 1 lw 1.5 title "dorvct", \
     $d2 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 1 lw 1.5 title "dorwh"

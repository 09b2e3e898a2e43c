set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net/latency_bitrev.png"
set title "8x8 mesh, bitrev traffic: latency against offered load"
set xlabel "offered load (flits/node/cycle)"
set ylabel "average latency (cycles)"
set grid
set key outside below center horizontal
set yrange [0:114.686]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
0.02 18.235187697874267
0.05 18.549685534591195
0.1 19.33866917765223
0.15 20.60766417932634
0.2 22.82334028116546
0.25 27.30224205678929
0.3 62.027778600847434
0.3 62.027778600847434
EOD
$d1 << EOD
0.02 18.40547263681592
0.05 19.171877807726865
0.1 22.20791857232535
0.125 28.091201716738198
0.1375 47.232795297327144
0.15 317.18643160805067
EOD
$d2 << EOD
0.02 18.40547263681592
0.05 19.173045822102427
0.1 22.25123307326697
0.125 28.37145922746781
0.1375 48.1180214997889
0.15 323.0504503968844
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "adbr", \
     $d1 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 1 lw 1.5 title "dorvct", \
     $d2 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 1 lw 1.5 title "dorwh"

set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net_torus/latency_neighbor.png"
set title "8x8-torus, neighbor traffic: latency against offered load"
set xlabel "offered load (flits/node/cycle)"
set ylabel "average latency (cycles)"
set grid
set key outside below center horizontal
set yrange [0:50.6605]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
0.02 8.09951028403526
0.05 8.238049940546968
0.1 8.50998170992723
0.15 8.825129802699896
0.2 9.16122110601775
0.25 9.580958458497408
0.3 10.043729007732965
0.35 10.623232176888186
0.4 11.310091045561773
0.45 12.149409757407263
0.5 13.20249403397127
0.6 16.669929842795895
0.65 19.788703856897936
0.7 25.646483255319506
0.8 138.8460631685599
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "dorvct"

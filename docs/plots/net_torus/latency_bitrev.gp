set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net_torus/latency_bitrev.png"
set title "8x8-torus, bitrev traffic: latency against offered load"
set xlabel "offered load (flits/node/cycle)"
set ylabel "average latency (cycles)"
set grid
set key outside below center horizontal
set yrange [0:35.9469]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
0.02 15.553143374038896
0.05 16.395507637017072
0.1 19.33840014348489
0.15 34.235157713232454
0.15000000000000002 34.235157713232454
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "dorvct"

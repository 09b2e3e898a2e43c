set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net_torus/latency_hotspot.png"
set title "8x8-torus, hotspot traffic: latency against offered load"
set xlabel "offered load (flits/node/cycle)"
set ylabel "average latency (cycles)"
set grid
set key outside below center horizontal
set yrange [0:44.4481]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
0.02 14.382777884800616
0.05 15.04840090265349
0.1 17.23179734245085
0.125 42.331508723913785
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "dorvct"

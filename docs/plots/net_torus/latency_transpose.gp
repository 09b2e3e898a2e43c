set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net_torus/latency_transpose.png"
set title "8x8-torus, transpose traffic: latency against offered load"
set xlabel "offered load (flits/node/cycle)"
set ylabel "average latency (cycles)"
set grid
set key outside below center horizontal
set yrange [0:52.5872]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
0.02 15.479683972911964
0.05 16.239208633093526
0.1 18.559193729003358
0.15 26.50196288365453
0.175 50.08308733713355
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "dorvct"

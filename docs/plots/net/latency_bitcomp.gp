set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net/latency_bitcomp.png"
set title "8x8 mesh, bitcomp traffic: latency against offered load"
set xlabel "offered load (flits/node/cycle)"
set ylabel "average latency (cycles)"
set grid
set key outside below center horizontal
set yrange [0:52.8046]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
0.02 22.35202369200395
0.05 22.76293442365152
0.1 24.56314902621576
0.15 30.92878129956577
0.175 48.592749110320284
EOD
$d1 << EOD
0.02 22.497137216189536
0.05 23.123368454159458
0.1 25.1237901171676
0.15 29.431888504641307
0.2 47.42794497157382
0.2 47.42794497157382
EOD
$d2 << EOD
0.02 22.497137216189536
0.05 23.121953137285736
0.1 25.12982483639641
0.15 29.51980030682025
0.2 50.29010225663116
0.2 50.29010225663116
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "adbr", \
     $d1 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 1 lw 1.5 title "dorvct", \
     $d2 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 1 lw 1.5 title "dorwh"

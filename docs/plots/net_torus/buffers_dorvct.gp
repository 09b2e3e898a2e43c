set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net_torus/buffers_dorvct.png"
set title "8x8-torus, dorvct: saturation load against buffer depth"
set xlabel "input buffer depth (packets)"
set ylabel "saturation load (flits/node/cycle)"
set grid
set key outside below center horizontal
set yrange [0:*]
set xtics (2, 3, 4, 6)
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
2 0.34062499999999996
3 0.43437499999999996
4 0.44062499999999993
6 0.44687499999999997
EOD
$d1 << EOD
2 0.159375
3 0.203125
4 0.203125
6 0.20937500000000003
EOD
$d2 << EOD
2 0.309375
3 0.371875
4 0.38437499999999997
6 0.38437499999999997
EOD
$d3 << EOD
2 0.14687499999999998
3 0.190625
4 0.19687500000000002
6 0.203125
EOD
$d4 << EOD
2 0.121875
3 0.128125
4 0.128125
6 0.13437500000000002
EOD
$d5 << EOD
2 0.5843749999999999
3 0.659375
4 0.6656250000000001
6 0.6656250000000001
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "uniform", \
     $d1 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 1 lw 1.5 title "transpose", \
     $d2 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 1 lw 1.5 title "bitcomp", \
     $d3 using 1:2 with linespoints lc rgb "#d62728" pt 11 dt 1 lw 1.5 title "bitrev", \
     $d4 using 1:2 with linespoints lc rgb "#9467bd" pt 13 dt 1 lw 1.5 title "hotspot", \
     $d5 using 1:2 with linespoints lc rgb "#8c564b" pt 6 dt 1 lw 1.5 title "neighbor"

set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net/buffers_dorvct.png"
set title "8x8 mesh, dorvct: saturation load against buffer depth"
set xlabel "input buffer depth (packets)"
set ylabel "saturation load (flits/node/cycle)"
set grid
set key outside below center horizontal
set yrange [0:*]
set xtics (2, 3, 4, 6)
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
2 0.309375
3 0.32812499999999994
4 0.334375
6 0.334375
EOD
$d1 << EOD
2 0.13437500000000002
3 0.13437500000000002
4 0.13437500000000002
6 0.13437500000000002
EOD
$d2 << EOD
2 0.19687500000000002
3 0.203125
4 0.203125
6 0.203125
EOD
$d3 << EOD
2 0.13437500000000002
3 0.13437500000000002
4 0.13437500000000002
6 0.13437500000000002
EOD
$d4 << EOD
2 0.128125
3 0.128125
4 0.13437500000000002
6 0.13437500000000002
EOD
$d5 << EOD
2 0.640625
3 0.653125
4 0.653125
6 0.653125
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "uniform", \
     $d1 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 1 lw 1.5 title "transpose", \
     $d2 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 1 lw 1.5 title "bitcomp", \
     $d3 using 1:2 with linespoints lc rgb "#d62728" pt 11 dt 1 lw 1.5 title "bitrev", \
     $d4 using 1:2 with linespoints lc rgb "#9467bd" pt 13 dt 1 lw 1.5 title "hotspot", \
     $d5 using 1:2 with linespoints lc rgb "#8c564b" pt 6 dt 1 lw 1.5 title "neighbor"

set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/barrier/barrier_time_3d.png"
set title "Barrier time against network size, 3-D ADBR meshes (every node calling in one cycle)"
set xlabel "nodes"
set ylabel "cycles, last call to last leave"
set grid
set key outside below center horizontal
set logscale x 2
set logscale y
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
64 19
512 43
EOD
$d1 << EOD
64 45.6
512 133
EOD
$d2 << EOD
64 57.6
512 167.2
EOD
$d3 << EOD
64 37
512 85
EOD
$d4 << EOD
64 89.2
512 260.2
EOD
$d5 << EOD
64 107.2
512 326
EOD
$d6 << EOD
64 532
512 8723
EOD
$d7 << EOD
64 558
512 9928
EOD
$d8 << EOD
64 572.2
512 11627
EOD
$d9 << EOD
64 1050
512 16926
EOD
$d10 << EOD
64 1077
512 19120.6
EOD
$d11 << EOD
64 1163
512 22650.6
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "multiphase half, load 0.00", \
     $d1 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 3 lw 1.5 title "multiphase half, load 0.05", \
     $d2 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 3 lw 1.5 title "multiphase half, load 0.10", \
     $d3 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 1 lw 1.5 title "multiphase full, load 0.00", \
     $d4 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 3 lw 1.5 title "multiphase full, load 0.05", \
     $d5 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 3 lw 1.5 title "multiphase full, load 0.10", \
     $d6 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 1 lw 1.5 title "all-to-all half, load 0.00", \
     $d7 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 3 lw 1.5 title "all-to-all half, load 0.05", \
     $d8 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 3 lw 1.5 title "all-to-all half, load 0.10", \
     $d9 using 1:2 with linespoints lc rgb "#d62728" pt 11 dt 1 lw 1.5 title "all-to-all full, load 0.00", \
     $d10 using 1:2 with linespoints lc rgb "#d62728" pt 11 dt 3 lw 1.5 title "all-to-all full, load 0.05", \
     $d11 using 1:2 with linespoints lc rgb "#d62728" pt 11 dt 3 lw 1.5 title "all-to-all full, load 0.10"

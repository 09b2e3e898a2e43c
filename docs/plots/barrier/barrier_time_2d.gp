set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/barrier/barrier_time_2d.png"
set title "Barrier time against network size, 2-D ADBR meshes (every node calling in one cycle)"
set xlabel "nodes"
set ylabel "cycles, last call to last leave"
set grid
set key outside below center horizontal
set logscale x 2
set logscale y
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
4 5
16 13
64 29
256 61
EOD
$d1 << EOD
4 8
16 20.4
64 70.4
256 187.8
EOD
$d2 << EOD
4 10
16 33.2
64 93.8
256 264.6
EOD
$d3 << EOD
4 9
16 25
64 57
256 121
EOD
$d4 << EOD
4 12.2
16 46
64 135.4
256 372.2
EOD
$d5 << EOD
4 14.6
16 55
64 177
256 513.8
EOD
$d6 << EOD
4 23
16 134
64 1122
256 9830
EOD
$d7 << EOD
4 23.2
16 142.4
64 1275
256 13516.2
EOD
$d8 << EOD
4 23.4
16 150.6
64 1438.6
256 22859.2
EOD
$d9 << EOD
4 46
16 263
64 2157
256 19737
EOD
$d10 << EOD
4 46.4
16 274.2
64 2491
256 27485.2
EOD
$d11 << EOD
4 48.6
16 294
64 2932.2
256 48304.6
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

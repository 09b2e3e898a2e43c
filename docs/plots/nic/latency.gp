set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "/work/main/docs/plots/nic/latency.png"
set title "NIC one-way latency against message size (min of the ping-pong round trips / 2)"
set xlabel "message size (bytes)"
set ylabel "one-way latency (us)"
set grid
set key outside below center horizontal
set logscale x 2
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
8 2.3696
16 2.3696
32 2.408
64 2.4464
128 2.4464
256 2.5232
512 2.5232
1024 2.6
4096 2.984
EOD
$d1 << EOD
8 1.536
16 1.536
32 1.536
64 1.536
128 1.536
256 1.6128
512 1.6512
1024 1.6896
4096 2.1504
EOD
$d2 << EOD
8 0.6128
16 0.6144
32 0.6176
64 0.7008
128 0.8288
EOD
$d3 << EOD
8 1.4864
16 1.5248
32 1.5248
64 1.5952
128 1.7424
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "RDMA write, DMA descriptors", \
     $d1 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 1 lw 1.5 title "RDMA write, PIO-WC descriptors", \
     $d2 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 1 lw 1.5 title "immediate write, PIO-WC", \
     $d3 using 1:2 with linespoints lc rgb "#d62728" pt 11 dt 1 lw 1.5 title "immediate write, DMA descriptors", \
     2.5 with lines lc rgb "black" dt 3 title "paper, dma: 2.5 us", \
     1.57 with lines lc rgb "black" dt 3 title "paper, pio: 1.57 us", \
     1.95 with lines lc rgb "black" dt 3 title "paper, imm: 1.95 us"

set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/link/goodput_ber.png"
set title "Link: goodput of streaming RDMA writes against bit error rate"
set xlabel "bit error rate (per flit)"
set ylabel "goodput / error-free goodput"
set grid
set key outside below center horizontal
set logscale x 2
set xtics (1e-07, 1e-06, 1e-05, 0.0001, 0.001, 0.01)
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
1e-07 1
1e-06 1
1e-05 1
0.0001 1
0.001 0.9997343898714003
0.003 0.9997343898714003
0.01 0.97386748312814
EOD
$d1 << EOD
1e-07 1
1e-06 1
1e-05 1
0.0001 0.9939328658415949
0.001 0.9408227387169935
0.003 0.8274013212070196
0.01 0.5155232763633462
EOD
$d2 << EOD
1e-07 1
1e-06 1
1e-05 1
0.0001 1
0.001 0.9997343898714003
0.003 0.9997343898714003
0.01 0.97386748312814
EOD
$d3 << EOD
1e-07 1
1e-06 1
1e-05 1
0.0001 0.9939328658415949
0.001 0.9408227387169935
0.003 0.8274013212070196
0.01 0.5155232763633462
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "retx 160, delay 2", \
     $d1 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 1 lw 1.5 title "retx 160, delay 50", \
     $d2 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 3 lw 1.5 title "retx 320, delay 2", \
     $d3 using 1:2 with linespoints lc rgb "#d62728" pt 11 dt 3 lw 1.5 title "retx 320, delay 50", \
     0.9 with lines lc rgb "black" dt 3 title "90%"

set terminal pngcairo size 800,560
set datafile missing '?'
set grid
set key top left
set output 'docs/plots/net_torus/latency_uniform.png'
set title '8x8-torus, uniform traffic: latency against offered load'
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:89.9]
plot 'docs/plots/net_torus/latency_uniform.dat' using 1:2 with linespoints lw 2 title 'dorvct'
set output 'docs/plots/net_torus/latency_transpose.png'
set title '8x8-torus, transpose traffic: latency against offered load'
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:29.8]
plot 'docs/plots/net_torus/latency_transpose.dat' using 1:2 with linespoints lw 2 title 'dorvct'
set output 'docs/plots/net_torus/latency_bitcomp.png'
set title '8x8-torus, bitcomp traffic: latency against offered load'
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:89.0]
plot 'docs/plots/net_torus/latency_bitcomp.dat' using 1:2 with linespoints lw 2 title 'dorvct'
set output 'docs/plots/net_torus/latency_bitrev.png'
set title '8x8-torus, bitrev traffic: latency against offered load'
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:37.9]
plot 'docs/plots/net_torus/latency_bitrev.dat' using 1:2 with linespoints lw 2 title 'dorvct'
set output 'docs/plots/net_torus/latency_hotspot.png'
set title '8x8-torus, hotspot traffic: latency against offered load'
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:18.2]
plot 'docs/plots/net_torus/latency_hotspot.dat' using 1:2 with linespoints lw 2 title 'dorvct'
set output 'docs/plots/net_torus/latency_neighbor.png'
set title '8x8-torus, neighbor traffic: latency against offered load'
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:50.7]
plot 'docs/plots/net_torus/latency_neighbor.dat' using 1:2 with linespoints lw 2 title 'dorvct'
set output 'docs/plots/net_torus/buffers_dorvct.png'
set title '8x8-torus, dorvct: saturation load against buffer depth'
set xlabel 'input buffer depth (packets)'
set ylabel 'saturation load (flits/node/cycle)'
set yrange [0:*]
set xtics 1
plot 'docs/plots/net_torus/buffers_dorvct.dat' using 1:2 with linespoints lw 2 title 'uniform', 'docs/plots/net_torus/buffers_dorvct.dat' using 1:3 with linespoints lw 2 title 'transpose', 'docs/plots/net_torus/buffers_dorvct.dat' using 1:4 with linespoints lw 2 title 'bitcomp', 'docs/plots/net_torus/buffers_dorvct.dat' using 1:5 with linespoints lw 2 title 'bitrev', 'docs/plots/net_torus/buffers_dorvct.dat' using 1:6 with linespoints lw 2 title 'hotspot', 'docs/plots/net_torus/buffers_dorvct.dat' using 1:7 with linespoints lw 2 title 'neighbor'
unset xtics
set xtics

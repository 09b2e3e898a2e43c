set terminal pngcairo size 800,560
set termoption noenhanced
set datafile missing '?'
set grid
set key top left
set output 'docs/plots/net/latency_uniform.png'
set title '8x8 mesh, uniform traffic: latency against offered load' noenhanced
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:106.8]
plot 'docs/plots/net/latency_uniform.dat' using 1:2 with linespoints lw 2 title 'adbr' noenhanced, 'docs/plots/net/latency_uniform.dat' using 1:3 with linespoints lw 2 title 'dorvct' noenhanced, 'docs/plots/net/latency_uniform.dat' using 1:4 with linespoints lw 2 title 'dorwh' noenhanced
set output 'docs/plots/net/latency_transpose.png'
set title '8x8 mesh, transpose traffic: latency against offered load' noenhanced
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:114.9]
plot 'docs/plots/net/latency_transpose.dat' using 1:2 with linespoints lw 2 title 'adbr' noenhanced, 'docs/plots/net/latency_transpose.dat' using 1:3 with linespoints lw 2 title 'dorvct' noenhanced, 'docs/plots/net/latency_transpose.dat' using 1:4 with linespoints lw 2 title 'dorwh' noenhanced
set output 'docs/plots/net/latency_bitcomp.png'
set title '8x8 mesh, bitcomp traffic: latency against offered load' noenhanced
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:68.0]
plot 'docs/plots/net/latency_bitcomp.dat' using 1:2 with linespoints lw 2 title 'adbr' noenhanced, 'docs/plots/net/latency_bitcomp.dat' using 1:3 with linespoints lw 2 title 'dorvct' noenhanced, 'docs/plots/net/latency_bitcomp.dat' using 1:4 with linespoints lw 2 title 'dorwh' noenhanced
set output 'docs/plots/net/latency_bitrev.png'
set title '8x8 mesh, bitrev traffic: latency against offered load' noenhanced
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:114.7]
plot 'docs/plots/net/latency_bitrev.dat' using 1:2 with linespoints lw 2 title 'adbr' noenhanced, 'docs/plots/net/latency_bitrev.dat' using 1:3 with linespoints lw 2 title 'dorvct' noenhanced, 'docs/plots/net/latency_bitrev.dat' using 1:4 with linespoints lw 2 title 'dorwh' noenhanced
set output 'docs/plots/net/latency_hotspot.png'
set title '8x8 mesh, hotspot traffic: latency against offered load' noenhanced
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:104.5]
plot 'docs/plots/net/latency_hotspot.dat' using 1:2 with linespoints lw 2 title 'adbr' noenhanced, 'docs/plots/net/latency_hotspot.dat' using 1:3 with linespoints lw 2 title 'dorvct' noenhanced, 'docs/plots/net/latency_hotspot.dat' using 1:4 with linespoints lw 2 title 'dorwh' noenhanced
set output 'docs/plots/net/latency_neighbor.png'
set title '8x8 mesh, neighbor traffic: latency against offered load' noenhanced
set xlabel 'offered load (flits/node/cycle)'
set ylabel 'average latency (cycles)'
set yrange [0:50.6]
plot 'docs/plots/net/latency_neighbor.dat' using 1:2 with linespoints lw 2 title 'adbr' noenhanced, 'docs/plots/net/latency_neighbor.dat' using 1:3 with linespoints lw 2 title 'dorvct' noenhanced, 'docs/plots/net/latency_neighbor.dat' using 1:4 with linespoints lw 2 title 'dorwh' noenhanced
set output 'docs/plots/net/buffers_adbr.png'
set title '8x8 mesh, adbr: saturation load against buffer depth' noenhanced
set xlabel 'input buffer depth (packets)'
set ylabel 'saturation load (flits/node/cycle)'
set yrange [0:*]
set xtics 1
plot 'docs/plots/net/buffers_adbr.dat' using 1:2 with linespoints lw 2 title 'uniform' noenhanced, 'docs/plots/net/buffers_adbr.dat' using 1:3 with linespoints lw 2 title 'transpose' noenhanced, 'docs/plots/net/buffers_adbr.dat' using 1:4 with linespoints lw 2 title 'bitcomp' noenhanced, 'docs/plots/net/buffers_adbr.dat' using 1:5 with linespoints lw 2 title 'bitrev' noenhanced, 'docs/plots/net/buffers_adbr.dat' using 1:6 with linespoints lw 2 title 'hotspot' noenhanced, 'docs/plots/net/buffers_adbr.dat' using 1:7 with linespoints lw 2 title 'neighbor' noenhanced
unset xtics
set xtics
set output 'docs/plots/net/buffers_dorvct.png'
set title '8x8 mesh, dorvct: saturation load against buffer depth' noenhanced
set xlabel 'input buffer depth (packets)'
set ylabel 'saturation load (flits/node/cycle)'
set yrange [0:*]
set xtics 1
plot 'docs/plots/net/buffers_dorvct.dat' using 1:2 with linespoints lw 2 title 'uniform' noenhanced, 'docs/plots/net/buffers_dorvct.dat' using 1:3 with linespoints lw 2 title 'transpose' noenhanced, 'docs/plots/net/buffers_dorvct.dat' using 1:4 with linespoints lw 2 title 'bitcomp' noenhanced, 'docs/plots/net/buffers_dorvct.dat' using 1:5 with linespoints lw 2 title 'bitrev' noenhanced, 'docs/plots/net/buffers_dorvct.dat' using 1:6 with linespoints lw 2 title 'hotspot' noenhanced, 'docs/plots/net/buffers_dorvct.dat' using 1:7 with linespoints lw 2 title 'neighbor' noenhanced
unset xtics
set xtics

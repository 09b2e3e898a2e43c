set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net_torus/latency_bitcomp.png"
set title "8x8-torus, bitcomp traffic: latency against offered load"
set xlabel "offered load (flits/node/cycle)"
set ylabel "average latency (cycles)"
set grid
set key outside below center horizontal
set yrange [0:88.9583]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
0.02 14.211846001974333
0.05 14.5740682497248
0.1 15.301735961440496
0.15 16.361319847109907
0.2 17.927081514251896
0.25 20.439795060267233
0.3 26.16370785641984
0.32499999999999996 36.89102671618546
0.35 96.76772607980072
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "dorvct"

set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net_torus/latency_uniform.png"
set title "8x8-torus, uniform traffic: latency against offered load"
set xlabel "offered load (flits/node/cycle)"
set ylabel "average latency (cycles)"
set grid
set key outside below center horizontal
set yrange [0:89.947]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
0.02 14.367091087169442
0.05 14.845580657946888
0.1 15.683348250768573
0.15 16.779257528556595
0.2 18.201892129132936
0.25 20.327071238462857
0.3 23.556747467909496
0.35 30.17775746971436
0.375 38.68533962813527
0.4 58.305236581989746
0.45 594.2728020716952
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "dorvct"

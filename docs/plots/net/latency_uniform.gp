set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/net/latency_uniform.png"
set title "8x8 mesh, uniform traffic: latency against offered load"
set xlabel "offered load (flits/node/cycle)"
set ylabel "average latency (cycles)"
set grid
set key outside below center horizontal
set yrange [0:106.817]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
0.02 16.914005876591578
0.05 17.31399128022196
0.1 18.074872553216327
0.15 19.1398753894081
0.2 20.754042719204136
0.25 23.399975096888667
0.3 30.326672221209677
0.32499999999999996 54.11613073716832
EOD
$d1 << EOD
0.02 16.948873653281098
0.05 17.433214427269125
0.1 18.327431217651867
0.15 19.675
0.2 21.5176826294743
0.25 24.54069324036172
0.3 30.953745410992788
0.32499999999999996 40.90230747979003
0.35 179.1088945602871
EOD
$d2 << EOD
0.02 16.948873653281098
0.05 17.432897344431233
0.1 18.334163521033584
0.15 19.69117341640706
0.2 21.623076172827464
0.25 25.038055067004933
0.3 33.904457520764446
0.32499999999999996 60.488414553578934
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "adbr", \
     $d1 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 1 lw 1.5 title "dorvct", \
     $d2 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 1 lw 1.5 title "dorwh"

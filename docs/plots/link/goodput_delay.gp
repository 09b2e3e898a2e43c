set terminal pngcairo size 960,680 noenhanced
set termoption noenhanced
set output "docs/plots/link/goodput_delay.png"
set title "Link: goodput of streaming RDMA writes against link delay"
set xlabel "link delay (cycles each way)"
set ylabel "goodput / error-free goodput on the shortest link"
set grid
set key outside below center horizontal
set yrange [0:*]
set offsets graph 0.03, graph 0.03, 0, 0
$d0 << EOD
2 1
10 0.9997343898714003
25 0.9994689208028146
50 0.9989384053964392
100 0.6132238137261558
200 0.31819622816966897
EOD
$d1 << EOD
2 1
10 0.9994689208028146
25 0.9981436874323218
50 0.9928777120749158
100 0.6067000685051109
200 0.31513252911175144
EOD
$d2 << EOD
2 1
10 0.9997343898714003
25 0.9994689208028146
50 0.9989384053964392
100 0.6132238137261558
200 0.31819622816966897
EOD
$d3 << EOD
2 1
10 0.9994689208028146
25 0.9981436874323218
50 0.9928777120749158
100 0.6067000685051109
200 0.31513252911175144
EOD
plot $d0 using 1:2 with linespoints lc rgb "#1f77b4" pt 7 dt 1 lw 1.5 title "retx 160, BER 0", \
     $d1 using 1:2 with linespoints lc rgb "#ff7f0e" pt 5 dt 1 lw 1.5 title "retx 160, BER 0.0001", \
     $d2 using 1:2 with linespoints lc rgb "#2ca02c" pt 9 dt 3 lw 1.5 title "retx 320, BER 0", \
     $d3 using 1:2 with linespoints lc rgb "#d62728" pt 11 dt 3 lw 1.5 title "retx 320, BER 0.0001", \
     0.9 with lines lc rgb "black" dt 3 title "90%"

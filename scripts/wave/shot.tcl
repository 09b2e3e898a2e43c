# shot.tcl: GTKWave script of scripts/wave/shot.sh: waits until the window (trace and save file
# loaded by the command line) is drawn, writes the screen to $env(HPCNET_SHOT) (ImageMagick's
# import) and quits. A Tcl error would leave GTKWave running: shot.sh runs it under timeout.
update
after 1500
update
exec import -window root $env(HPCNET_SHOT)
gtkwave::/File/Quit

# -l resolves kprobe wildcards against the fake build tree's System.map, skipping refused functions
# ARGV: -r ../fixtures/kbuild-fake -l 'kprobe.function("*read*")'
# RC: 0

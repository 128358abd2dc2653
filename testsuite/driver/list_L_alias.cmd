# -L lists a library alias with the locals of its prologue
# ARGV: -I ../tapsets/tapset_alias_wildcard -L 'tst_fam.*'
# RC: 0

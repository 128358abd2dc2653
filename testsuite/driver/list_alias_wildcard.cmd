# -l matches library aliases by wildcard and lists their names
# ARGV: -I ../tapsets/tapset_alias_wildcard -l 'tst_fam.*'
# RC: 0

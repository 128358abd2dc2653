# --dump-probe-aliases lists the library's aliases
# ARGV: -I ../tapsets/tapset_alias_wildcard --dump-probe-aliases
# RC: 0

# --dump-probe-types lists the built-in families
# ARGV: --dump-probe-types
# RC: 0

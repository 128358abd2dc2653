# --dump-functions lists the library's public functions with signatures
# ARGV: -I ../tapsets/tapset_global_and_function --dump-functions
# RC: 0

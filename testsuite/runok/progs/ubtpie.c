/* ubtpie.c: ubt.c built as a static PIE (loaded at a bias: usym_pie) */
#include "ubt.c"

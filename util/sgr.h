/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sgr.h: colours of error messages (stap --color, staprun -C): when to
 * colour, and the SGR parameters of each part from SYSTEMTAP_COLORS
 * ("error=01;31:warning=00;33:source=00;34:caret=01:token=01", the
 * defaults). Shared by stap and staprun (libc only). */
#ifndef UTIL_SGR_H
#define UTIL_SGR_H

#include <stdbool.h>

enum sgr_part { SGR_ERROR, SGR_WARNING, SGR_SOURCE, SGR_CARET, SGR_TOKEN, SGR_NPARTS };

struct sgr {
	bool on;
	char code[SGR_NPARTS][24];	/* "01;31"; "" for a part left plain */
};

/*
 * sgr_when - parse WHEN ("never", "always", "auto"; NULL: "auto") into
 * *@mode (0 never, 1 always, 2 auto). Returns -1 for anything else.
 */
int sgr_when(const char *when, int *mode);

/*
 * sgr_init - colours on or off for @mode (auto: when @fd is a terminal),
 * and the codes from SYSTEMTAP_COLORS (absent: the defaults; empty or
 * invalid: colouring off).
 */
void sgr_init(struct sgr *c, int mode, int fd);

/* The escape sequence that starts @part ("" when off), and the one that ends it. */
const char *sgr_start(const struct sgr *c, enum sgr_part part, char *buf, unsigned len);
const char *sgr_end(const struct sgr *c, enum sgr_part part);

#endif

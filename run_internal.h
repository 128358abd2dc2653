/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run_internal.h: what run.c (pass 5 here) and remote.c (pass 5 in the VM) share. */
#ifndef CSTAP_RUN_INTERNAL_H
#define CSTAP_RUN_INTERNAL_H

#include <stdbool.h>

#include "session.h"

struct arena;
struct diag;
struct strbuf;

/* The directory of testsuite/vm's scripts ($CSTAP_VM_DIR overrides). */
const char *vm_dir(void);

/* staprun's path: the host's, or (@vm) the static one for the guest
 * ($STAPRUN / $STAPRUN_STATIC override). Allocated in @a or static. */
const char *staprun_path(struct arena *a, bool vm);

/* Appends staprun's options for the session to the guest's shell text
 * @sh (" -b -s N ..."; no -o: the host writes the output file). */
void staprun_shell_opts(const struct session *s, struct arena *a, struct strbuf *sh);

/* Appends @s to @sb quoted for the shell ('...'). */
void sb_add_shquoted(struct strbuf *sb, const char *s);

/* The host files @ko needs in the VM, at the same paths: the programs
 * and libraries it probes, the -c program @target_cmd when its first word
 * is a path, and the loader and libraries each of them loads (the host's
 * ldd). Regular files only, each once, appended to @out (arena strings). */
struct ptrvec;
void remote_user_files(struct arena *a, const char *ko, const char *target_cmd,
		       struct ptrvec *out);

/* Runs @ko with staprun in the VM of @release, the output streamed to
 * stdout/stderr (or -o FILE) as it comes. Returns staprun's exit status in
 * the guest, or 1 after reporting a failure of the VM run in @d. */
int run_in_vm(const struct session *s, struct diag *d, struct arena *a,
	      const char *ko, const char *release);

#endif

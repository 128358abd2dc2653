/* SPDX-License-Identifier: GPL-2.0-or-later */
/* build_exec.h: pass 4's helpers to run programs and write files
 * (build_exec.c), shared by build.c and build_autoconf.c. A function that
 * runs a program returns its exit status (128+N for signal N), or -errno
 * when it could not be started; its output goes to a log file (or
 * through, with -v -v). */
#ifndef BUILD_EXEC_H
#define BUILD_EXEC_H

#include <stdbool.h>
#include <sys/types.h>

struct session;
struct arena;
struct strbuf;

int write_file(const char *path, const char *text);
/* into the cache, whole or not at all (cache_write) */
int cache_put(const char *path, const char *text);
int copy_file(const char *from, const char *to);
void remove_tree(const char *dir);
/* -B STAP_MODULE_DWARF=VALUE (not empty): keep the module's DWARF */
bool keep_dwarf(const struct session *s);
/* compiles to run at once: the CPUs, up to 4 */
int build_jobs(void);
int child_status(pid_t pid);
bool child_wait_file(pid_t pid, const char *path, int *st);
/* make -C @build M=@dir modules (-k with @keep_going) */
pid_t make_start(const struct session *s, const char *build, const char *dir, const char *log,
		 bool keep_going);
int run_make(const struct session *s, const char *build, const char *dir, const char *log,
	     bool keep_going);
/* /bin/sh -c @script in the kernel tree @build */
pid_t sh_start(const struct session *s, const char *build, const char *script, const char *log);
int sh_wait(pid_t pid);
int run_sh(const struct session *s, const char *build, const char *script, const char *log);
int sh_pool(struct strbuf *sc, struct arena *a, const char *dir, const char *tag,
	    const char *const *cmds, int n, bool must);
char *replace_all(struct arena *a, const char *text, const char *from, const char *to);
const char *cc_only(struct arena *a, const char *cmd);

#endif

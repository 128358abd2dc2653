// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's fprobe with an exit handler (rethook-based), as kprobe.c
 * uses it:
 * register_fprobe_ips() and unregister_fprobe() built in (CONFIG_FPROBE),
 * an entry handler taking the return address and returning whether to
 * hook the return, an exit handler getting the registers at the return,
 * per-hit entry data (entry_data_size) and nr_maxactive (the form of
 * Debian's 6.12; 6.1 has no CONFIG_FPROBE). From 6.14 the
 * exit handler gets ftrace_regs (the fgraph rewrite): this test fails
 * there and .return points stay kretprobes. */
#include <linux/fprobe.h>

#ifndef CONFIG_FPROBE
#error "no CONFIG_FPROBE"
#endif

static int stp_ac_entry(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			struct pt_regs *regs, void *data)
{
	return regs && data ? 0 : 1;
}

static void stp_ac_exit(struct fprobe *fp, unsigned long ip, unsigned long ret_ip,
			struct pt_regs *regs, void *data)
{
	(void)instruction_pointer(regs);
}

static struct fprobe stp_ac_fp = {
	.entry_handler = stp_ac_entry,
	.exit_handler = stp_ac_exit,
	.entry_data_size = 8,
	.nr_maxactive = 16,
};

int stp_ac_test(unsigned long *ips, int n);
int stp_ac_test(unsigned long *ips, int n)
{
	int rc = register_fprobe_ips(&stp_ac_fp, ips, n);

	if (!rc)
		rc = unregister_fprobe(&stp_ac_fp);
	return rc + (int)stp_ac_fp.nmissed;
}

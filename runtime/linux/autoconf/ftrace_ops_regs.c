// SPDX-License-Identifier: GPL-2.0-or-later
/* One ftrace_ops for many function entries with their registers:
 * ftrace_set_filter_ips() (5.19+), callbacks taking struct ftrace_regs
 * with ftrace_get_regs() (5.11+), ftrace_test_recursion_trylock() that
 * disables preemption (5.15+), and a kernel built with
 * DYNAMIC_FTRACE_WITH_REGS (FTRACE_OPS_FL_SAVE_REGS gives full pt_regs). */
#include <linux/ftrace.h>
#include <linux/trace_recursion.h>

#ifndef CONFIG_DYNAMIC_FTRACE_WITH_REGS
#error "no DYNAMIC_FTRACE_WITH_REGS"
#endif

static void stp_ac_hit(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
		       struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit < 0)
		return;
	(void)ftrace_get_regs(fregs);
	ftrace_test_recursion_unlock(bit);
}

static struct ftrace_ops stp_ac_ops = {
	.func = stp_ac_hit,
	.flags = FTRACE_OPS_FL_SAVE_REGS,
};

int stp_ac_test(unsigned long *ips, unsigned int n);
int stp_ac_test(unsigned long *ips, unsigned int n)
{
	int rc = ftrace_set_filter_ips(&stp_ac_ops, ips, n, 0, 0);

	if (!rc)
		rc = register_ftrace_function(&stp_ac_ops);
	unregister_ftrace_function(&stp_ac_ops);
	ftrace_free_filter(&stp_ac_ops);
	return rc;
}

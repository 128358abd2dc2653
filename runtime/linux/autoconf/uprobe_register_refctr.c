// SPDX-License-Identifier: GPL-2.0-or-later
/* uprobe_register_refctr(inode, offset, ref_ctr_offset, uc): a uprobe that
 * raises a reference counter (an SDT marker's semaphore) in the processes
 * it is installed in (4.20 to 6.11; 6.12's uprobe_register takes the
 * offset itself, see uprobe_unregister_nosync.c). */
#include <linux/uprobes.h>

int stp_ac_test(struct inode *inode, struct uprobe_consumer *uc);
int stp_ac_test(struct inode *inode, struct uprobe_consumer *uc)
{
	return uprobe_register_refctr(inode, 0, 8, uc);
}

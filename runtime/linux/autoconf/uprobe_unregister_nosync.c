// SPDX-License-Identifier: GPL-2.0-or-later
/* uprobe_register() returning the struct uprobe *, unregistered with
 * uprobe_unregister_nosync() + uprobe_unregister_sync(): 6.12 and later
 * (before: int uprobe_register(inode, offset, uc) and
 * uprobe_unregister(inode, offset, uc)). */
#include <linux/uprobes.h>

void stp_ac_test(struct inode *inode, struct uprobe_consumer *uc);
void stp_ac_test(struct inode *inode, struct uprobe_consumer *uc)
{
	struct uprobe *u = uprobe_register(inode, 0, 0, uc);

	if (!IS_ERR(u))
		uprobe_unregister_nosync(u, uc);
	uprobe_unregister_sync();
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* timer_delete_sync(): 6.2 and later (del_timer_sync() went away in 6.15). */
#include <linux/timer.h>

void stp_ac_test(struct timer_list *t);
void stp_ac_test(struct timer_list *t)
{
	timer_delete_sync(t);
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* transport.h: what the rest of the module uses of the transport to
 * staprun (transport.c, doc/transport.md). */
#ifndef STP_TRANSPORT_H
#define STP_TRANSPORT_H

/* A control record "T TEXT" for staprun (system(): 'S'). */
void stp_ctl_send(char type, const char *text);
/* The same for the last records of a session (the count of dropped
 * messages, D), which may use the room the others leave. */
void stp_ctl_send_last(char type, const char *text);
/* The module's directory under /proc/systemtap (procfs probes' files). */
struct proc_dir_entry *stp_transport_dir(void);

#endif

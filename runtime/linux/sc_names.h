/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sc_names.h: the target kernel's system-call names by number, from the
 * table the generated code has at file scope (stp_syscall_names[], its
 * last entry NULL) when the script has system-call probes or calls
 * syscall_num() (translate/probes/syscall.c); for the functions that come
 * after it. */
#ifndef STP_SC_NAMES_H
#define STP_SC_NAMES_H

/* The name of system call @nr, or NULL. */
#define stp_syscall_name(nr) ({							\
	s64 stp_nr_ = (nr);							\
	stp_nr_ >= 0 && stp_nr_ < (s64)ARRAY_SIZE(stp_syscall_names) ?		\
		stp_syscall_names[stp_nr_] : NULL;				\
})

/* The number of the system call named @name, or -1. */
#define stp_syscall_num(name) ({						\
	const char *stp_nm_ = (name);						\
	s64 stp_i_, stp_r_ = -1;						\
	for (stp_i_ = 0; stp_i_ < (s64)ARRAY_SIZE(stp_syscall_names); stp_i_++)	\
		if (stp_syscall_names[stp_i_] &&				\
		    !strcmp(stp_syscall_names[stp_i_], stp_nm_)) {		\
			stp_r_ = stp_i_;					\
			break;							\
		}								\
	stp_r_;									\
})

/* syscall_name() and the tapset's system-call helpers can tell them. */
#define STP_SYSCALLS 1

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mem.h: reading memory on behalf of a script, only through the kernel's
 * fault-safe accessors: a bad address is an error, never an oops. Small
 * and called from generated code and the tapsets' embedded C: inline. */
#ifndef STP_MEM_H
#define STP_MEM_H

static inline int stp_read_kernel(void *dst, u64 addr, size_t len)
{
	return copy_from_kernel_nofault(dst, (const void *)(uintptr_t)addr, len) ? -EFAULT : 0;
}

static inline int stp_read_user(void *dst, u64 addr, size_t len)
{
	return copy_from_user_nofault(dst, (const void __user *)(uintptr_t)addr, len) ? -EFAULT : 0;
}

/* The guru-mode writers (set_kernel_*, set_user_*, set_*_arg): @len bytes
 * of @src to @addr, fault-safe: 0 or -EFAULT (then a part may be
 * written). copy_to_kernel_nofault() is not exported to modules on 6.1;
 * this is what it does, with __put_kernel_nofault (an exception-table
 * store), and it refuses the user and non-canonical addresses that the
 * kernel's would not refuse (a store to 0 oopses). */
static inline int stp_write_kernel(u64 addr, const void *src, size_t len)
{
	u8 *dst = (u8 *)(uintptr_t)addr;
	const u8 *s = src;

#ifdef CONFIG_X86_64
	if (addr < TASK_SIZE_MAX + PAGE_SIZE ||
	    !__is_canonical_address(addr, boot_cpu_data.x86_virt_bits))
		return -EFAULT;
#endif
	pagefault_disable();
	for (; len >= 8; len -= 8, dst += 8, s += 8)
		__put_kernel_nofault(dst, s, u64, fault);
	for (; len; len--, dst++, s++)
		__put_kernel_nofault(dst, s, u8, fault);
	pagefault_enable();
	return 0;
fault:
	pagefault_enable();
	return -EFAULT;
}

static inline int stp_write_user(u64 addr, const void *src, size_t len)
{
	return copy_to_user_nofault((void __user *)(uintptr_t)addr, src, len) ? -EFAULT : 0;
}

/* Member @field of the struct @type at kernel address @p into @out,
 * fault-safe: 0, or -EFAULT with @out zeroed. The tapset's typed readers
 * (task.stp, proc_mem.stp, signal.stp) are this plus their fault policy. */
#define stp_read_field(type, p, field, out) ({					\
	int stp_rf_rc_ = stp_read_kernel(&(out),				\
		(u64)(unsigned long)&((type *)(unsigned long)(p))->field,	\
		sizeof(out));							\
	if (stp_rf_rc_)								\
		memset(&(out), 0, sizeof(out));					\
	stp_rf_rc_;								\
})

/* Strings: stp_kernel_strn / stp_user_strn (tapset_support.c); the kernel's
 * strncpy_from_*_nofault are not exported to modules. */

/* For the getters pass 2 synthesizes for target variables ($var): the
 * probed registers (NULL outside a probe with registers), and a
 * fault-safe read of an integer lvalue @dst from @addr that ends the
 * handler with an error on a fault. Used inside embedded-C function
 * bodies only. The getters of a user-space probe's variables declare a
 * local stp_dw_user = true (DWE_HEAD_UREGS), which shadows the one here:
 * their reads are of the probed task's user memory. */
static const bool stp_dw_user __maybe_unused;
#define STP_DW_REGS_OF_CONTEXT (CONTEXT->regs)
#define STP_DW_REGS STP_DW_REGS_OF_CONTEXT	/* the entry handlers redefine it */
#define STP_DW_READ(dst, a, n)							\
	(stp_dw_user ? stp_read_user((dst), (a), (n)) : stp_read_kernel((dst), (a), (n)))
/* @n bytes to @dst (a value the getter assembles from pieces). */
#define STP_DW_FETCH_N(dst, addr, n) do {					\
	u64 stp_dw_a_ = (u64)(addr);						\
	if (STP_DW_READ((dst), stp_dw_a_, (n)))				\
		STAP_ERROR("%s read fault at 0x%llx (addr)",			\
			   stp_dw_user ? "user" : "kernel",			\
			   (unsigned long long)stp_dw_a_);			\
} while (0)
#define STP_DW_FETCH(dst, addr) do {						\
	u64 stp_dw_a_ = (u64)(addr);						\
	if (STP_DW_READ(&(dst), stp_dw_a_, sizeof(dst)))			\
		STAP_ERROR("%s read fault at 0x%llx (addr)",			\
			   stp_dw_user ? "user" : "kernel",			\
			   (unsigned long long)stp_dw_a_);			\
} while (0)

/* A string captured at a .return probe's entry into its slot (the
 * generated capture code of kretprobes and uretprobes; @v may already be
 * the slot). */
static inline void __maybe_unused stp_entry_str(char *slot, const char *v)
{
	if (v != slot)
		strscpy(slot, v, MAXSTRINGLEN);
}

#endif

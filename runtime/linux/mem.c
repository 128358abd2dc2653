// SPDX-License-Identifier: GPL-2.0-or-later
/* mem.c: reading memory on behalf of a script, only through the kernel's
 * fault-safe accessors: a bad address is an error, never an oops. */

static int stp_read_kernel(void *dst, u64 addr, size_t len)
{
	return copy_from_kernel_nofault(dst, (const void *)(uintptr_t)addr, len) ? -EFAULT : 0;
}

static int stp_read_user(void *dst, u64 addr, size_t len)
{
	return copy_from_user_nofault(dst, (const void __user *)(uintptr_t)addr, len) ? -EFAULT : 0;
}

/* Strings: stp_kernel_strn / stp_user_strn (tapset_support.c); the kernel's
 * strncpy_from_*_nofault are not exported to modules. */

/* For the getters pass 2 synthesizes for target variables ($var): the
 * probed registers (NULL outside a kernel probe), and a fault-safe read
 * of an integer lvalue @dst from @addr that ends the handler with an
 * error on a fault. Used inside embedded-C function bodies only. */
#define STP_DW_REGS_OF_CONTEXT (CONTEXT->user_mode ? NULL : CONTEXT->regs)
#define STP_DW_REGS STP_DW_REGS_OF_CONTEXT	/* the entry handlers redefine it */
/* @n bytes to @dst (a value the getter assembles from pieces). */
#define STP_DW_FETCH_N(dst, addr, n) do {					\
	u64 stp_dw_a_ = (u64)(addr);						\
	if (stp_read_kernel((dst), stp_dw_a_, (n)))				\
		STAP_ERROR("kernel read fault at 0x%llx (addr)",			\
			   (unsigned long long)stp_dw_a_);				\
} while (0)
#define STP_DW_FETCH(dst, addr) do {						\
	u64 stp_dw_a_ = (u64)(addr);						\
	if (stp_read_kernel(&(dst), stp_dw_a_, sizeof(dst)))			\
		STAP_ERROR("kernel read fault at 0x%llx (addr)",			\
			   (unsigned long long)stp_dw_a_);				\
} while (0)

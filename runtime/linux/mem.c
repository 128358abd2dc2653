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

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

/* A NUL-terminated kernel string into @dst (MAXSTRINGLEN): 0 or -EFAULT. */
static int stp_kernel_string(char *dst, u64 addr, size_t max)
{
	long n;

	if (max > MAXSTRINGLEN)
		max = MAXSTRINGLEN;
	n = strncpy_from_kernel_nofault(dst, (const void *)(uintptr_t)addr, (long)max);
	if (n < 0) {
		dst[0] = '\0';
		return -EFAULT;
	}
	dst[max - 1] = '\0';
	return 0;
}

static int stp_user_string(char *dst, u64 addr, size_t max)
{
	long n;

	if (max > MAXSTRINGLEN)
		max = MAXSTRINGLEN;
	n = strncpy_from_user_nofault(dst, (const void __user *)(uintptr_t)addr, (long)max);
	if (n < 0) {
		dst[0] = '\0';
		return -EFAULT;
	}
	dst[max - 1] = '\0';
	return 0;
}

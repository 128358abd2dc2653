// SPDX-License-Identifier: GPL-2.0-or-later
/* tapset_support.c: helpers of the tapset library's embedded C (the tapset/ files)
 * that are too long to repeat in each function: bounded string reads,
 * escaping a string for display, the task's word size, kernel backtraces and
 * their symbolic forms. Everything runs in probe context: no sleeping, no
 * allocation, bounded loops. */

#ifdef CONFIG_X86
#include <asm/unwind.h>
#endif
#include <linux/stacktrace.h>
#ifdef CONFIG_X86_64
#include <asm/msr.h>
#include <asm/special_insns.h>
#endif

/* A string's worth of scratch space for one embedded-C function body
 * (which calls nothing that uses it in turn): one per CPU, as the handler
 * owns its CPU's context. */
struct stp_scratch_buf {
	char s[MAXSTRINGLEN];
};
static DEFINE_PER_CPU(struct stp_scratch_buf, stp_scratch_buf);

char *stp_scratch(void)
{
	return this_cpu_ptr(&stp_scratch_buf)->s;
}

/* At most @n bytes (cut to MAXSTRINGLEN - 1) of the NUL-terminated string
 * at kernel (!@user) or user address @addr into @dst, NUL-terminated:
 * 0, or -EFAULT with @dst empty. n <= 0 reads nothing and gives "".
 * The kernel exports no fault-safe string copy to modules
 * (strncpy_from_kernel_nofault and strncpy_from_user_nofault are not
 * exported on 6.1), so this copies with copy_from_*_nofault a page at a
 * time: it never reads beyond the page holding the NUL or the n-th byte. */
static int stp_strn_copy(char *dst, u64 addr, s64 n, bool user)
{
	size_t got = 0, k, i;
	u64 a;

	dst[0] = '\0';
	if (n <= 0)
		return 0;
	if (n > MAXSTRINGLEN - 1)
		n = MAXSTRINGLEN - 1;
	while (got < (size_t)n) {
		a = addr + got;
		k = min_t(u64, (size_t)n - got, PAGE_SIZE - (a & (PAGE_SIZE - 1)));
		if (user ? stp_read_user(dst + got, a, k) : stp_read_kernel(dst + got, a, k)) {
			dst[0] = '\0';
			return -EFAULT;
		}
		for (i = 0; i < k; i++)
			if (!dst[got + i])
				return 0;
		got += k;
	}
	dst[n] = '\0';
	return 0;
}

int stp_kernel_strn(char *dst, u64 addr, s64 n)
{
	return stp_strn_copy(dst, addr, n, false);
}

int stp_user_strn(char *dst, u64 addr, s64 n)
{
	return stp_strn_copy(dst, addr, n, true);
}

/* One @width-byte (2 or 4) unit at kernel or user (@user) address @addr
 * into *@u: 0 or -EFAULT. */
static int stp_read_unit(u64 addr, unsigned int width, bool user, u32 *u)
{
	u16 h;
	int rc;

	if (width == 4)
		return user ? stp_read_user(u, addr, 4) : stp_read_kernel(u, addr, 4);
	rc = user ? stp_read_user(&h, addr, 2) : stp_read_kernel(&h, addr, 2);
	*u = h;
	return rc;
}

/* Code point @cp (at most U+10FFFF) in UTF-8 into @out: its length. */
static size_t stp_utf8_put(char *out, u32 cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The NUL-terminated UTF-16 (@width 2, surrogate pairs joined) or UTF-32
 * (@width 4) string at kernel or user (@user) address @addr, in the
 * machine's byte order, as UTF-8 into @dst (MAXSTRINGLEN; cut before the
 * first character that does not fit). 0; -EFAULT when a unit cannot be
 * read; -EILSEQ for a unit that is no character (a surrogate not in a
 * pair, a value past U+10FFFF): its value in *@bad, its address in
 * *@bad_at. @dst is empty after an error. Each unit gives at least one
 * byte, so at most MAXSTRINGLEN units are read. */
int stp_utf_str(char *dst, u64 addr, unsigned int width, bool user, u32 *bad, u64 *bad_at)
{
	size_t at = 0, k;
	unsigned int i;
	char enc[4];
	u32 u, lo;
	int rc = 0;

	for (i = 0; i < MAXSTRINGLEN; i++, addr += width) {
		if (stp_read_unit(addr, width, user, &u)) {
			rc = -EFAULT;
			break;
		}
		if (!u)
			break;
		*bad = u;
		*bad_at = addr;
		if (width == 2 && u >= 0xd800 && u <= 0xdbff) {
			if (stp_read_unit(addr + 2, 2, user, &lo)) {
				rc = -EFAULT;
				break;
			}
			if (lo < 0xdc00 || lo > 0xdfff) {
				rc = -EILSEQ;
				break;
			}
			u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
			addr += 2;
		} else if ((u >= 0xd800 && u <= 0xdfff) || u > 0x10ffff) {
			rc = -EILSEQ;
			break;
		}
		k = stp_utf8_put(enc, u);
		if (at + k > MAXSTRINGLEN - 1)
			break;
		memcpy(dst + at, enc, k);
		at += k;
	}
	dst[rc ? 0 : at] = '\0';
	return rc;
}

/* set_kernel_string(_n) and set_user_string(_n): the string @s, cut to @n
 * bytes when @n >= 0, and a NUL, to kernel or user (@user) address @addr:
 * 0 or -EFAULT (then some of it may be written). */
int stp_set_string(u64 addr, const char *s, s64 n, bool user)
{
	size_t len = strlen(s);
	char nul = '\0';

	if (n >= 0 && (u64)n < len)
		len = (size_t)n;
	if (user)
		return stp_write_user(addr, s, len) || stp_write_user(addr + len, &nul, 1) ?
			-EFAULT : 0;
	return stp_write_kernel(addr, s, len) || stp_write_kernel(addr + len, &nul, 1) ?
		-EFAULT : 0;
}

/* Does the current task run 32-bit user code (user_long() then reads 4
 * bytes)? */
static bool stp_user_compat(void)
{
#if defined(CONFIG_X86_64) && defined(CONFIG_COMPAT)
	return current->mm && !user_64bit_mode(task_pt_regs(current));
#elif defined(CONFIG_COMPAT)
	return in_compat_syscall();
#else
	return false;
#endif
}

/* The @size-byte integer (1, 2, 4 or 8) at user address @addr into *@v,
 * sign- or zero-extended: 0, or -EFAULT with *@v = 0. */
int stp_user_num(u64 addr, unsigned int size, bool sign, s64 *v)
{
	unsigned int drop = 64 - 8 * size;	/* bits above the value */
	u64 raw = 0;

	*v = 0;
	if (size < 1 || size > sizeof(raw) || stp_read_user(&raw, addr, size))
		return -EFAULT;
	/* little-endian: the value sits in the low bytes of raw */
	raw <<= drop;
	*v = sign ? (s64)raw >> drop : (s64)(raw >> drop);
	return 0;
}

/* The @n-byte structure at user address @addr into @dst: true. Else false,
 * with what an argstr shows for it in @out (@len bytes): "NULL" for 0, the
 * address in hex when it cannot be read. */
bool stp_user_struct(char *out, size_t len, void *dst, u64 addr, size_t n)
{
	if (!addr) {
		strscpy(out, "NULL", len);
		return false;
	}
	if (stp_read_user(dst, addr, n)) {
		snprintf(out, len, "0x%llx", (unsigned long long)addr);
		return false;
	}
	return true;
}

/* The struct __kernel_timespec at user address @addr as argstrs show it,
 * "[SEC.NSEC]" (stp_user_struct's text when it cannot be read). */
void stp_user_timespec_str(char *out, size_t len, u64 addr)
{
	struct __kernel_timespec ts;

	if (stp_user_struct(out, len, &ts, addr, sizeof(ts)))
		snprintf(out, len, "[%lld.%09lld]", (long long)ts.tv_sec,
			 (long long)ts.tv_nsec);
}

/* The size of a C long in the current task's user space. */
unsigned int stp_user_long_size(void)
{
	return stp_user_compat() ? 4 : sizeof(long);
}

/* A valid UTF-8 sequence of 2 to 4 bytes at @s: its length, and its code
 * point in *@cp; 0 when @s does not start one (overlong forms, surrogates
 * and code points past U+10FFFF are not valid). */
static unsigned int stp_utf8_seq(const unsigned char *s, u32 *cp)
{
	unsigned int n, i;
	u32 v;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		v = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		v = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		v = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return 0;
		v = (v << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10ffff)) ||
	    (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

/* The escaped form of byte @ch into @out (at most 4 bytes): \a \b \t \n
 * \v \f \r, \" and \\; printable ASCII as itself; any other byte as \ooo,
 * or as \xHH when @hex (the reference quotes strings and write's buffers
 * with \ooo, setxattr's values with \xHH). Returns the escape's length. */
static size_t stp_escape_byte(char *out, unsigned char ch, bool hex)
{
	static const char named[] = "abtnvfr";	/* \a = 7 .. \r = 13 */
	static const char digits[] = "0123456789abcdef";

	if (ch >= 7 && ch <= 13) {
		out[0] = '\\';
		out[1] = named[ch - 7];
		return 2;
	}
	if (ch == '"' || ch == '\\') {
		out[0] = '\\';
		out[1] = (char)ch;
		return 2;
	}
	if (ch >= 32 && ch < 127) {
		out[0] = (char)ch;
		return 1;
	}
	out[0] = '\\';
	if (hex) {
		out[1] = 'x';
		out[2] = digits[ch >> 4];
		out[3] = digits[ch & 0xf];
	} else {
		out[1] = (char)('0' + (ch >> 6));
		out[2] = (char)('0' + ((ch >> 3) & 7));
		out[3] = (char)('0' + (ch & 7));
	}
	return 4;
}

/* The escaped form of the character at @s into @out (STP_ESCAPE_MAX
 * bytes): \a \b \t \n \v \f \r, \" and \\; a valid UTF-8 sequence as
 * \uXXXX or \UXXXXXXXX (beyond U+FFFF); any other byte below 32 or from
 * 127 up as \ooo; printable ASCII as itself. Returns the escape's length;
 * *@used is the number of bytes of @s it stands for. */
size_t stp_escape_next(char *out, const char *s, size_t *used)
{
	static const char hex[] = "0123456789ABCDEF";
	unsigned char ch = (unsigned char)*s;
	unsigned int n, i, digits;
	u32 cp;

	*used = 1;
	n = ch >= 0x80 ? stp_utf8_seq((const unsigned char *)s, &cp) : 0;
	if (!n)
		return stp_escape_byte(out, ch, false);
	*used = n;
	digits = cp > 0xffff ? 8 : 4;
	out[0] = '\\';
	out[1] = digits == 8 ? 'U' : 'u';
	for (i = 0; i < digits; i++)
		out[2 + i] = hex[(cp >> (4 * (digits - 1 - i))) & 0xf];
	return 2 + digits;
}

/* The escape of the character at @s, as stp_escape_next(), but a NUL as
 * \0 (the buffers of kernel_buffer_quoted(), which may hold NULs). */
static size_t stp_escape_at(char *out, const char *s, size_t *used)
{
	if (!*s) {
		out[0] = '\\';
		out[1] = '0';
		*used = 1;
		return 2;
	}
	return stp_escape_next(out, s, used);
}

/* Append to @dst (at *@at) the escaped characters of the @len bytes at
 * @src while they fit in @budget bytes in all, stopping at the first
 * escape that does not fit (an escape is never cut). Returns true when
 * all of @src went in. */
static bool stp_escape_into(char *dst, size_t *at, const char *src, size_t len,
			    size_t budget)
{
	char e[STP_ESCAPE_MAX];
	size_t used = 0, i, k, n;

	for (i = 0; i < len; i += n) {
		k = stp_escape_at(e, src + i, &n);
		if (used + k > budget)
			return false;
		memcpy(dst + *at, e, k);
		*at += k;
		used += k;
	}
	return true;
}

/* The @len bytes at @src (src[len] must be NUL: a UTF-8 sequence is not
 * read past it) escaped (stp_escape_at) and in double quotes, in at most
 * @outlen bytes of output, clamped to 5 .. MAXSTRINGLEN - 1; when the
 * whole does not fit, as much as fits followed by `"...`. */
void stp_quote_n(char *dst, const char *src, size_t len, s64 outlen)
{
	size_t limit = outlen < 5 ? 5 : outlen > MAXSTRINGLEN - 1 ? MAXSTRINGLEN - 1 : (size_t)outlen;
	size_t at = 0, need = 0, i, n;
	char e[STP_ESCAPE_MAX];

	for (i = 0; i < len && need <= limit - 2; i += n)
		need += stp_escape_at(e, src + i, &n);
	dst[at++] = '"';
	if (need <= limit - 2) {
		stp_escape_into(dst, &at, src, len, limit - 2);
		dst[at++] = '"';
	} else {
		stp_escape_into(dst, &at, src, len, limit - 5);
		memcpy(dst + at, "\"...", 4);
		at += 4;
	}
	dst[at] = '\0';
}

/* text_strn(): @src escaped (stp_escape_next) in at most @len bytes of
 * output (len <= 0: MAXSTRINGLEN - 1). Quoted: stp_quote_n(), so a quoted
 * result never has fewer than 5 bytes of room (the reference's `""...`),
 * and a short string like "abc" is shown whole even for len 1. */
void stp_text_str(char *dst, const char *src, s64 len, bool quoted)
{
	size_t limit = (len <= 0 || len > MAXSTRINGLEN - 1) ? MAXSTRINGLEN - 1 : (size_t)len;
	size_t at = 0;

	if (quoted) {
		stp_quote_n(dst, src, strlen(src), limit);
		return;
	}
	stp_escape_into(dst, &at, src, strlen(src), limit);
	dst[at] = '\0';
}

/* The @len bytes at @src, escaped (stp_escape_byte) and in double quotes,
 * in at most @outlen bytes of output (<= 0 or too large: MAXSTRINGLEN - 1);
 * cut short it ends in `"...`. */
void stp_buf_quoted(char *dst, const char *src, size_t len, s64 outlen,
		    bool hex)
{
	size_t limit = (outlen <= 0 || outlen > MAXSTRINGLEN - 1) ? MAXSTRINGLEN - 1 : (size_t)outlen;
	size_t at = 0, i, k;
	char e[4];

	if (limit < 5)
		limit = 5;
	dst[at++] = '"';
	for (i = 0; i < len; i++) {
		k = stp_escape_byte(e, (unsigned char)src[i], hex);
		/* room for this escape and the closing quote, or for `"...` */
		if (at + k + (i + 1 < len ? 4 : 1) > limit) {
			memcpy(dst + at, "\"...", 4);
			dst[at + 4] = '\0';
			return;
		}
		memcpy(dst + at, e, k);
		at += k;
	}
	dst[at++] = '"';
	dst[at] = '\0';
}

/* Backtraces. */

struct stp_bt {
	unsigned long pc[STP_BACKTRACE_MAX];
};

/* One per CPU: a handler owns its CPU's context, hence this buffer too. */
static DEFINE_PER_CPU(struct stp_bt, stp_bt_buf);

#ifdef CONFIG_X86
/* The kernel stack at @regs: regs' address first (@first when non-zero),
 * then the return addresses, as the kernel's own stack_trace_save_regs()
 * gives them; that one is not exported to modules on 6.1, the unwinder it
 * is built on is. */
static unsigned int stp_bt_regs(struct pt_regs *regs, unsigned long first,
				unsigned long *pc, unsigned int max)
{
	struct unwind_state state;
	unsigned int n = 0;
	unsigned long a;

	pc[n++] = first ? first : instruction_pointer(regs);
	for (unwind_start(&state, current, regs, NULL);
	     !unwind_done(&state) && n < max; unwind_next_frame(&state)) {
		a = unwind_get_return_address(&state);
		if (!a)
			break;
		pc[n++] = a;
	}
	return n;
}
#endif

/* Collect the kernel backtrace of the probe hit: from the probed registers
 * when the probe has kernel-mode ones, else from the handler itself (begin,
 * end and timer probes: the module's frames, then the kernel's). Returns
 * the number of addresses in *@pcs (0 for a user-mode hit). Taken once a
 * hit: the later calls of the handler give the same addresses. */
unsigned int stp_backtrace(struct stp_context *c, unsigned long **pcs)
{
	struct stp_bt *bt = this_cpu_ptr(&stp_bt_buf);

	*pcs = bt->pc;
	if (c->bt_done)
		return c->bt_n;
	c->bt_done = true;
	c->bt_n = 0;
	if (c->regs) {
		if (c->user_mode || user_mode(c->regs))
			return 0;
#ifdef CONFIG_X86
		c->bt_n = stp_bt_regs(c->regs, c->is_return ? 0 : c->probe_addr,
				      bt->pc, STP_BACKTRACE_MAX);
#else
		bt->pc[0] = c->is_return || !c->probe_addr ?
			instruction_pointer(c->regs) : c->probe_addr;
		c->bt_n = 1;
#endif
		return c->bt_n;
	}
	c->bt_n = stack_trace_save(bt->pc, STP_BACKTRACE_MAX, 0);
	return c->bt_n;
}

/* The address as "name+0xoff/0xsize [module]" ("[kernel]" for the kernel
 * image), without "/0xsize" when !@size; "" when no symbol covers it. */
void stp_symdata(char *dst, size_t n, unsigned long addr, bool size)
{
	char sym[KSYM_SYMBOL_LEN];
	char *slash, *end;

	snprintf(sym, sizeof(sym), "%pS", (void *)addr);
	if (!strncmp(sym, "0x", 2)) {
		dst[0] = '\0';
		return;
	}
	/* "name+0xoff/0xsize [mod]": drop "/0xsize" when !size. */
	slash = size ? NULL : strchr(sym, '/');
	if (slash) {
		end = strchr(slash, ' ');
		if (end)
			memmove(slash, end, strlen(end) + 1);
		else
			*slash = '\0';
	}
	snprintf(dst, n, "%s%s", sym, strchr(sym, '[') ? "" : " [kernel]");
}

/* print_stack()/print_backtrace()'s line for @addr. */
void stp_print_frame(struct stp_context *c, const char *prefix, unsigned long addr)
{
	char sym[KSYM_SYMBOL_LEN + 16];

	stp_symdata(sym, sizeof(sym), addr, true);
	if (sym[0])
		stp_cprintf(c, "%s0x%lx : %s\n", prefix, addr, sym);
	else
		stp_cprintf(c, "%s0x%lx\n", prefix, addr);
}

/* Append "TEXT\n" for @addr to the string @dst of length *@at (sprint_stack
 * and sprint_backtrace): the symbol without its size, or the address.
 * False once the string is full. */
bool stp_sprint_frame(char *dst, size_t *at, unsigned long addr)
{
	char sym[KSYM_SYMBOL_LEN + 16];
	int k;

	stp_symdata(sym, sizeof(sym), addr, false);
	if (sym[0])
		k = snprintf(dst + *at, MAXSTRINGLEN - *at, "%s\n", sym);
	else
		k = snprintf(dst + *at, MAXSTRINGLEN - *at, "0x%lx\n", addr);
	if (k < 0 || *at + (size_t)k >= MAXSTRINGLEN) {
		dst[*at] = '\0';	/* whole lines only */
		return false;
	}
	*at += (size_t)k;
	return true;
}

/* The next space-separated word of @*s (a backtrace() string): *@w and
 * its length *@n; false at the end. */
bool stp_next_word(const char **s, const char **w, size_t *n)
{
	const char *p = *s;

	while (*p == ' ')
		p++;
	if (!*p)
		return false;
	*w = p;
	while (*p && *p != ' ')
		p++;
	*n = (size_t)(p - *w);
	*s = p;
	return true;
}

/* The word's value as a hex number ("0x" optional; 0 when it is none). */
unsigned long stp_word_addr(const char *w, size_t n)
{
	char word[24];

	if (n >= sizeof(word))
		return 0;
	memcpy(word, w, n);
	word[n] = '\0';
	return (unsigned long)simple_strtoull(word, NULL, 16);
}

/* sprint_stack(): " WORD : SYMDATA\n" per word of @stk into @dst, whole
 * lines within MAXSTRINGLEN. */
void stp_sprint_stack(char *dst, const char *stk)
{
	char sym[KSYM_SYMBOL_LEN + 16];
	const char *w;
	unsigned long a;
	size_t n, at = 0;
	int k;

	dst[0] = '\0';
	while (stp_next_word(&stk, &w, &n)) {
		a = stp_word_addr(w, n);
		stp_symdata(sym, sizeof(sym), a, true);
		if (sym[0])
			k = snprintf(dst + at, MAXSTRINGLEN - at, " %.*s : %s\n", (int)n, w, sym);
		else
			k = snprintf(dst + at, MAXSTRINGLEN - at, " %.*s : 0x%lx\n", (int)n, w, a);
		if (k < 0 || at + (size_t)k >= MAXSTRINGLEN) {
			dst[at] = '\0';
			return;
		}
		at += (size_t)k;
	}
}

/* The kernel stack the probe hit on: the bytes in use above the stack
 * pointer (the probed one for a kernel-mode hit, else the one the handler
 * started with). Kernel stacks (task and IRQ stacks alike) are
 * THREAD_SIZE-aligned. */
unsigned long stp_stack_used(struct stp_context *c)
{
	unsigned long sp = c->entry_sp;

	if (c->regs && !c->user_mode && !user_mode(c->regs))
		sp = kernel_stack_pointer(c->regs);
	return THREAD_SIZE - (sp & (THREAD_SIZE - 1));
}

/* Whether the task a probe is about runs 32-bit code (x86-64 compat). */
bool stp_probing_32bit(struct stp_context *c)
{
#if defined(CONFIG_X86_64) && defined(CONFIG_COMPAT)
	if (c->regs && (c->user_mode || user_mode(c->regs)))
		return !user_64bit_mode(c->regs);
#endif
	return stp_user_compat();
}

#ifdef CONFIG_X86_64
/* register()'s names, as the reference reads them: the 64-bit registers
 * (the segment selectors: 16 bits),
 * their 32-bit (eax ..) and 16-bit (ax ..) low parts, sign- or
 * zero-extended. */
static const struct stp_regname {
	const char *name;
	unsigned short off;
	unsigned char bytes;
} stp_regnames[] = {
#define R(n, f, b) { n, offsetof(struct pt_regs, f), b }
	R("r8", r8, 8), R("r9", r9, 8), R("r10", r10, 8), R("r11", r11, 8),
	R("r12", r12, 8), R("r13", r13, 8), R("r14", r14, 8), R("r15", r15, 8),
	R("rax", ax, 8), R("rbx", bx, 8), R("rcx", cx, 8), R("rdx", dx, 8),
	R("rsi", si, 8), R("rdi", di, 8), R("rbp", bp, 8), R("rsp", sp, 8),
	R("rip", ip, 8), R("xcs", cs, 2), R("cs", cs, 2), R("xss", ss, 2),
	R("ss", ss, 2), R("orig_rax", orig_ax, 8),
	R("eax", ax, 4), R("ebx", bx, 4), R("ecx", cx, 4), R("edx", dx, 4),
	R("esi", si, 4), R("edi", di, 4), R("ebp", bp, 4), R("esp", sp, 4),
	R("eip", ip, 4), R("flags", flags, 4), R("eflags", flags, 4),
	R("orig_eax", orig_ax, 4),
	R("ax", ax, 2), R("bx", bx, 2), R("cx", cx, 2), R("dx", dx, 2),
	R("si", si, 2), R("di", di, 2), R("bp", bp, 2), R("sp", sp, 2),
	R("ip", ip, 2),
#undef R
};
#endif

/* The instruction pointer of the hit: the probed address in a kprobe's
 * entry handler (where the saved ip is past the breakpoint). */
static unsigned long stp_regs_ip(const struct stp_context *c)
{
	if (c->probe_addr && !c->is_return && !c->user_mode && !user_mode(c->regs))
		return c->probe_addr;
	return c->regs->ip;
}

/* register(@name) (@sign) or u_register(@name) into *@v: 0, or -EINVAL
 * for a name this architecture has no register of; with STP error set
 * (and -EFAULT) where the probe has no registers. */
int stp_register(struct stp_context *c, const char *name, bool sign, s64 *v)
{
#ifdef CONFIG_X86_64
	unsigned int i;
	unsigned long r;

	*v = 0;
	if (!c->regs) {
		stp_error(c, "cannot access CPU registers in this context", NULL);
		return -EFAULT;
	}
	for (i = 0; i < ARRAY_SIZE(stp_regnames); i++) {
		if (strcmp(stp_regnames[i].name, name))
			continue;
		r = *(const unsigned long *)((const char *)c->regs + stp_regnames[i].off);
		if (stp_regnames[i].off == offsetof(struct pt_regs, ip))
			r = stp_regs_ip(c);
		switch (stp_regnames[i].bytes) {
		case 2:
			*v = sign ? (s64)(s16)r : (s64)(u16)r;
			break;
		case 4:
			*v = sign ? (s64)(s32)r : (s64)(u32)r;
			break;
		default:
			*v = (s64)r;
		}
		return 0;
	}
#endif
	*v = 0;
	return -EINVAL;
}

/* print_regs(): the saved registers, laid out as the kernel's own dumps
 * do; nothing without registers. */
void stp_print_regs(struct stp_context *c)
{
#ifdef CONFIG_X86_64
	const struct pt_regs *r = c->regs;
	unsigned long fs, gs, kgs, cr0, cr2, cr3, cr4;
	unsigned int ds, es, fsi, gsi;

	if (!r)
		return;
	rdmsrl(MSR_FS_BASE, fs);
	rdmsrl(MSR_GS_BASE, gs);
	rdmsrl(MSR_KERNEL_GS_BASE, kgs);
	savesegment(ds, ds);
	savesegment(es, es);
	savesegment(fs, fsi);
	savesegment(gs, gsi);
	cr0 = read_cr0();
	cr2 = read_cr2();
	cr3 = __read_cr3();
	cr4 = __read_cr4();
	stp_cprintf(c, "RIP: %016lx\nRSP: %016lx  EFLAGS: %08lx\n", stp_regs_ip(c), r->sp, r->flags);
	stp_cprintf(c, "RAX: %016lx RBX: %016lx RCX: %016lx\n", r->ax, r->bx, r->cx);
	stp_cprintf(c, "RDX: %016lx RSI: %016lx RDI: %016lx\n", r->dx, r->si, r->di);
	stp_cprintf(c, "RBP: %016lx R08: %016lx R09: %016lx\n", r->bp, r->r8, r->r9);
	stp_cprintf(c, "R10: %016lx R11: %016lx R12: %016lx\n", r->r10, r->r11, r->r12);
	stp_cprintf(c, "R13: %016lx R14: %016lx R15: %016lx\n", r->r13, r->r14, r->r15);
	stp_cprintf(c, "FS:  %016lx(%04x) GS:%016lx(%04x) knlGS:%016lx\n", fs, fsi, gs, gsi, kgs);
	stp_cprintf(c, "CS:  %04x DS: %04x ES: %04x CR0: %016lx\n",
		    (unsigned int)(r->cs & 0xffff), ds, es, cr0);
	stp_cprintf(c, "CR2: %016lx CR3: %016lx CR4: %016lx\n", cr2, cr3, cr4);
#endif
}

/* module_size(): "Ndata/Ntext/Nctx/Nnet/Nalloc kb" of this module. */
void stp_module_size(char *dst, size_t n)
{
	unsigned long text, data;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	text = THIS_MODULE->mem[MOD_TEXT].size;
	data = THIS_MODULE->mem[MOD_DATA].size + THIS_MODULE->mem[MOD_RODATA].size +
	       THIS_MODULE->mem[MOD_RO_AFTER_INIT].size;
#else
	text = THIS_MODULE->core_layout.text_size;
	data = THIS_MODULE->core_layout.size - text;
#endif
	snprintf(dst, n, "%ludata/%lutext/%zuctx/%unet/%ualloc kb", data / 1024, text / 1024,
		 num_possible_cpus() * (sizeof(struct stp_context) +
		 (MAXNESTING + 1) * max_t(size_t, stp_module.frame_size, 8)) / 1024, 0U, 0U);
}

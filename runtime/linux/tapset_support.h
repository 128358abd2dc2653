/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tapset_support.h: helpers of the tapset library's embedded C
 * (tapset_support.c). */
#ifndef STP_TAPSET_SUPPORT_H
#define STP_TAPSET_SUPPORT_H

/* system(): the longest command an "S" control record holds (stp_ctl_send
 * builds the record in STP_ERR_SIZE + 64 bytes: "S ", the text, "\n"). */
#define STP_SYSTEM_MAX (STP_ERR_SIZE + 64 - 3)

#define STP_ESCAPE_MAX 10	/* the longest escape: \UXXXXXXXX */

#ifndef STP_BACKTRACE_MAX
#define STP_BACKTRACE_MAX 64	/* addresses of one backtrace */
#endif

/* The body of set_kernel_* and set_user_* (embedded C of the tapset):
 * @val as a C @type at kernel or user (@user) address @addr; an error
 * "user int copy fault at 0x0000000000000000 [man error::fault]" (@name:
 * int) when it cannot be written. */
#define STP_SET_NUM(user, type, name, addr, val) do {				\
	type stp_set_v_ = (type)(val);						\
	u64 stp_set_a_ = (u64)(addr);						\
	if ((user) ? stp_write_user(stp_set_a_, &stp_set_v_, sizeof(stp_set_v_)) :	\
		     stp_write_kernel(stp_set_a_, &stp_set_v_, sizeof(stp_set_v_)))	\
		STAP_ERROR("%s %s copy fault at 0x%016llx [man error::fault]",	\
			   (user) ? "user" : "kernel", (name),			\
			   (unsigned long long)stp_set_a_);			\
} while (0)

/* Each is described at its definition in tapset_support.c. */
char *stp_scratch(void);
int stp_kernel_strn(char *dst, u64 addr, s64 n);
int stp_user_strn(char *dst, u64 addr, s64 n);
int stp_utf_str(char *dst, u64 addr, unsigned int width, bool user, u32 *bad, u64 *bad_at);
int stp_set_string(u64 addr, const char *s, s64 n, bool user);
int stp_user_num(u64 addr, unsigned int size, bool sign, s64 *v);
bool stp_user_struct(char *out, size_t len, void *dst, u64 addr, size_t n);
void stp_user_timespec_str(char *out, size_t len, u64 addr);
unsigned int stp_user_long_size(void);
size_t stp_escape_next(char *out, const char *s, size_t *used);
void stp_quote_n(char *dst, const char *src, size_t len, s64 outlen);
void stp_text_str(char *dst, const char *src, s64 len, bool quoted);
void stp_buf_quoted(char *dst, const char *src, size_t len, s64 outlen,
		    bool hex);
unsigned int stp_backtrace(struct stp_context *c, unsigned long **pcs);
void stp_symdata(char *dst, size_t n, unsigned long addr, bool size);
void stp_print_frame(struct stp_context *c, const char *prefix, unsigned long addr);
bool stp_sprint_frame(char *dst, size_t *at, unsigned long addr);
bool stp_next_word(const char **s, const char **w, size_t *n);
unsigned long stp_word_addr(const char *w, size_t n);
void stp_sprint_stack(char *dst, const char *stk);
unsigned long stp_stack_used(struct stp_context *c);
bool stp_probing_32bit(struct stp_context *c);
int stp_register(struct stp_context *c, const char *name, bool sign, s64 *v);
void stp_print_regs(struct stp_context *c);
void stp_module_size(char *dst, size_t n);

#endif

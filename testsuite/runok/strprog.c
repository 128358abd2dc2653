// SPDX-License-Identifier: GPL-2.0-or-later
/* strprog.c: for funcs_strings_user: a buffer of known strings in user
 * memory (UTF-16 and UTF-32, valid and not, bytes to quote, room to write
 * into), handed to write(2) on /dev/null so that a vfs_write probe finds it
 * at its second argument (funcs_set_arg changes write's count). */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

/* "h\u00e9llo \u20ac\U0001d11e!" */
#define TEXT 'h', 0xe9, 'l', 'l', 'o', ' ', 0x20ac

static struct {
	uint16_t u16[16];	/*   0: UTF-16, with a surrogate pair */
	uint32_t u32[16];	/*  32: UTF-32 */
	uint16_t bad16[4];	/*  96: a lone high surrogate */
	uint32_t bad32[4];	/* 104: past U+10FFFF */
	char bytes[24];		/* 120: bytes to quote */
	char room[64];		/* 144: for the set_user_* writers */
	uint16_t cut16[4];	/* 208: a pair cut by the NUL */
	uint32_t ctl32[4];	/* 216: control characters */
} buf = {
	{ TEXT, 0xd834, 0xdd1e, '!', 0 },
	{ TEXT, 0x1d11e, '!', 0 },
	{ 'a', 0xd800, 'b', 0 },
	{ 'a', 0x110000, 'b', 0 },
	"tab\there \"q\" \x01\xc3\xa9\\",
	"0123456789abcdefghijklmnopqrstuvwxyz",
	{ 'x', 0xd834, 0, 0 },
	{ '\n', '\t', 0x7f, 0 },
};

int main(void)
{
	int fd = open("/dev/null", O_WRONLY);

	return write(fd, &buf, sizeof(buf)) < 0;
}

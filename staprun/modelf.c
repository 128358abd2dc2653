// SPDX-License-Identifier: GPL-2.0-or-later
/* modelf.c: a module file's ELF image: its name (struct module in
 * .gnu.linkonce.this_module, .modinfo "name="), .modinfo values, and
 * renaming for -R. Every offset read from the file is checked first. */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "staprun/staprun.h"

#define MODELF_MAX_SIZE (1UL << 30)

int modelf_read(int fd, struct mod_image *img)
{
	struct stat st;
	size_t got = 0;

	img->data = NULL;
	img->size = 0;
	if (fstat(fd, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if ((unsigned long long)st.st_size > MODELF_MAX_SIZE)
		return -EFBIG;
	img->data = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!img->data)
		return -ENOMEM;
	while (got < (size_t)st.st_size) {
		ssize_t r = pread(fd, img->data + got, (size_t)st.st_size - got,
				  (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int e = r < 0 ? errno : EIO;

			modelf_free(img);
			return -e;
		}
		got += (size_t)r;
	}
	img->size = got;
	return 0;
}

void modelf_free(struct mod_image *img)
{
	free(img->data);
	img->data = NULL;
	img->size = 0;
}

/* One section's place in the image. */
struct sect {
	size_t off, size;
};

/* The section headers, read in either ELF class (host byte order). */
struct elfinfo {
	bool is64;
	size_t shoff, shentsize, shnum, shstrndx;
};

static bool in_image(const struct mod_image *img, size_t off, size_t len)
{
	return off <= img->size && len <= img->size - off;
}

static int elf_info(const struct mod_image *img, struct elfinfo *e)
{
	const unsigned char *id = img->data;
	unsigned char host = 0;
	uint16_t one = 1;

	memcpy(&host, &one, 1);
	host = host ? ELFDATA2LSB : ELFDATA2MSB;
	if (img->size < EI_NIDENT || memcmp(id, ELFMAG, SELFMAG) ||
	    id[EI_DATA] != host)
		return -1;
	if (id[EI_CLASS] == ELFCLASS64 && img->size >= sizeof(Elf64_Ehdr)) {
		Elf64_Ehdr h;

		memcpy(&h, img->data, sizeof(h));
		if (h.e_type != ET_REL || h.e_shoff > SIZE_MAX)
			return -1;
		e->is64 = true;
		e->shoff = (size_t)h.e_shoff;
		e->shentsize = h.e_shentsize;
		e->shnum = h.e_shnum;
		e->shstrndx = h.e_shstrndx;
		if (e->shentsize < sizeof(Elf64_Shdr))
			return -1;
	} else if (id[EI_CLASS] == ELFCLASS32 &&
		   img->size >= sizeof(Elf32_Ehdr)) {
		Elf32_Ehdr h;

		memcpy(&h, img->data, sizeof(h));
		if (h.e_type != ET_REL)
			return -1;
		e->is64 = false;
		e->shoff = h.e_shoff;
		e->shentsize = h.e_shentsize;
		e->shnum = h.e_shnum;
		e->shstrndx = h.e_shstrndx;
		if (e->shentsize < sizeof(Elf32_Shdr))
			return -1;
	} else {
		return -1;
	}
	if (e->shoff == 0)
		return -1;
	return 0;
}

/* Section @i's header fields; -1 when outside the image. */
static int shdr(const struct mod_image *img, const struct elfinfo *e,
		size_t i, uint32_t *name, uint32_t *type, struct sect *s,
		uint64_t *link)
{
	size_t off;

	if (i > (SIZE_MAX - e->shoff) / e->shentsize)
		return -1;
	off = e->shoff + i * e->shentsize;
	if (e->is64) {
		Elf64_Shdr h;

		if (!in_image(img, off, sizeof(h)))
			return -1;
		memcpy(&h, img->data + off, sizeof(h));
		*name = h.sh_name;
		*type = h.sh_type;
		if (h.sh_offset > SIZE_MAX || h.sh_size > SIZE_MAX)
			return -1;
		s->off = (size_t)h.sh_offset;
		s->size = (size_t)h.sh_size;
		*link = h.sh_link;
	} else {
		Elf32_Shdr h;

		if (!in_image(img, off, sizeof(h)))
			return -1;
		memcpy(&h, img->data + off, sizeof(h));
		*name = h.sh_name;
		*type = h.sh_type;
		s->off = h.sh_offset;
		s->size = h.sh_size;
		*link = h.sh_link;
	}
	return 0;
}

/* The section called @want, with its contents inside the image. */
static int find_section(const struct mod_image *img, const char *want,
			struct sect *out)
{
	struct elfinfo e;
	struct sect strs, s;
	uint32_t name, type;
	uint64_t link;
	size_t i, wlen = strlen(want);

	if (elf_info(img, &e))
		return -1;
	/* extended numbering: counts live in section 0 */
	if (e.shnum == 0 || e.shstrndx == SHN_XINDEX) {
		if (shdr(img, &e, 0, &name, &type, &s, &link))
			return -1;
		if (e.shnum == 0)
			e.shnum = s.size;
		if (e.shstrndx == SHN_XINDEX)
			e.shstrndx = (size_t)link;
	}
	if (e.shstrndx >= e.shnum ||
	    shdr(img, &e, e.shstrndx, &name, &type, &strs, &link) ||
	    !in_image(img, strs.off, strs.size))
		return -1;
	for (i = 1; i < e.shnum; i++) {
		if (shdr(img, &e, i, &name, &type, &s, &link))
			return -1;
		if (name >= strs.size || strs.size - name <= wlen)
			continue;
		if (memcmp(img->data + strs.off + name, want, wlen + 1))
			continue;
		if (type == SHT_NOBITS || !in_image(img, s.off, s.size))
			return -1;
		*out = s;
		return 0;
	}
	return -1;
}

/* Offset of struct module's name: after enum module_state and a list_head. */
static size_t this_module_name_off(const struct mod_image *img)
{
	return img->data[EI_CLASS] == ELFCLASS64 ? 24 : 12;
}

/* The name field of struct module, when it holds a plausible name. */
static char *this_module_name(const struct mod_image *img, size_t *room)
{
	struct sect s;
	size_t off, n;
	char *p;

	if (find_section(img, ".gnu.linkonce.this_module", &s))
		return NULL;
	off = this_module_name_off(img);
	if (s.size < off + STP_MODNAME_MAX)
		return NULL;
	p = (char *)img->data + s.off + off;
	n = strnlen(p, STP_MODNAME_MAX);
	if (n == 0 || n == STP_MODNAME_MAX)
		return NULL;
	*room = STP_MODNAME_MAX;
	return p;
}

/* The "KEY=" entry of .modinfo; @end gets the end of its string. */
static char *modinfo_entry(const struct mod_image *img, const char *key,
			   char **end)
{
	struct sect s;
	size_t klen = strlen(key), i = 0;
	char *base;

	if (find_section(img, ".modinfo", &s))
		return NULL;
	base = (char *)img->data + s.off;
	while (i < s.size) {
		char *str = base + i;
		size_t n = strnlen(str, s.size - i);

		if (n == s.size - i)
			return NULL;	/* not terminated inside the section */
		if (n > klen && memcmp(str, key, klen) == 0 && str[klen] == '=') {
			*end = str + n;
			return str;
		}
		i += n + 1;
	}
	return NULL;
}

const char *modelf_modinfo(const struct mod_image *img, const char *key)
{
	char *end, *e = modinfo_entry(img, key, &end);

	return e ? e + strlen(key) + 1 : NULL;
}

const char *modelf_param_type(const struct mod_image *img, const char *name,
			      char *buf, size_t len)
{
	static const char key[] = "parmtype=";
	size_t nlen = strlen(name), i = 0;
	struct sect s;
	char *base;

	if (find_section(img, ".modinfo", &s))
		return NULL;
	base = (char *)img->data + s.off;
	while (i < s.size) {
		const char *str = base + i;
		size_t n = strnlen(str, s.size - i);

		if (n == s.size - i)
			return NULL;	/* not terminated inside the section */
		if (n > sizeof(key) - 1 + nlen + 1 && !memcmp(str, key, sizeof(key) - 1) &&
		    !memcmp(str + sizeof(key) - 1, name, nlen) &&
		    str[sizeof(key) - 1 + nlen] == ':') {
			snprintf(buf, len, "%s", str + sizeof(key) + nlen);
			return buf;
		}
		i += n + 1;
	}
	return NULL;
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= STP_MODNAME_MAX)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return false;
	return true;
}

int modelf_name(const struct mod_image *img, char name[STP_MODNAME_MAX])
{
	const char *n;
	size_t room;

	n = this_module_name(img, &room);
	if (!n || !valid_name(n))
		n = modelf_modinfo(img, "name");
	if (!n || !valid_name(n))
		return -1;
	strcpy(name, n);
	return 0;
}

int modelf_rename(struct mod_image *img, const char *name, char *err,
		  size_t errlen)
{
	char *field, *entry, *end;
	size_t room, n = strlen(name);

	if (!valid_name(name))
		return staprun_fail(err, errlen, "Invalid module name '%s'.", name);
	field = this_module_name(img, &room);
	if (!field || !valid_name(field))
		return staprun_fail(err, errlen,
			    "Couldn't find the module's name in .gnu.linkonce.this_module.");
	memset(field, 0, room);
	memcpy(field, name, n);
	entry = modinfo_entry(img, "name", &end);
	if (entry) {
		/* the kernel skips runs of NULs between .modinfo strings */
		if ((size_t)(end - entry) >= n + 5) {
			memset(entry, 0, (size_t)(end - entry));
			memcpy(entry, "name=", 5);
			memcpy(entry + 5, name, n);
		} else {
			memset(entry, 0, (size_t)(end - entry));
		}
	}
	return 0;
}

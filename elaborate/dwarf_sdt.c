// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_sdt.c: SDT markers (<sys/sdt.h>) of programs and libraries, for
 * process(P)[.library(L)][.provider(V)].mark(N): the .note.stapsdt ELF
 * notes read with libelf, and the markers' operands ($arg1..$argN)
 * decoded from the assembler syntax the notes hold into getter bodies.
 *
 * A note (owner "stapsdt", type 3) describes one marker: the address of
 * its nop, the link-time address of the section .stapsdt.base, the
 * address of its semaphore (0: none), then the provider, the name and the
 * operands as NUL-terminated strings. When the file's .stapsdt.base is not
 * where the note says (prelink moved the file), every address moves by the
 * difference. Each operand is "[-]SIZE@OPERAND" (a '-' for a signed value;
 * an 'f' after the size for floating point), the operand in AT&T syntax:
 * %reg, $imm, or [SEG:][DISP][(BASE[,INDEX[,SCALE]])] with DISP a number
 * or SYMBOL[+-N] (with BASE %rip: the symbol's address). */
#include "elaborate/dwarf_internal.h"

#include <ctype.h>
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "elaborate/dwarf_emit.h"
#include "util/arena.h"
#include "util/elf_section.h"
#include "util/intern.h"
#include "util/strbuf.h"

#define NT_STAPSDT 3
#define SDT_MAX_NOTES 100000	/* markers read from one file */
#define SDT_MAX_ARGS 12		/* operands of one marker (sdt.h's limit) */
#define SDT_MAX_OPERAND 256	/* characters of one operand */

static Elf *sdt_elf(struct dw_mod *m, Dwarf_Addr *bias)
{
	*bias = 0;
	return m->dm ? dwfl_module_getelf(m->dm, bias) : NULL;
}

/* The number of operands in @args (blank-separated). */
static int count_args(const char *args)
{
	int n = 0;

	while (*args) {
		while (*args == ' ')
			args++;
		if (!*args)
			break;
		n++;
		while (*args && *args != ' ')
			args++;
	}
	return n;
}

/* One note's description: three addresses (4 or 8 bytes each), then the
 * strings. False when it is malformed. */
static bool parse_note(struct elab *e, const unsigned char *desc, size_t len, size_t asz,
		       int64_t adjust, Dwarf_Addr to_dwarf, struct dw_sdt *out)
{
	const char *str, *end = (const char *)desc + len, *p[3];
	uint64_t addr[3] = { 0, 0, 0 };
	int i, k;

	if (len < 3 * asz)
		return false;
	for (i = 0; i < 3; i++) {
		if (asz == 8) {
			memcpy(&addr[i], desc + 8 * i, 8);
		} else {
			uint32_t v;

			memcpy(&v, desc + 4 * i, 4);
			addr[i] = v;
		}
	}
	str = (const char *)desc + 3 * asz;
	for (k = 0; k < 3; k++) {
		const char *z = memchr(str, '\0', (size_t)(end - str));

		if (!z)
			return false;
		p[k] = str;
		str = z + 1;
		if (k < 2 && str >= end)
			return false;
	}
	out->provider = intern(e->in, p[0]);
	out->name = intern(e->in, p[1]);
	out->args = intern(e->in, p[2]);
	out->nargs = count_args(p[2]);
	out->pc = addr[0] + (uint64_t)adjust - to_dwarf;
	out->sem = addr[2] ? addr[2] + (uint64_t)adjust - to_dwarf : 0;
	return true;
}

size_t dw_sdt_markers(struct elab *e, struct dw_mod *m, const struct dw_sdt **out)
{
	struct ptrvec v = { 0 };
	Dwarf_Addr elf_bias;
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh, bsh;
	int64_t adjust = 0;
	bool have_base;
	struct dw_sdt *arr;
	size_t i;

	if (m->sdts_done) {
		*out = m->sdts;
		return m->nsdts;
	}
	m->sdts_done = true;
	elf = m->kind == DW_USER ? sdt_elf(m, &elf_bias) : NULL;
	if (!elf) {
		*out = NULL;
		return 0;
	}
	have_base = elf_section_named(elf, ".stapsdt.base", &bsh) != NULL;
	while ((scn = elf_nextscn(elf, scn)) && v.n < SDT_MAX_NOTES) {
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		while (v.n < SDT_MAX_NOTES &&
		       (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			struct dw_sdt *s;
			uint64_t base;
			size_t asz = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;

			if (nh.n_type != NT_STAPSDT || nh.n_namesz != sizeof("stapsdt") ||
			    memcmp((const char *)d->d_buf + name_off, "stapsdt", sizeof("stapsdt")))
				continue;
			s = arena_new_obj(e->a, struct dw_sdt);
			/* the note's .stapsdt.base against the section's */
			base = 0;
			if (nh.n_descsz >= 2 * asz)
				memcpy(&base, (const char *)d->d_buf + desc_off + asz, asz);
			adjust = have_base && base ? (int64_t)(bsh.sh_addr - base) : 0;
			/* DWARF address = ELF address - (the module's bias - ELF bias) */
			if (parse_note(e, (const unsigned char *)d->d_buf + desc_off, nh.n_descsz,
				       asz, adjust, m->bias - elf_bias, s))
				vec_push(e->a, &v, s);
		}
	}
	arr = arena_new_array(e->a, struct dw_sdt, v.n ? v.n : 1);
	for (i = 0; i < v.n; i++)
		arr[i] = *(const struct dw_sdt *)v.v[i];
	m->sdts = arr;
	m->nsdts = v.n;
	*out = arr;
	return v.n;
}

const struct dw_func *dw_func_at(struct elab *e, struct dw_mod *m, uint64_t pc)
{
	const struct dw_func *fs;
	Dwarf_Die cu;
	size_t n, i;
	uint64_t cuoff;

	if (!m->dw || !dwarf_addrdie(m->dw, pc, &cu))
		return NULL;
	cuoff = dwarf_dieoffset(&cu);
	n = dw_functions(e, m, &fs);
	for (i = 0; i < n; i++) {
		const struct dw_func *f = &fs[i];
		Dwarf_Die d;

		if (f->cu != cuoff || (f->flags & (DWF_INLINED | DWF_NOCODE | DWF_SYMTAB)) ||
		    f->entry > pc || !dw_die(m, f->die, &d))
			continue;
		if (dwarf_haspc(&d, pc) == 1)
			return f;
	}
	return NULL;
}

/* ---- operands ---- */

/* x86-64 registers by name: the pt_regs field, the width in bits and the
 * shift of the bits named (8 for %ah). */
struct sdt_reg {
	const char *name;
	const char *field;
	int bits, shift;
};

static const char *const reg_fields[16][5] = {
	/* 64, 32, 16, low 8, pt_regs field */
	{ "rax", "eax", "ax", "al", "ax" },	{ "rbx", "ebx", "bx", "bl", "bx" },
	{ "rcx", "ecx", "cx", "cl", "cx" },	{ "rdx", "edx", "dx", "dl", "dx" },
	{ "rsi", "esi", "si", "sil", "si" },	{ "rdi", "edi", "di", "dil", "di" },
	{ "rbp", "ebp", "bp", "bpl", "bp" },	{ "rsp", "esp", "sp", "spl", "sp" },
	{ "r8", "r8d", "r8w", "r8b", "r8" },	{ "r9", "r9d", "r9w", "r9b", "r9" },
	{ "r10", "r10d", "r10w", "r10b", "r10" }, { "r11", "r11d", "r11w", "r11b", "r11" },
	{ "r12", "r12d", "r12w", "r12b", "r12" }, { "r13", "r13d", "r13w", "r13b", "r13" },
	{ "r14", "r14d", "r14w", "r14b", "r14" }, { "r15", "r15d", "r15w", "r15b", "r15" },
};

static bool find_reg(const char *name, struct sdt_reg *r)
{
	static const int widths[4] = { 64, 32, 16, 8 };
	static const char *const high[4][2] = {
		{ "ah", "ax" }, { "bh", "bx" }, { "ch", "cx" }, { "dh", "dx" },
	};
	int i, w;

	for (i = 0; i < 16; i++)
		for (w = 0; w < 4; w++)
			if (!strcmp(name, reg_fields[i][w])) {
				*r = (struct sdt_reg){ name, reg_fields[i][4], widths[w], 0 };
				return true;
			}
	for (i = 0; i < 4; i++)
		if (!strcmp(name, high[i][0])) {
			*r = (struct sdt_reg){ name, high[i][1], 8, 8 };
			return true;
		}
	if (!strcmp(name, "rip")) {
		*r = (struct sdt_reg){ name, "ip", 64, 0 };
		return true;
	}
	return false;
}

/* The link-time (ELF) address of symbol @name of @m: .symtab, else
 * .dynsym. */
static bool symbol_value(struct dw_mod *m, const char *name, uint64_t *val)
{
	static const GElf_Word types[2] = { SHT_SYMTAB, SHT_DYNSYM };
	Dwarf_Addr elf_bias;
	Elf *elf = sdt_elf(m, &elf_bias);
	int t;

	for (t = 0; elf && t < 2; t++) {
		Elf_Scn *scn = NULL;

		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			Elf_Data *d;
			size_t i, n;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type != types[t] || !sh.sh_entsize ||
			    !(d = elf_getdata(scn, NULL)))
				continue;
			n = sh.sh_size / sh.sh_entsize;
			for (i = 0; i < n; i++) {
				GElf_Sym sym;
				const char *s;

				if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
					continue;
				s = elf_strptr(elf, sh.sh_link, sym.st_name);
				if (s && !strcmp(s, name)) {
					*val = sym.st_value;
					return true;
				}
			}
		}
	}
	return false;
}

/* One decoded operand. */
struct sdt_op {
	int bits;			/* 8, 16, 32, 64 */
	char sign;			/* 's' or 'u' */
	bool mem;			/* @c is an address to read from */
	struct strbuf c;		/* C: the value, or the address */
};

/* A number as gas writes it (decimal, 0x hex, 0 octal, a sign). */
static bool parse_number(const char **p, int64_t *v)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(*p, &end, 0);
	if (end == *p || errno)
		return false;
	*v = x;
	*p = end;
	return true;
}

/* "%reg" at *@p into @r. */
static bool parse_reg(const char **p, struct sdt_reg *r)
{
	char name[8];
	size_t n = 0;

	if (**p != '%')
		return false;
	(*p)++;
	while (n < sizeof(name) - 1 && isalnum((unsigned char)**p))
		name[n++] = *(*p)++;
	name[n] = '\0';
	return find_reg(name, r);
}

static const char *reg_c(struct arena *a, const struct sdt_reg *r)
{
	return arena_printf(a, DWE_SDT_REG, r->bits, r->field, r->shift);
}

/* Operand @k (1-based) of marker site @s decoded into @op; NULL, or why
 * not. */
static const char *decode(struct elab *e, const struct dw_site *s, int k, struct sdt_op *op)
{
	const struct dw_sdt *sd = s->sdt;
	struct dw_mod *m = s->mod;
	const char *p = sd->args, *start, *at;
	char text[SDT_MAX_OPERAND];
	uint64_t link_pc = sd->pc + m->bias, symval;
	Dwarf_Addr elf_bias;
	int64_t size = 8, disp = 0;
	size_t len;
	int i;

	sdt_elf(m, &elf_bias);
	link_pc -= elf_bias;
	for (i = 1;; i++) {
		while (*p == ' ')
			p++;
		start = p;
		while (*p && *p != ' ')
			p++;
		if (i == k || !*p)
			break;
	}
	len = (size_t)(p - start);
	if (i != k || !len)
		return "no such operand";
	if (len >= sizeof(text))
		return "operand too long";
	memcpy(text, start, len);
	text[len] = '\0';
	p = text;
	op->sign = 'u';
	at = strchr(text, '@');
	if (at) {
		/* [-]SIZE[f]@ */
		if (*p == '-') {
			op->sign = 's';
			p++;
		}
		if (!parse_number(&p, &size))
			return "bad size";
		if (*p == 'f')
			return "floating-point operands are not supported";
		if (p != at)
			return "bad size";
		p = at + 1;
	}
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return arena_printf(e->a, "unsupported operand size %lld", (long long)size);
	op->bits = (int)size * 8;
	op->c = (struct strbuf)STRBUF_INIT;
	if (*p == '%') {
		struct sdt_reg r;

		if (!parse_reg(&p, &r) || *p || !strcmp(r.field, "ip"))
			return "unknown register";
		sb_adds(&op->c, reg_c(e->a, &r));
		return NULL;
	}
	if (*p == '$') {
		const char *sym;
		int64_t v;

		p++;
		if (parse_number(&p, &v) && !*p) {
			sb_addf(&op->c, DWE_SDT_IMM, (unsigned long long)v);
			return NULL;
		}
		/* $SYMBOL[+-N]: its run-time address */
		start = p;
		while (*p && *p != '+' && *p != '-')
			p++;
		sym = arena_strndup(e->a, start, (size_t)(p - start));
		v = 0;
		if (*p && !parse_number(&p, &v))
			return "bad immediate";
		if (*p || !symbol_value(m, sym, &symval))
			return arena_printf(e->a, "unknown symbol '%s'", sym);
		sb_addf(&op->c, DWE_SDT_STATIC, (unsigned long long)(symval + (uint64_t)v),
			(unsigned long long)link_pc);
		return NULL;
	}
	/* memory: [DISP|SYMBOL[+-N]][(BASE[,INDEX[,SCALE]])] */
	op->mem = true;
	if (strchr(p, ':'))
		return "segment-relative operands are not supported";
	{
		const char *sym = NULL;
		struct sdt_reg base = { 0 }, index = { 0 };
		int64_t scale = 1;
		bool has_base = false, has_index = false;

		if (*p && *p != '(' && !isdigit((unsigned char)*p) && *p != '-' && *p != '+') {
			start = p;
			while (*p && *p != '(' && *p != '+' && *p != '-')
				p++;
			sym = arena_strndup(e->a, start, (size_t)(p - start));
			if (*p == '+' || *p == '-') {
				if (!parse_number(&p, &disp))
					return "bad displacement";
			}
		} else if (*p && *p != '(') {
			if (!parse_number(&p, &disp))
				return "bad displacement";
		}
		if (*p == '(') {
			p++;
			if (*p == '%') {
				if (!parse_reg(&p, &base))
					return "unknown base register";
				has_base = true;
			}
			if (*p == ',') {
				p++;
				if (!parse_reg(&p, &index))
					return "unknown index register";
				has_index = true;
				if (*p == ',') {
					p++;
					if (!parse_number(&p, &scale) ||
					    (scale != 1 && scale != 2 && scale != 4 && scale != 8))
						return "bad scale";
				}
			}
			if (*p != ')')
				return "bad memory operand";
			p++;
		}
		if (*p)
			return "bad memory operand";
		if (sym) {
			if (!symbol_value(m, sym, &symval))
				return arena_printf(e->a, "unknown symbol '%s'", sym);
			if (has_base && strcmp(base.field, "ip"))
				return "a symbol with a base register other than %rip";
			if (has_index)
				return "a symbol with an index register";
			sb_addf(&op->c, DWE_SDT_STATIC,
				(unsigned long long)(symval + (uint64_t)disp),
				(unsigned long long)link_pc);
			return NULL;
		}
		if (has_base && !strcmp(base.field, "ip"))
			return "a %rip-relative operand without a symbol";
		if (has_index && !strcmp(index.field, "ip"))
			return "bad index register";
		sb_addf(&op->c, "(u64)0x%llxULL", (unsigned long long)disp);
		if (has_base)
			sb_addf(&op->c, " + %s", reg_c(e->a, &base));
		if (has_index)
			sb_addf(&op->c, " + %s * %lld", reg_c(e->a, &index), (long long)scale);
	}
	return NULL;
}

/* Append to @c the computation of operand @k into vK. */
static bool operand(struct elab *e, const struct dw_site *s, int k, struct strbuf *c,
		    const char **err)
{
	struct sdt_op op = { 0 };
	const char *why = decode(e, s, k, &op);

	if (why) {
		*err = arena_printf(e->a, "cannot decode operand %d of SDT marker %s:%s "
				    "('%s'): %s", k, s->sdt->provider, s->sdt->name,
				    s->sdt->args, why);
		sb_release(&op.c);
		return false;
	}
	if (op.mem)
		sb_addf(c, DWE_SDT_MEM, k, op.sign, op.bits, sb_str(&op.c), k);
	else
		sb_addf(c, DWE_SDT_VALUE, k, op.sign, op.bits, sb_str(&op.c));
	sb_release(&op.c);
	return true;
}

const char *dw_sdt_arg_code(struct elab *e, const struct dw_site *s, int n,
			    const char **err)
{
	struct strbuf c = STRBUF_INIT;

	if (n < 1 || n > s->sdt->nargs || n > SDT_MAX_ARGS) {
		*err = arena_printf(e->a, "SDT marker %s:%s has %d argument%s: no $arg%d",
				    s->sdt->provider, s->sdt->name, s->sdt->nargs,
				    s->sdt->nargs == 1 ? "" : "s", n);
		return NULL;
	}
	sb_adds(&c, DWE_HEAD_SDT);
	if (!operand(e, s, n, &c, err)) {
		sb_release(&c);
		return NULL;
	}
	sb_addf(&c, DWE_SDT_RETURN, n);
	sb_adds(&c, DWE_BODY_END);
	return sb_to_arena(&c, e->a);
}

const char *dw_sdt_parms_code(struct elab *e, const struct dw_site *s, const char **err)
{
	struct strbuf c = STRBUF_INIT, fmt = STRBUF_INIT, args = STRBUF_INIT;
	int k;

	sb_adds(&c, DWE_HEAD_SDT);
	for (k = 1; k <= s->sdt->nargs && k <= SDT_MAX_ARGS; k++) {
		if (!operand(e, s, k, &c, err)) {
			sb_release(&c);
			sb_release(&fmt);
			sb_release(&args);
			return NULL;
		}
		sb_addf(&fmt, "%s$arg%d=0x%%llx", k > 1 ? " " : "", k);
		sb_addf(&args, DWE_VAR_ARG, k);
	}
	sb_addf(&c, DWE_VARS_END, sb_str(&fmt), sb_str(&args));
	sb_release(&fmt);
	sb_release(&args);
	return sb_to_arena(&c, e->a);
}

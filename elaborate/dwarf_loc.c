// SPDX-License-Identifier: GPL-2.0-or-later
/* dwarf_loc.c: DWARF location expressions (and the frame base, CFA and
 * entry values they refer to) compiled into C statements that read the
 * probed registers and memory through the runtime's fault-safe
 * accessors. The expression stack lives in C variables s0..s15 whose
 * depth is known here, so the C has no loop and no branch of its own. */
#include "elaborate/dwarf_loc.h"

#include <string.h>

#include "elaborate/dwarf_emit.h"
#include "util/arena.h"
#include "util/strbuf.h"

#define LOC_STACK 16
#define LOC_MAX_NEST 4		/* frame base -> CFA -> ... */

/* DWARF register numbers of x86-64 to struct pt_regs fields. */
static const char *const x86_64_regs[] = {
	"ax", "dx", "cx", "bx", "si", "di", "bp", "sp",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "ip",
};

const char *dw_reg_name(unsigned regno)
{
	return regno < sizeof(x86_64_regs) / sizeof(x86_64_regs[0]) ?
	       x86_64_regs[regno] : NULL;
}

struct vm {
	struct loc_ctx *lc;
	struct strbuf *c;
	int sp;			/* entries on the stack: s0..s(sp-1) */
	const char *err;
};

/* Push the value of the C expression @expr. */
static bool push_expr(struct vm *v, const char *expr)
{
	if (v->sp >= LOC_STACK) {
		v->err = "location expression too deep";
		return false;
	}
	sb_addf(v->c, "\t\ts%d = %s;\n", v->sp, expr);
	v->sp++;
	return true;
}

/* Push @reg + @x, or without @reg @fmt formatted with @x. */
static bool push(struct vm *v, const char *fmt, unsigned long long x,
		 const char *reg)
{
	if (reg)
		return push_expr(v, arena_printf(v->lc->a, DWE_LOC_BREG,
						 reg, x));
	return push_expr(v, arena_printf(v->lc->a, fmt, x));
}

static bool need(struct vm *v, int n)
{
	if (v->sp < n) {
		v->err = "malformed location expression (stack underflow)";
		return false;
	}
	return true;
}

static bool binop(struct vm *v, const char *op)
{
	if (!need(v, 2))
		return false;
	sb_addf(v->c, "\t\ts%d = s%d %s s%d;\n", v->sp - 2, v->sp - 2, op, v->sp - 1);
	v->sp--;
	return true;
}

static bool compile_ops(struct loc_ctx *lc, struct strbuf *c, int *sp,
			const Dwarf_Op *ops, size_t n, int depth,
			struct dw_loc *out);

/* Push the frame base (DW_AT_frame_base of the function) or the CFA. */
static bool push_nested(struct vm *v, const Dwarf_Op *ops, size_t n, int depth,
			const char *what)
{
	struct dw_loc l = { 0 };
	int sp = v->sp;

	if (depth >= LOC_MAX_NEST || !ops) {
		v->err = arena_printf(v->lc->a, "cannot compute the %s here", what);
		return false;
	}
	if (!compile_ops(v->lc, v->c, &sp, ops, n, depth + 1, &l)) {
		v->err = l.err;
		return false;
	}
	if (l.kind == DWL_REG) {
		push(v, "", 0, l.reg);
		return true;
	}
	v->sp = sp;
	return true;
}

static bool compile_ops(struct loc_ctx *lc, struct strbuf *c, int *spp,
			const Dwarf_Op *ops, size_t n, int depth,
			struct dw_loc *out)
{
	struct vm v = { lc, c, *spp, NULL };
	size_t i;

	out->kind = DWL_MEM;
	for (i = 0; i < n && !v.err; i++) {
		const Dwarf_Op *op = &ops[i];
		uint8_t a = op->atom;
		const char *r;

		if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
			r = dw_reg_name(a - DW_OP_reg0);
			goto reg;
		} else if (a == DW_OP_regx) {
			r = dw_reg_name((unsigned)op->number);
reg:
			if (!r) {
				v.err = "location in a register this version cannot read";
				break;
			}
			if (i + 1 < n && ops[i + 1].atom != DW_OP_piece) {
				v.err = "unsupported use of a register location";
				break;
			}
			out->kind = DWL_REG;
			out->reg = r;
			if (i + 1 < n)
				i++;	/* a single piece of a register: the register */
			if (i + 1 < n) {
				v.err = "variable split over several locations (pieces)";
				break;
			}
			*spp = v.sp;
			return true;
		} else if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
			r = dw_reg_name(a - DW_OP_breg0);
			if (!r) {
				v.err = "location based on an unreadable register";
				break;
			}
			push(&v, "", (unsigned long long)op->number, r);
		} else if (a == DW_OP_bregx) {
			r = dw_reg_name((unsigned)op->number);
			if (!r) {
				v.err = "location based on an unreadable register";
				break;
			}
			push(&v, "", (unsigned long long)op->number2, r);
		} else if (a == DW_OP_addr) {
			const char *ae = NULL;

			if (lc->m)
				ae = dw_static_addr(lc->e, lc->m, (uint64_t)op->number, &v.err);
			if (!ae) {
				v.err = v.err ? v.err :
					"static addresses cannot be relocated here";
				break;
			}
			push_expr(&v, ae);
		} else if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
			push(&v, "0x%llxULL", (unsigned long long)(a - DW_OP_lit0), NULL);
		} else if (a == DW_OP_const1u || a == DW_OP_const2u || a == DW_OP_const4u ||
			   a == DW_OP_const8u || a == DW_OP_constu || a == DW_OP_const1s ||
			   a == DW_OP_const2s || a == DW_OP_const4s || a == DW_OP_const8s ||
			   a == DW_OP_consts) {
			push(&v, "0x%llxULL", (unsigned long long)op->number, NULL);
		} else if (a == DW_OP_fbreg) {
			if (!push_nested(&v, lc->fb_ops, lc->fb_n, depth, "frame base"))
				break;
			sb_addf(c, "\t\ts%d += 0x%llxULL;\n", v.sp - 1,
				(unsigned long long)op->number);
		} else if (a == DW_OP_call_frame_cfa) {
			if (!push_nested(&v, lc->cfa_ops, lc->cfa_n, depth, "CFA"))
				break;
		} else if (a == DW_OP_plus_uconst) {
			if (need(&v, 1))
				sb_addf(c, "\t\ts%d += 0x%llxULL;\n", v.sp - 1,
					(unsigned long long)op->number);
		} else if (a == DW_OP_plus) {
			binop(&v, "+");
		} else if (a == DW_OP_minus) {
			binop(&v, "-");
		} else if (a == DW_OP_mul) {
			binop(&v, "*");
		} else if (a == DW_OP_and) {
			binop(&v, "&");
		} else if (a == DW_OP_or) {
			binop(&v, "|");
		} else if (a == DW_OP_xor) {
			binop(&v, "^");
		} else if (a == DW_OP_shl) {
			if (need(&v, 2))
				sb_addf(c, "\t\ts%d = s%d << (s%d & 63);\n", v.sp - 2,
					v.sp - 2, v.sp - 1), v.sp--;
		} else if (a == DW_OP_shr) {
			if (need(&v, 2))
				sb_addf(c, "\t\ts%d = s%d >> (s%d & 63);\n", v.sp - 2,
					v.sp - 2, v.sp - 1), v.sp--;
		} else if (a == DW_OP_shra) {
			if (need(&v, 2))
				sb_addf(c, "\t\ts%d = (u64)((s64)s%d >> (s%d & 63));\n",
					v.sp - 2, v.sp - 2, v.sp - 1), v.sp--;
		} else if (a == DW_OP_neg) {
			if (need(&v, 1))
				sb_addf(c, "\t\ts%d = -s%d;\n", v.sp - 1, v.sp - 1);
		} else if (a == DW_OP_not) {
			if (need(&v, 1))
				sb_addf(c, "\t\ts%d = ~s%d;\n", v.sp - 1, v.sp - 1);
		} else if (a == DW_OP_dup) {
			if (need(&v, 1))
				push(&v, "s%llu", (unsigned long long)(v.sp - 1), NULL);
		} else if (a == DW_OP_over) {
			if (need(&v, 2))
				push(&v, "s%llu", (unsigned long long)(v.sp - 2), NULL);
		} else if (a == DW_OP_pick) {
			if (op->number < (Dwarf_Word)v.sp)
				push(&v, "s%llu", (unsigned long long)(v.sp - 1 -
								      (int)op->number), NULL);
			else
				v.err = "malformed location expression (pick)";
		} else if (a == DW_OP_drop) {
			if (need(&v, 1))
				v.sp--;
		} else if (a == DW_OP_swap) {
			if (need(&v, 2))
				sb_addf(c, "\t\t{ u64 t = s%d; s%d = s%d; s%d = t; }\n",
					v.sp - 1, v.sp - 1, v.sp - 2, v.sp - 2);
		} else if (a == DW_OP_deref || a == DW_OP_deref_size) {
			unsigned size = a == DW_OP_deref ? 8 : (unsigned)op->number;

			if (!need(&v, 1))
				break;
			if (size != 1 && size != 2 && size != 4 && size != 8) {
				v.err = "unsupported deref size in location";
				break;
			}
			sb_addf(c, DWE_LOC_DEREF,
				size * 8, v.sp - 1, v.sp - 1);
		} else if (a == DW_OP_stack_value) {
			if (!need(&v, 1))
				break;
			out->kind = DWL_VALUE;
			out->slot = v.sp - 1;
			if (i + 1 < n)
				v.err = "variable split over several locations (pieces)";
			break;
		} else if (a == DW_OP_implicit_value) {
			uint64_t val = 0;

			if (op->number > 8 || !op->number2) {
				v.err = "implicit value too large";
				break;
			}
			memcpy(&val, (const void *)(uintptr_t)op->number2, op->number);
			push(&v, "0x%llxULL", (unsigned long long)val, NULL);
			out->kind = DWL_VALUE;
			out->slot = v.sp - 1;
			break;
		} else if (a == DW_OP_entry_value || a == DW_OP_GNU_entry_value) {
			/* The value a register had at function entry: known
			 * only when the probe is at the entry. */
			Dwarf_Attribute res;
			Dwarf_Op *sub;
			size_t nsub;

			if (!lc->at_entry) {
				v.err = "its value at function entry is not available here";
				break;
			}
			if (!lc->attr || dwarf_getlocation_attr(lc->attr, op, &res) != 0 ||
			    dwarf_getlocation(&res, &sub, &nsub) != 0 || nsub != 1 ||
			    sub[0].atom < DW_OP_reg0 || sub[0].atom > DW_OP_reg31 ||
			    !(r = dw_reg_name(sub[0].atom - DW_OP_reg0))) {
				v.err = "unsupported entry value";
				break;
			}
			push(&v, "", 0, r);
		} else if (a == DW_OP_piece) {
			v.err = "variable split over several locations (pieces)";
		} else if (a == DW_OP_nop) {
			continue;
		} else {
			v.err = arena_printf(lc->a, "unsupported DWARF operation 0x%x "
					     "in its location", a);
		}
	}
	if (v.err) {
		out->err = v.err;
		return false;
	}
	if (out->kind == DWL_MEM || out->kind == DWL_VALUE) {
		if (!v.sp) {
			out->err = "empty location expression";
			return false;
		}
		if (out->kind == DWL_MEM)
			out->slot = v.sp - 1;
	}
	*spp = v.sp;
	return true;
}

#define PIECE_SLOT 13	/* where the pieces of a value are assembled */
#define PIECES_MAX_BYTES 64	/* larger values in pieces: an error */

/* The parts of a value in pieces (DW_OP_piece after each part: registers,
 * computed values, memory), each compiled and put in place: OR-ed into
 * s13, or (@big) copied into the buffer stp_pieces. */
static bool each_piece(struct loc_ctx *lc, struct strbuf *c, const Dwarf_Op *ops,
		       size_t n, struct dw_loc *out, bool big, unsigned total)
{
	size_t i, start = 0;
	unsigned at = 0;

	for (i = 0; i < n; i++) {
		struct dw_loc part = { 0 };
		unsigned bytes;
		int sp = 0;

		if (ops[i].atom != DW_OP_piece)
			continue;
		if (i == start || ops[i].number == 0) {
			out->err = "part of it is optimized out";
			return false;
		}
		if (ops[i].number > total - at) {	/* compile_pieces checked the sum */
			out->err = "malformed location expression (pieces)";
			return false;
		}
		bytes = (unsigned)ops[i].number;
		if (!compile_ops(lc, c, &sp, ops + start, i - start, 0, &part)) {
			out->err = part.err;
			return false;
		}
		if (part.kind != DWL_MEM && bytes > 8) {
			out->err = "a piece larger than a register";
			return false;
		}
		if (big && part.kind == DWL_MEM)
			sb_addf(c, DWE_PIECE_MEM,
				at, part.slot, bytes);
		else if (big && part.kind == DWL_REG)
			sb_addf(c, DWE_PIECE_REG, part.reg, at, bytes);
		else if (big)
			sb_addf(c, "\t\t{ u64 t = s%d; memcpy((u8 *)stp_pieces + %u, &t, %u); }\n",
				part.slot, at, bytes);
		else {
			if (part.kind == DWL_REG)
				sb_addf(c, DWE_PIECE_OR_REG, PIECE_SLOT, part.reg);
			else if (part.kind == DWL_VALUE)
				sb_addf(c, "\t\ts%d |= (s%d", PIECE_SLOT, part.slot);
			else
				sb_addf(c, DWE_PIECE_OR_MEM,
					part.slot, PIECE_SLOT);
			if (bytes < 8)
				sb_addf(c, " & 0x%llxULL",
					(unsigned long long)((1ULL << (bytes * 8)) - 1));
			sb_addf(c, ") << %u;%s\n", at * 8, part.kind == DWL_MEM ? " }" : "");
		}
		at += bytes;
		start = i + 1;
	}
	if (start != n) {
		out->err = "malformed location expression (after its pieces)";
		return false;
	}
	return true;
}

/* A value in pieces: assembled in s13 when it fits in 8 bytes, else in a
 * buffer of the getter's (a copy: read-only, no address of its own). */
static bool compile_pieces(struct loc_ctx *lc, struct strbuf *c,
			   const Dwarf_Op *ops, size_t n, struct dw_loc *out)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < n; i++)	/* each piece bounded first: no wrap */
		if (ops[i].atom == DW_OP_piece &&
		    (ops[i].number > PIECES_MAX_BYTES ||
		     (total += ops[i].number) > PIECES_MAX_BYTES)) {
			out->err = "a value in pieces larger than 64 bytes";
			return false;
		}
	if (total <= 8) {
		sb_addf(c, "\t\ts%d = 0;\n", PIECE_SLOT);
		if (!each_piece(lc, c, ops, n, out, false, (unsigned)total))
			return false;
		out->kind = DWL_VALUE;
		out->slot = PIECE_SLOT;
		return true;
	}
	sb_addf(c, "\t\tu64 stp_pieces[%u] = { 0 };\n\n", (unsigned)(total + 7) / 8);
	if (!each_piece(lc, c, ops, n, out, true, (unsigned)total))
		return false;
	sb_addf(c, "\t\ts%d = (u64)(unsigned long)stp_pieces;\n", PIECE_SLOT);
	out->kind = DWL_MEM;
	out->slot = PIECE_SLOT;
	out->copy = true;
	return true;
}

bool dw_compile_location(struct loc_ctx *lc, struct strbuf *c,
			 const Dwarf_Op *ops, size_t n, struct dw_loc *out)
{
	int sp = 0;
	size_t i, pieces = 0;

	memset(out, 0, sizeof(*out));
	if (!n) {
		out->err = "optimized out";
		return false;
	}
	for (i = 0; i < n; i++)
		pieces += ops[i].atom == DW_OP_piece;
	/* one piece of a register is the register (compile_ops) */
	if (pieces > 1 || (pieces == 1 && ops[0].atom != DW_OP_piece &&
			   !(n == 2 && ((ops[0].atom >= DW_OP_reg0 &&
					 ops[0].atom <= DW_OP_reg31) ||
					ops[0].atom == DW_OP_regx))))
		return compile_pieces(lc, c, ops, n, out);
	return compile_ops(lc, c, &sp, ops, n, 0, out);
}

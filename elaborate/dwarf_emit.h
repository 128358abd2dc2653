/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dwarf_emit.h: the kernel-C templates pass 2 writes into the bodies of
 * the embedded-C functions it synthesizes ($var getters and setters,
 * @entry slots, struct printers): every fragment that names the runtime
 * (STP_DW_REGS, STP_DW_FETCH, stp_read_kernel, ...), the context (CONTEXT,
 * tp_args, ri) or the embedded-C interface (STAP_RETURN, STAP_ERROR,
 * STAP_RETVALUE, STAP_ARG_x), in one place.
 *
 * The interface a body is written against: translate/translate.c
 * (embedded_function) defines STAP_RETURN(v), STAP_ERROR(fmt, ...),
 * STAP_RETVALUE and STAP_ARG_<param> around it; runtime/linux/mem.h
 * defines STP_DW_REGS (the probed struct pt_regs *, NULL without one),
 * STP_DW_FETCH(dst, addr) and STP_DW_FETCH_N(dst, addr, n) (fault-safe
 * reads that end the handler with an error), runtime/linux/kmod.c
 * STP_KMOD_BASE(i), runtime/linux/kprobe.c stp_entry_str(); a kretprobe's
 * instance data holds the entry slots (u64 each, STP_STR_SLOTS for a
 * string). Outside elaborate/: the kretprobe emission of pass 3
 * (translate/probes.c; the kprobe family's translate/ file once families
 * have their own) wraps the entry capture code (DWE_CAPTURE_*) into
 * stp_entryN(struct pt_regs *stp_regs, u64 *slots), redefining
 * STP_DW_REGS as stp_regs, and sizes the instance data as DWE_SLOT_OFFSET
 * does.
 *
 * Each template is a printf format (or plain text when it has no
 * conversion); the comment says what its arguments are. */
#ifndef ELABORATE_DWARF_EMIT_H
#define ELABORATE_DWARF_EMIT_H

/* ---- the frame of a getter body ---- */

/* The opening of every getter body: a block declaring the expression
 * stack s0..s15 (see dwarf_loc.h); DWE_BODY_END closes it. */
#define DWE_SLOTS_DECL								\
	"\t{\n"								\
	"\t\tu64 s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;\n" \
	"\t\tu64 s8 = 0, s9 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0, s14 = 0, s15 = 0;\n\n" \
	"\t\t(void)s0; (void)s1; (void)s2; (void)s3; (void)s4; (void)s5; (void)s6;\n" \
	"\t\t(void)s7; (void)s8; (void)s9; (void)s10; (void)s11; (void)s12;\n" \
	"\t\t(void)s13; (void)s14; (void)s15;\n"
#define DWE_BODY_END "\t}\n"

/* ... after checking that the probe's context has what the body reads:
 * registers, or (tracepoints) the arguments. */
#define DWE_HEAD_REGS								\
	"\tif (!STP_DW_REGS)\n"							\
	"\t\tSTAP_ERROR(\"cannot access target variables in this context\");\n" \
	DWE_SLOTS_DECL
/* ... of a user-space probe (uprobe): the registers are the task's user
 * registers and memory reads are of its user memory (mem.h) */
#define DWE_HEAD_UREGS								\
	"\tconst bool stp_dw_user __maybe_unused = true;\n\n"					\
	"\tif (!STP_DW_REGS || !CONTEXT->user_mode)\n"				\
	"\t\tSTAP_ERROR(\"cannot access target variables in this context\");\n" \
	DWE_SLOTS_DECL
#define DWE_HEAD_TRACE								\
	"\tif (!CONTEXT->tp_args)\n"						\
	"\t\tSTAP_ERROR(\"cannot access tracepoint arguments in this context\");\n" \
	DWE_SLOTS_DECL

/* $$vars of a function the DWARF does not describe: "" */
#define DWE_EMPTY_STRING "\tSTAP_RETVALUE[0] = '\\0';\n"

/* ---- placing the object ---- */

/* s14 = register (reg field name) */
#define DWE_REG_TO_S14 "\t\ts14 = (u64)STP_DW_REGS->%s;\n"
/* sN = *(u64 *)sN (slot, slot) */
#define DWE_DEREF "\t\t{ u64 t; STP_DW_FETCH(t, s%d); s%d = t; }\n"
/* s0 = the tracepoint's argument (index) */
#define DWE_TP_ARG "\t\ts0 = CONTEXT->tp_args[%d];\n"
/* s0 = a DW_AT_const_value (value) */
#define DWE_CONST "\t\ts0 = 0x%llxULL;\n"
/* s0 = @cast's pointer */
#define DWE_CAST_POINTER "\t\ts0 = (u64)STAP_ARG_pointer;\n"
/* s0 = a static address (C expression, DWE_KERNEL_STATIC, ...) */
#define DWE_STATIC_ADDR "\t\ts0 = %s;\n"
/* an array index: a literal (value), or the getter's argument (number) */
#define DWE_INDEX_LITERAL "(u64)%lldLL"
#define DWE_INDEX_ARG "(u64)STAP_ARG_i%d"

/* ---- static addresses (dwarf_static.c) ---- */

/* a kernel module's: its anchor's run-time address (anchor index) plus
 * the distance (link-time address, anchor's link-time address) */
#define DWE_KMOD_STATIC "STP_KMOD_BASE(%zu) + (0x%llxULL - 0x%llxULL)"
/* the kernel's, moved by jiffies' distance from its link-time address
 * (address, jiffies' link-time address) */
#define DWE_KERNEL_STATIC "0x%llxULL - 0x%llxULL + (u64)(unsigned long)&jiffies"

/* ---- location expressions (dwarf_loc.c) ---- */

/* register + offset (reg field name, offset) */
#define DWE_LOC_BREG "(u64)STP_DW_REGS->%s + 0x%llxULL"
/* DW_OP_deref_size: sN = *(uBITS *)sN (bits, slot, slot) */
#define DWE_LOC_DEREF "\t\t{ u%u t; STP_DW_FETCH(t, s%d); s%d = t; }\n"
/* pieces copied into the buffer stp_pieces: from memory (offset, slot,
 * bytes), from a register (reg, offset, bytes) */
#define DWE_PIECE_MEM "\t\tSTP_DW_FETCH_N((u8 *)stp_pieces + %u, s%d, %u);\n"
#define DWE_PIECE_REG "\t\t{ u64 t = (u64)STP_DW_REGS->%s; " \
		      "memcpy((u8 *)stp_pieces + %u, &t, %u); }\n"
/* pieces or'ed into one slot: the opening of a register's (slot, reg)
 * and of memory's (slot, slot) */
#define DWE_PIECE_OR_REG "\t\ts%d |= ((u64)STP_DW_REGS->%s"
#define DWE_PIECE_OR_MEM "\t\t{ u64 t = 0; STP_DW_FETCH(t, s%d); s%d |= (t"

/* ---- the value ---- */

/* return sN (slot): an address, or an array's */
#define DWE_RETURN_SLOT "\t\tSTAP_RETURN((s64)s%d);\n"
/* return s15, the fetched value */
#define DWE_RETURN_S15 "\t\tSTAP_RETURN((s64)s15);\n"
/* s15 = the value, sign-extended to 64 bits: in memory ('s'/'u', bits,
 * slot), in a register ('s'/'u', bits, reg), computed ('s'/'u', bits,
 * slot) */
#define DWE_FETCH_MEM "\t\t{ %c%lld t; STP_DW_FETCH(t, s%d); s15 = (u64)(s64)t; }\n"
#define DWE_FETCH_REG "\t\ts15 = (u64)(s64)(%c%lld)STP_DW_REGS->%s;\n"
#define DWE_FETCH_VALUE "\t\ts15 = (u64)(s64)(%c%lld)s%d;\n"
/* a bit-field's storage into s15: from memory (slot), a value (slot) */
#define DWE_BITS_MEM "\t\tSTP_DW_FETCH(s15, s%d);\n"
#define DWE_BITS_VALUE "\t\ts15 = s%d;\n"

/* ---- writes ($var = value, guru mode) ---- */

/* to memory ('s'/'u', bits, 's'/'u', bits, slot, slot) */
#define DWE_WRITE_MEM								\
	"\t\t{ %c%lld t = (%c%lld)STAP_ARG_value;\n"				\
	"\t\t  if (copy_to_kernel_nofault((void *)(unsigned long)s%d, &t, sizeof(t)))\n" \
	"\t\t\tSTAP_ERROR(\"kernel write fault at 0x%%llx\", (unsigned long long)s%d); }\n"
/* to a register (reg field name) */
#define DWE_WRITE_REG "\t\tSTP_DW_REGS->%s = (unsigned long)STAP_ARG_value;\n"
/* a setter returns the value it wrote */
#define DWE_RETURN_ARG "\t\tSTAP_RETURN(STAP_ARG_value);\n"

/* ---- $$vars without a suffix: "a=0x1 b=0x2" by one snprintf ---- */

/* value k read as 64 bits into vK: its declaration and block (k), the
 * read from memory (k, slot), a register (k, reg), a value (k, slot) */
#define DWE_VAR_OPEN "\t\tu64 v%d;\n\t\t{\n"
#define DWE_VAR_MEM "\t\tSTP_DW_FETCH(v%d, s%d);\n"
/* ... of a smaller type (bits, slot, k) */
#define DWE_VAR_MEM_N "\t\t{ u%d t; STP_DW_FETCH(t, s%d); v%d = t; }\n"
#define DWE_VAR_REG "\t\tv%d = (u64)STP_DW_REGS->%s;\n"
#define DWE_VAR_VALUE "\t\tv%d = s%d;\n"
#define DWE_VAR_CLOSE "\t\t}\n"
/* the snprintf argument of value k (k), of $$return */
#define DWE_VAR_ARG ", (unsigned long long)v%d"
#define DWE_RETURN_ARG_REGS ", (unsigned long long)regs_return_value(STP_DW_REGS)"
/* the end of the body (format, arguments); the format starts with a "%s"
 * of "", as it may be empty ($$parms of a function without parameters),
 * which -Wformat-zero-length refuses */
#define DWE_VARS_END							\
	"\t\tsnprintf(STAP_RETVALUE, MAXSTRINGLEN, \"%%s%s\", \"\"%s);\n"	\
	"\t\tSTAP_RETURN(STAP_RETVALUE);\n\t}\n"

/* ---- printing ($var$, $$vars$): STP_PP appends to STAP_RETVALUE ---- */

#define PP_DEFINE \
	"#define STP_PP(...) do { if (n < MAXSTRINGLEN - 1) n += scnprintf(b + n, MAXSTRINGLEN - n, __VA_ARGS__); } while (0)\n"
/* (n is unused when there is nothing to print: $$parms$ of a function
 * without parameters) */
#define PP_HEAD "\t\tsize_t n = 0;\n\t\tchar *b = STAP_RETVALUE;\n\n\t\t(void)n;\n\t\tb[0] = '\\0';\n" PP_DEFINE
#define PP_TAIL "#undef STP_PP\n"
/* the end of a printing body */
#define PP_END PP_TAIL "\t\tSTAP_RETURN(STAP_RETVALUE);\n\t}\n"
/* a value kept in the getter's own memory to be read like one (slot) */
#define PP_CELL "\t\tu64 cell = s%d;\n"
#define PP_CELL_ADDR "\t\tu64 a0 = (u64)(unsigned long)&cell;\n"
/* the object's address (slot) */
#define PP_ADDR "\t\tu64 a0 = s%d;\n"
/* a pointer at aN (N): unreadable, NULL, a string (kernel memory, then
 * user), or other pointers in hex */
#define PP_PTR_READ "\t\t{ u64 p; if (stp_read_kernel(&p, a%d, 8)) STP_PP(\"?\");\n"
#define PP_PTR_STRING							\
	"\t\t  else if (!p) STP_PP(\"NULL\"); else { char *q = stp_scratch();\n"	\
	"\t\t    if (stp_kernel_strn(q, p, MAXSTRINGLEN) && stp_user_strn(q, p, MAXSTRINGLEN))\n" \
	"\t\t\tSTP_PP(\"0x%%llx\", (unsigned long long)p);\n"			\
	"\t\t    else STP_PP(\"\\\"%%s\\\"\", q); } }\n"
#define PP_PTR_HEX "\t\t  else STP_PP(\"0x%llx\", (unsigned long long)p); }\n"
/* what is not printed at aN (N): "?", "[...]", "{...}" */
#define PP_UNKNOWN "\t\t(void)a%d; STP_PP(\"?\");\n"
#define PP_ELLIPSIS_ARRAY "\t\t(void)a%d; STP_PP(\"[...]\");\n"
#define PP_ELLIPSIS_STRUCT "\t\t(void)a%d; STP_PP(\"{...}\");\n"
/* a number at aN ('s'/'u', bits, N), then as a char or in decimal
 * ("%lld" or "%llu", "long long" or "unsigned long long") */
#define PP_NUM_READ "\t\t{ %c%lld v; if (stp_read_kernel(&v, a%d, sizeof(v))) STP_PP(\"?\");\n"
#define PP_NUM_CHAR							\
	"\t\t  else if (v >= 32 && v < 127) STP_PP(\"'%c'\", (char)v);\n"	\
	"\t\t  else STP_PP(\"'\\\\x%02x'\", (unsigned)(u8)v); }\n"
#define PP_NUM_DEC "\t\t  else STP_PP(\"%s\", (%s)v); }\n"
/* a char array at aN (N) */
#define PP_CHARS							\
	"\t\t{ char *q = stp_scratch(); if (stp_kernel_strn(q, a%d, MAXSTRINGLEN))\n" \
	"\t\t\tSTP_PP(\"?\"); else STP_PP(\"\\\"%%s\\\"\", q); }\n"
/* fixed text (no conversion: given as the format) */
#define PP_TEXT(s) "\t\tSTP_PP(\"" s "\");\n"
/* text with a conversion: a member's or variable's "NAME=" (prefix, dot,
 * name) */
#define PP_NAME "\t\tSTP_PP(\"%s%s%s=\");\n"
/* a struct or union printed by its shared printer (printer, N, depth) */
#define PP_CALL "\t\tn = %s(b, n, a%d, %s);\n"
/* a shared printer: comment (kind, name, " ($$)"), header (name), the
 * depth limit (limit, " || depth > 0" for $) */
#define PP_FUNC_OPEN							\
	"/* %s %s%s */\n"						\
	"static __maybe_unused size_t %s(char *b, size_t n, u64 a0, int depth)\n{\n" \
	PP_DEFINE							\
	"\tif (depth >= %d%s) {\n\t\tSTP_PP(\"{...}\");\n\t\treturn n;\n\t}\n" \
	"\tSTP_PP(\"{\");\n"
#define PP_FUNC_CLOSE "\tSTP_PP(\"}\");\n" PP_TAIL "\treturn n;\n}\n\n"
/* a member's address a1 (offset) */
#define PP_MEMBER_OPEN "\t\t{ u64 a1 = a0 + %llu;\n"
#define PP_MEMBER_CLOSE "\t\t}\n"
/* a bit-field member (offset, left shift, right shift) */
#define PP_BITFIELD							\
	"\t\t{ u64 v; if (stp_read_kernel(&v, a0 + %llu, 8)) STP_PP(\"?\");\n"	\
	"\t\t  else STP_PP(\"%%llu\", (unsigned long long)((v << %d) >> %d)); }\n"

/* ---- entry values of .return probes (kretprobe instance data) ---- */

/* the offset of a slot in u64 units, past the strings (slots, strings) */
#define DWE_SLOT_OFFSET "(%u + %u * STP_STR_SLOTS)"
/* a getter reading slot (cast: "(const char *)" or "(s64)*", offset) */
#define DWE_ENTRY_GET							\
	"\tif (!CONTEXT->entry_data)\n\t\tSTAP_ERROR(\"no entry values in this context\");\n" \
	"\tSTAP_RETURN(%s(CONTEXT->entry_data + %s));\n"
/* a setter, run at entry, storing its argument (offset) */
#define DWE_ENTRY_SET_STR						\
	"\tif (CONTEXT->entry_data)\n\t\tstp_entry_str("			\
	"(char *)(CONTEXT->entry_data + %s), STAP_ARG_value);\n"
#define DWE_ENTRY_SET_LONG						\
	"\tif (CONTEXT->entry_data)\n\t\tCONTEXT->entry_data[%s]"		\
	" = (u64)STAP_ARG_value;\n"
/* The capture of a getter body at entry, into the slots of the entry
 * handler (translate/probes.c's stp_entryN): the body's STAP_RETURN and
 * STAP_ERROR redefined to store into slot (offset) and jump to its label
 * (label number): a string's (offset, label, label), a number's (offset,
 * label, offset, label); then the body, the label and the undefinitions
 * (body, label, DWE_CAPTURE_END_STR or ""). */
#define DWE_CAPTURE_STR							\
	"#define STAP_RETVALUE ((char *)(slots + %s))\n"			\
	"#define STAP_RETURN(v) do { stp_entry_str(STAP_RETVALUE, (v)); goto entry%u; } while (0)\n" \
	"#define STAP_ERROR(...) do { STAP_RETVALUE[0] = '\\0'; goto entry%u; } while (0)\n"
#define DWE_CAPTURE_LONG						\
	"#define STAP_RETURN(v) do { slots[%s] = (u64)(v); goto entry%u; } while (0)\n" \
	"#define STAP_ERROR(...) do { slots[%s] = 0; goto entry%u; } while (0)\n"
#define DWE_CAPTURE_END							\
	"%sentry%u: __attribute__((unused));\n#undef STAP_RETURN\n#undef STAP_ERROR\n%s"
#define DWE_CAPTURE_END_STR "#undef STAP_RETVALUE\n"
/* the opening of a uretprobe's capture: its reads are of user memory */
#define DWE_CAPTURE_USER "\tconst bool stp_dw_user __maybe_unused = true;\n\n"

/* ---- the frame address of a uretprobe's entry (dw_cfa_code) ---- */

/* the body of `u64 stp_cfaN(struct pt_regs *stp_regs)` (pass 3 redefines
 * STP_DW_REGS as stp_regs around it): user memory, the expression stack,
 * the CFA's computation, then the return of its slot (slot) */
#define DWE_USER_SLOTS_DECL "\tconst bool stp_dw_user __maybe_unused = true;\n\n" DWE_SLOTS_DECL
#define DWE_CFA_RETURN "\t\treturn s%d;\n\t}\n"

/* ---- SDT marker arguments (dwarf_sdt.c) ---- */

/* The opening of a getter of a marker's arguments: the task's user
 * registers and user memory, in a block DWE_BODY_END closes */
#define DWE_HEAD_SDT								\
	"\tconst bool stp_dw_user __maybe_unused = true;\n\n"			\
	"\tif (!STP_DW_REGS || !CONTEXT->user_mode)\n"				\
	"\t\tSTAP_ERROR(\"cannot access SDT marker arguments in this context\");\n" \
	"\t{\n"
/* a register's bits (bits, reg field name, right shift) */
#define DWE_SDT_REG "(u64)(u%d)((u64)STP_DW_REGS->%s >> %d)"
/* a link-time address of the file at run time: moved by the distance of
 * the probe's run-time address from its link-time one (address, the
 * marker's link-time address) */
#define DWE_SDT_STATIC "(0x%llxULL + ((u64)CONTEXT->probe_addr - 0x%llxULL))"
/* an immediate (value) */
#define DWE_SDT_IMM "(u64)0x%llxULL"
/* operand k into vK, sized and signed: a value ('s'/'u', bits, expr) or
 * the memory at an address ('s'/'u', bits, address) */
#define DWE_SDT_VALUE "\t\tu64 v%d = (u64)(s64)(%c%d)(%s);\n"
#define DWE_SDT_MEM "\t\tu64 v%d;\n\t\t{ %c%d t; STP_DW_FETCH(t, %s); v%d = (u64)(s64)t; }\n"
/* return operand k (k) */
#define DWE_SDT_RETURN "\t\tSTAP_RETURN((s64)v%d);\n"

#endif

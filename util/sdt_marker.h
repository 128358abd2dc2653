/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sdt_marker.h: static user-space markers in stap and staprun themselves
 * (the stap.* and staprun.* probe aliases stand on them).
 *
 * SDT_MARK(PROVIDER, NAME, ARG...) (up to three operands) puts a nop at the
 * point of use and describes it with an ELF note in section .note.stapsdt,
 * the layout elaborate/dwarf_sdt.c reads (doc/sdt.md):
 *
 *	namesz, descsz, type 3, "stapsdt\0" (padded to 4)
 *	desc: the nop's address, the link-time address of .stapsdt.base,
 *	      the semaphore's address (0: none, these markers are always on),
 *	      then "PROVIDER\0NAME\0OPERANDS\0" (padded to 4)
 *
 * OPERANDS are "SIZE@OPERAND" separated by blanks: each value is passed
 * to the asm as a signed 64-bit operand ("-8@"), in a register, in memory
 * or as an immediate, whatever the compiler has it in (the "nor"
 * constraint), printed in AT&T syntax as the assembler would read it.
 * .stapsdt.base is one byte in a COMDAT group, so a program has one
 * however many objects use markers; a prelinked program's notes are then
 * moved by its distance from the note's address.
 *
 * x86-64 only (8-byte addresses); elsewhere the markers are nothing. */
#ifndef UTIL_SDT_MARKER_H
#define UTIL_SDT_MARKER_H

#if defined(__x86_64__) && !defined(STAP_NO_MARKERS)

#define SDT_MARK_STR_(x) #x
#define SDT_MARK_STR(x) SDT_MARK_STR_(x)

/* The note for the nop at local label 990; @args: the operand text. */
#define SDT_MARK_NOTE(provider, name, args)				\
	"990:	nop\n"							\
	"	.pushsection .note.stapsdt,\"\",@note\n"		\
	"	.balign 4\n"						\
	"	.4byte 992f-991f, 994f-993f, 3\n"			\
	"991:	.asciz \"stapsdt\"\n"					\
	"992:	.balign 4\n"						\
	"993:	.8byte 990b\n"						\
	"	.8byte _.stapsdt.base\n"				\
	"	.8byte 0\n"						\
	"	.asciz \"" SDT_MARK_STR(provider) "\"\n"		\
	"	.asciz \"" SDT_MARK_STR(name) "\"\n"			\
	"	.asciz \"" args "\"\n"					\
	"994:	.balign 4\n"						\
	"	.popsection\n"						\
	"	.ifndef _.stapsdt.base\n"				\
	"	.pushsection .stapsdt.base,\"aG\",@progbits,.stapsdt.base,comdat\n" \
	"	.weak _.stapsdt.base\n"					\
	"	.hidden _.stapsdt.base\n"				\
	"_.stapsdt.base:	.space 1\n"				\
	"	.size _.stapsdt.base, 1\n"				\
	"	.popsection\n"						\
	"	.endif\n"

#define SDT_MARK0(provider, name)					\
	__asm__ __volatile__(SDT_MARK_NOTE(provider, name, ""))
#define SDT_MARK1(provider, name, a1)					\
	__asm__ __volatile__(SDT_MARK_NOTE(provider, name, "-8@%0")	\
			     : : "nor"((long)(a1)))
#define SDT_MARK2(provider, name, a1, a2)				\
	__asm__ __volatile__(SDT_MARK_NOTE(provider, name, "-8@%0 -8@%1") \
			     : : "nor"((long)(a1)), "nor"((long)(a2)))
#define SDT_MARK3(provider, name, a1, a2, a3)				\
	__asm__ __volatile__(SDT_MARK_NOTE(provider, name,		\
					   "-8@%0 -8@%1 -8@%2")		\
			     : : "nor"((long)(a1)), "nor"((long)(a2)),	\
			       "nor"((long)(a3)))

#else

#define SDT_MARK0(provider, name) do { } while (0)
#define SDT_MARK1(provider, name, a1) do { (void)(a1); } while (0)
#define SDT_MARK2(provider, name, a1, a2) do { (void)(a1); (void)(a2); } while (0)
#define SDT_MARK3(provider, name, a1, a2, a3)				\
	do { (void)(a1); (void)(a2); (void)(a3); } while (0)

#endif
#endif

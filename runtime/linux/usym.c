// SPDX-License-Identifier: GPL-2.0-or-later
/* usym.c: user-space symbols and backtraces (tapset/usym.stp) from the
 * tables the translator writes into the module (translate/usyms.c): for
 * each program or library, its segments, symbols sorted by address, line
 * rows and call-frame rows. Included into the generated translation unit,
 * which defines the tables, when the script calls one of the functions.
 *
 * Which object an address of the current task belongs to, and where that
 * object is loaded, comes from the task's VMAs: the file mapped there is
 * compared by inode with each object's (found by path when the session
 * starts). Walking the VMAs needs the mmap lock: it is only tried
 * (mmap_read_trylock, never waited for), in any context but NMI. Taken
 * with interrupts disabled (kprobes, timer.profile, the scheduler's
 * probes), it is released from an irq_work once they are enabled again,
 * as the kernel's BPF stack maps do, since releasing it may wake a waiter.
 * In NMI context, while this CPU's release is pending, or when the lock
 * is contended, the last load address seen for the object in the same mm
 * is used instead, and an object never seen there is unknown. User memory is only read with
 * copy_from_user_nofault. Nothing is allocated. */
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/namei.h>
#include <linux/uaccess.h>
#include <linux/sched/task_stack.h>

struct stp_useg { u64 off, vaddr, memsz; };
struct stp_usym { u64 addr, size; u32 name; };
/* From link-time address base + addr on: CFA = REG + cfa_off, the return
 * address at CFA + ra_off, the caller's %rbp at CFA + bp_off (0: the same
 * register; 1: lost). REG a DWARF register number; -1 unknown, -2 the
 * outermost frame. */
struct stp_ucfi { u32 addr; s32 cfa_off; s16 ra_off, bp_off; s8 cfa_reg; };

struct stp_uobj {
	const char *path;		/* as the target names it */
	const char *buildid;		/* hex, or "" */
	bool dyn;			/* ET_DYN */
	u64 base;			/* lowest PT_LOAD address, page-aligned */
	u64 size;			/* to the end of the last page of the
					 * highest PT_LOAD */
	const struct stp_useg *segs;
	unsigned int nsegs;
	const char *strs;
	const struct stp_usym *syms;
	unsigned int nsyms;
	const char *lines;		/* rows of 3 little-endian u32: address
					 * less base, file (in strs), line */
	unsigned int nlines;
	const struct stp_ucfi *cfi;
	unsigned int ncfi;
};

#define STP_UOBJ_MAX 64
#ifndef STP_UBACKTRACE_MAX
#define STP_UBACKTRACE_MAX 64		/* frames of one user backtrace */
#endif

static struct {
	const struct stp_uobj *objs;
	unsigned int n;
	struct path path[STP_UOBJ_MAX];
	struct inode *inode[STP_UOBJ_MAX];	/* NULL: not found */
	/* the last load seen under the lock: mm and bias (see above) */
	struct mm_struct *mm[STP_UOBJ_MAX];
	u64 bias[STP_UOBJ_MAX];
	/* the first backtrace stopped by an address in no known object:
	 * the file mapped there, reported at the end of the session */
	atomic_t missing;
	char missing_name[64];
} stp_usym;

/* An address located: its object, link-time address and the bias
 * (mapped = link + bias). */
struct stp_uloc {
	const struct stp_uobj *o;
	u64 link, bias;
};

/* The state of one look-up session (a backtrace holds the lock once). */
struct stp_ulook {
	struct mm_struct *mm;
	bool locked;
};

/* The mmap lock taken with interrupts disabled is released from an
 * irq_work once they are enabled again (releasing it may wake a waiter,
 * which must not happen under the scheduler's locks), one per CPU; while
 * it is pending the CPU takes no other. */
struct stp_uunlock {
	struct irq_work work;
	struct mm_struct *mm;
};
static DEFINE_PER_CPU(struct stp_uunlock, stp_uunlock);

static void stp_uunlock_fn(struct irq_work *w)
{
	struct stp_uunlock *u = container_of(w, struct stp_uunlock, work);

	mmap_read_unlock_non_owner(u->mm);
}

static int stp_usym_start(const void *table, unsigned int n)
{
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu)
		init_irq_work(&per_cpu_ptr(&stp_uunlock, cpu)->work, stp_uunlock_fn);

	stp_usym.objs = table;
	stp_usym.n = min_t(unsigned int, n, STP_UOBJ_MAX);
	for (i = 0; i < stp_usym.n; i++) {
		if (!stp_usym.objs[i].path ||
		    kern_path(stp_usym.objs[i].path, LOOKUP_FOLLOW, &stp_usym.path[i]))
			continue;	/* not on this machine: never matches */
		stp_usym.inode[i] = d_backing_inode(stp_usym.path[i].dentry);
	}
	return 0;
}

static void stp_usym_stop(void)
{
}

static void stp_usym_report(void)
{
	if (atomic_read(&stp_usym.missing))
		stp_warn("Missing unwind data for a module, rerun with 'stap -d %s'",
			 stp_usym.missing_name[0] ? stp_usym.missing_name : "(unknown)");
}

static void stp_usym_release(void)
{
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(&stp_uunlock, cpu)->work);

	for (i = 0; i < stp_usym.n; i++)
		if (stp_usym.inode[i]) {
			path_put(&stp_usym.path[i]);
			stp_usym.inode[i] = NULL;
		}
}

static const struct stp_family stp_usym_family = {
	.name = "usym",
	.start = stp_usym_start,
	.stop = stp_usym_stop,
	.report = stp_usym_report,
	.release = stp_usym_release,
};

static void stp_ulook_begin(struct stp_ulook *l)
{
	struct mm_struct *mm = current->mm;

	l->mm = NULL;
	l->locked = false;
	if (!mm || (current->flags & PF_KTHREAD))
		return;
	l->mm = mm;
	if (in_nmi() || irq_work_is_busy(&this_cpu_ptr(&stp_uunlock)->work))
		return;
	if (mmap_read_trylock(mm))
		l->locked = true;
}

static void stp_ulook_end(struct stp_ulook *l)
{
	struct stp_uunlock *u;

	if (!l->locked)
		return;
	l->locked = false;
	if (!irqs_disabled()) {
		mmap_read_unlock(l->mm);
		return;
	}
	u = this_cpu_ptr(&stp_uunlock);
	u->mm = l->mm;
	rwsem_release(&l->mm->mmap_lock.dep_map, _RET_IP_);
	irq_work_queue(&u->work);
}

/* The link-time address of file offset @fo of object @o, or false. */
static bool stp_useg_link(const struct stp_uobj *o, u64 fo, u64 *link)
{
	unsigned int i;

	for (i = 0; i < o->nsegs; i++) {
		const struct stp_useg *s = &o->segs[i];

		if (fo >= (s->off & PAGE_MASK) && fo < s->off + s->memsz) {
			*link = fo - s->off + s->vaddr;
			return true;
		}
	}
	return false;
}

/* Is link-time address @link inside a segment of @o? */
static bool stp_useg_has(const struct stp_uobj *o, u64 link)
{
	unsigned int i;

	for (i = 0; i < o->nsegs; i++)
		if (link >= (o->segs[i].vaddr & PAGE_MASK) &&
		    link < o->segs[i].vaddr + o->segs[i].memsz)
			return true;
	return false;
}

static int stp_uobj_of_vma(struct vm_area_struct *vma)
{
	struct inode *ino;
	unsigned int i;

	if (!vma->vm_file)
		return -1;
	ino = file_inode(vma->vm_file);
	for (i = 0; i < stp_usym.n; i++)
		if (stp_usym.inode[i] == ino)
			return (int)i;
	return -1;
}

/* Locate @addr of the current task; false when no object holds it. */
static bool stp_ulocate(struct stp_ulook *l, unsigned long addr, struct stp_uloc *out)
{
	struct vm_area_struct *vma, *map;
	unsigned int i;
	u64 link;
	int k;

	if (!l->mm || !stp_usym.n)
		return false;
	if (!l->locked) {
		for (i = 0; i < stp_usym.n; i++) {
			u64 bias = READ_ONCE(stp_usym.bias[i]);

			if (READ_ONCE(stp_usym.mm[i]) != l->mm ||
			    !stp_useg_has(&stp_usym.objs[i], addr - bias))
				continue;
			out->o = &stp_usym.objs[i];
			out->bias = bias;
			out->link = addr - bias;
			return true;
		}
		return false;
	}
	vma = find_vma(l->mm, addr);
	if (!vma || vma->vm_start > addr)
		return false;
	map = vma;
	k = stp_uobj_of_vma(vma);
	if (k < 0 && vma->vm_start > PAGE_SIZE) {
		/* the object's .bss past its last file page: an anonymous
		 * mapping right after a mapping of the file */
		map = find_vma(l->mm, vma->vm_start - 1);
		if (!map || map->vm_end != vma->vm_start)
			return false;
		k = stp_uobj_of_vma(map);
	}
	if (k < 0)
		return false;
	if (!stp_useg_link(&stp_usym.objs[k], (u64)(map->vm_pgoff << PAGE_SHIFT), &link))
		return false;
	out->o = &stp_usym.objs[k];
	out->bias = map->vm_start - link;
	out->link = addr - out->bias;
	if (!stp_useg_has(out->o, out->link))
		return false;
	WRITE_ONCE(stp_usym.mm[k], l->mm);
	WRITE_ONCE(stp_usym.bias[k], out->bias);
	return true;
}

/* The symbol holding @link in @o (its size: to the next symbol, the last
 * one's own), or NULL. */
static const struct stp_usym *stp_usym_find(const struct stp_uobj *o, u64 link, u64 *size)
{
	unsigned int lo = 0, hi = o->nsyms;
	const struct stp_usym *s;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (o->syms[mid].addr <= link)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &o->syms[lo - 1];
	*size = lo < o->nsyms ? o->syms[lo].addr - s->addr : s->size;
	if (link - s->addr >= *size && !(lo < o->nsyms && !s->size))
		return NULL;
	return s;
}

/* Field @f of row @i of @o's line table. */
static u32 stp_uline_at(const struct stp_uobj *o, unsigned int i, unsigned int f)
{
	__le32 v;

	memcpy(&v, o->lines + 12 * (size_t)i + 4 * f, sizeof(v));
	return le32_to_cpu(v);
}

/* The source line of @link in @o: its file in *@file; 0 when unknown. */
static unsigned int stp_uline_find(const struct stp_uobj *o, u64 link, const char **file)
{
	unsigned int lo = 0, hi = o->nlines;
	u64 rel;

	if (link < o->base || link - o->base > U32_MAX)
		return 0;
	rel = link - o->base;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (stp_uline_at(o, mid, 0) <= rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || !stp_uline_at(o, lo - 1, 2))
		return 0;
	*file = o->strs + stp_uline_at(o, lo - 1, 1);
	return stp_uline_at(o, lo - 1, 2);
}

static const char *stp_ubasename(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* How stp_usym_text writes an address. */
enum stp_ufmt {
	STP_UF_NAME,		/* "name" */
	STP_UF_DATA,		/* "name+0xoff/0xsize [path]" */
	STP_UF_SHORT,		/* "name+0xoff [base]" (sprint_ubacktrace) */
	STP_UF_BRIEF,		/* "name+0xoff" */
	STP_UF_FILE,		/* "file" */
	STP_UF_LINE,		/* "line" */
	STP_UF_FILELINE,	/* "file:line" */
	STP_UF_MOD,		/* "path" */
};

/* @addr as @fmt into @dst (@n bytes); "" when it is unknown. */
static void stp_usym_text(struct stp_ulook *l, char *dst, size_t n, unsigned long addr,
			  enum stp_ufmt fmt)
{
	struct stp_uloc loc;
	const struct stp_usym *s = NULL;
	const char *file = NULL;
	unsigned int line = 0;
	u64 size = 0;

	dst[0] = '\0';
	if (!stp_ulocate(l, addr, &loc))
		return;
	if (fmt == STP_UF_MOD) {
		snprintf(dst, n, "%s", loc.o->path);
		return;
	}
	if (fmt >= STP_UF_FILE && fmt <= STP_UF_FILELINE) {
		line = stp_uline_find(loc.o, loc.link, &file);
		if (!line)
			return;
		if (fmt == STP_UF_FILE)
			snprintf(dst, n, "%s", file);
		else if (fmt == STP_UF_LINE)
			snprintf(dst, n, "%u", line);
		else
			snprintf(dst, n, "%s:%u", file, line);
		return;
	}
	s = stp_usym_find(loc.o, loc.link, &size);
	if (!s) {		/* the object, and the offset in it */
		if (fmt == STP_UF_DATA)
			snprintf(dst, n, "0x%lx [%s+0x%llx/0x%llx]", addr, loc.o->path,
				 (unsigned long long)(loc.link - loc.o->base),
				 (unsigned long long)loc.o->size);
		return;
	}
	switch (fmt) {
	case STP_UF_NAME:
		snprintf(dst, n, "%s", loc.o->strs + s->name);
		break;
	case STP_UF_DATA:
		snprintf(dst, n, "%s+0x%llx/0x%llx [%s]", loc.o->strs + s->name,
			 (unsigned long long)(loc.link - s->addr), (unsigned long long)size,
			 loc.o->path);
		break;
	case STP_UF_SHORT:
		snprintf(dst, n, "%s+0x%llx [%s]", loc.o->strs + s->name,
			 (unsigned long long)(loc.link - s->addr), stp_ubasename(loc.o->path));
		break;
	default:
		snprintf(dst, n, "%s+0x%llx", loc.o->strs + s->name,
			 (unsigned long long)(loc.link - s->addr));
		break;
	}
}

/* One address, looked up in its own session. */
static void stp_usym_one(char *dst, size_t n, unsigned long addr, enum stp_ufmt fmt)
{
	struct stp_ulook l;

	stp_ulook_begin(&l);
	stp_usym_text(&l, dst, n, addr, fmt);
	stp_ulook_end(&l);
	if (!dst[0] && fmt != STP_UF_MOD)
		snprintf(dst, n, "0x%lx", addr);
}

/* ---- backtraces ---- */

/* The user registers of the probe hit: the probed ones in a user-space
 * probe, else those the current task entered the kernel with; NULL
 * without any (a kernel thread). */
static struct pt_regs *stp_uregs(struct stp_context *c)
{
	if (c->regs && (c->user_mode || user_mode(c->regs)))
		return c->regs;
	if (!current->mm || (current->flags & PF_KTHREAD))
		return NULL;
	return task_pt_regs(current);
}

/* DWARF register @r of x86-64 in @regs (the first frame only). */
static bool stp_udwreg(struct pt_regs *regs, int r, unsigned long *v)
{
#ifdef CONFIG_X86_64
	switch (r) {
	case 0: *v = regs->ax; return true;
	case 1: *v = regs->dx; return true;
	case 2: *v = regs->cx; return true;
	case 3: *v = regs->bx; return true;
	case 4: *v = regs->si; return true;
	case 5: *v = regs->di; return true;
	case 6: *v = regs->bp; return true;
	case 7: *v = regs->sp; return true;
	case 8: *v = regs->r8; return true;
	case 9: *v = regs->r9; return true;
	case 10: *v = regs->r10; return true;
	case 11: *v = regs->r11; return true;
	case 12: *v = regs->r12; return true;
	case 13: *v = regs->r13; return true;
	case 14: *v = regs->r14; return true;
	case 15: *v = regs->r15; return true;
	}
#endif
	return false;
}

static const struct stp_ucfi *stp_ucfi_find(const struct stp_uobj *o, u64 link)
{
	unsigned int lo = 0, hi = o->ncfi;
	u64 rel;

	if (link < o->base || link - o->base > U32_MAX)
		return NULL;
	rel = link - o->base;
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (o->cfi[mid].addr <= rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &o->cfi[lo - 1] : NULL;
}

/* A backtrace stopped at @pc, in no known object: remember the first. */
static void stp_umissing(struct stp_ulook *l, unsigned long pc)
{
	struct vm_area_struct *vma;

	if (atomic_cmpxchg(&stp_usym.missing, 0, 1))
		return;
	if (!l->locked)
		return;
	vma = find_vma(l->mm, pc);
	if (vma && vma->vm_start <= pc && vma->vm_file) {
		rcu_read_lock();	/* the name, against a rename */
		strscpy(stp_usym.missing_name,
			READ_ONCE(vma->vm_file->f_path.dentry->d_name.name),
			sizeof(stp_usym.missing_name));
		rcu_read_unlock();
	}
}

static bool stp_uread(unsigned long addr, unsigned long *v)
{
	return !copy_from_user_nofault(v, (const void __user *)addr, sizeof(*v));
}

/* Unwind the user stack from @regs (or from @pc, @sp, @fp when @regs is
 * NULL) into @pcs[@max] with the objects' call-frame rows: the frames
 * while each one's address lies in a known object with a row, each step
 * moves up the stack, and the reads succeed. Returns the count. */
static unsigned int stp_uunwind(struct stp_ulook *l, struct pt_regs *regs, unsigned long pc,
				unsigned long sp, unsigned long fp, unsigned long *pcs,
				unsigned int max)
{
	unsigned int n = 0;
	bool fp_ok = true;

	if (regs) {
		pc = instruction_pointer(regs);
		sp = user_stack_pointer(regs);
#ifdef CONFIG_X86_64
		fp = regs->bp;
#else
		fp = 0;
		fp_ok = false;
#endif
	}
	if (!pc)
		return 0;
#ifdef CONFIG_X86_64
	/* the rows are x86-64's: a 32-bit task gets its first frame only */
	if (!user_64bit_mode(regs ? regs : task_pt_regs(current)))
		max = min(max, 1u);
#endif
	while (n < max) {
		struct stp_uloc loc;
		const struct stp_ucfi *r;
		unsigned long cfa, base, ra;

		pcs[n++] = pc;
		if (!stp_ulocate(l, n == 1 ? pc : pc - 1, &loc)) {
			stp_umissing(l, pc);
			break;
		}
		r = stp_ucfi_find(loc.o, loc.link);
		if (!r || r->cfa_reg < 0)
			break;
		if (r->cfa_reg == 7)
			base = sp;
		else if (r->cfa_reg == 6 && fp_ok)
			base = fp;
		else if (n == 1 && regs && stp_udwreg(regs, r->cfa_reg, &base))
			;
		else
			break;
		cfa = base + (long)r->cfa_off;
		if (!stp_uread(cfa + (long)r->ra_off, &ra) || !ra ||
		    !access_ok((const void __user *)ra, 1))
			break;		/* no return address in user space */
		if (r->bp_off == 1)
			fp_ok = false;
		else if (r->bp_off && !stp_uread(cfa + (long)r->bp_off, &fp))
			fp_ok = false;
		if (cfa <= sp && n > 1)
			break;		/* no progress up the stack */
		sp = cfa;
		pc = ra;
	}
	return n;
}

struct stp_ubt {
	unsigned long pc[STP_UBACKTRACE_MAX];
};
static DEFINE_PER_CPU(struct stp_ubt, stp_ubt_buf);

/* The user backtrace of the hit into this CPU's buffer (*@pcs); with
 * @over, from the given pc, sp and fp instead of the registers. */
static unsigned int stp_ubacktrace(struct stp_context *c, unsigned long **pcs, bool over,
				   unsigned long pc, unsigned long sp, unsigned long fp)
{
	struct stp_ubt *bt = this_cpu_ptr(&stp_ubt_buf);
	struct pt_regs *regs = over ? NULL : stp_uregs(c);
	struct stp_ulook l;
	unsigned int n;

	*pcs = bt->pc;
	if (!over && !regs)
		return 0;
	stp_ulook_begin(&l);
	n = stp_uunwind(&l, regs, pc, sp, fp, bt->pc, STP_UBACKTRACE_MAX);
	stp_ulook_end(&l);
	return n;
}

/* Append @s to @dst at *@at, whole only; false once full. */
static bool stp_uappend(char *dst, size_t *at, const char *s)
{
	size_t k = strlen(s);

	if (*at + k >= MAXSTRINGLEN) {
		dst[*at] = '\0';
		return false;
	}
	memcpy(dst + *at, s, k + 1);
	*at += k;
	return true;
}

/* The print_ustack line of @addr: " 0xADDR : SYMDATA\n" (" 0xADDR\n" when
 * unknown); with @fileline, " at FILE:LINE" before the newline when
 * known. */
static void stp_uframe_line(struct stp_ulook *l, char *line, size_t n, unsigned long addr,
			    bool fileline)
{
	char sym[256], fl[256];

	stp_usym_text(l, sym, sizeof(sym), addr, STP_UF_DATA);
	fl[0] = '\0';
	if (fileline)
		stp_usym_text(l, fl, sizeof(fl), addr, STP_UF_FILELINE);
	if (sym[0])
		snprintf(line, n, " 0x%lx : %s%s%s\n", addr, sym, fl[0] ? " at " : "", fl);
	else
		snprintf(line, n, " 0x%lx\n", addr);
}

/* print_ubacktrace and friends: @how 0 full, 1 brief, 2 with file:line. */
static void stp_uprint_bt(struct stp_context *c, int how, bool over, unsigned long pc,
			  unsigned long sp, unsigned long fp)
{
	unsigned long *pcs;
	unsigned int i, n = stp_ubacktrace(c, &pcs, over, pc, sp, fp);
	struct stp_ulook l;
	char line[600];

	stp_ulook_begin(&l);
	for (i = 0; i < n; i++) {
		if (how == 1) {
			stp_usym_text(&l, line, sizeof(line) - 1, pcs[i], STP_UF_BRIEF);
			if (!line[0])
				snprintf(line, sizeof(line) - 1, "0x%lx", pcs[i]);
			strcat(line, "\n");
		} else {
			stp_uframe_line(&l, line, sizeof(line), pcs[i], how == 2);
		}
		stp_cprintf(c, "%s", line);
	}
	stp_ulook_end(&l);
}

/* The lines of print_ustack for the words of @stk, printed (@dst NULL)
 * or into @dst (whole lines within MAXSTRINGLEN). */
static void stp_uprint_stack(struct stp_context *c, char *dst, const char *stk)
{
	const char *w;
	size_t n, at = 0;
	struct stp_ulook l;
	char line[600];

	if (dst)
		dst[0] = '\0';
	stp_ulook_begin(&l);
	while (stp_next_word(&stk, &w, &n)) {
		stp_uframe_line(&l, line, sizeof(line), stp_word_addr(w, n), false);
		if (!dst)
			stp_cprintf(c, "%s", line);
		else if (!stp_uappend(dst, &at, line))
			break;
	}
	stp_ulook_end(&l);
}

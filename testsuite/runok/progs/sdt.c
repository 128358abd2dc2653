/* sdt.c: a small program with SDT markers (<sys/sdt.h>, Debian package
 * systemtap-sdt-dev) for the process(...).mark tests: arguments in
 * registers, in memory (base + offset, rip-relative, base + index * scale),
 * immediates, signed and unsigned of 1, 2, 4 and 8 bytes, two providers,
 * and one marker guarded by a semaphore, which only fires while a session
 * attached to it has raised the semaphore. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/sdt.h>

struct pt {
	int x;
	long y;
};

static long glob_v = -77;
static int table[4] = { 10, 20, 30, 40 };

/* The semaphore of sdtfix:guarded: what `dtrace -G` would emit, declared by
 * hand (the .probes section, as sdt.h's semaphore notes expect). Only the
 * marker in guarded() names it: sdt.h decides per translation unit whether
 * notes carry a semaphore, so that marker's note is written with this
 * definition of _SDT_SEMAPHORE, after the others. */
__extension__ unsigned short sdtfix_guarded_semaphore __attribute__((section(".probes")));

__attribute__((noinline)) int work(int a, long b, const char *s, struct pt *p, int k)
{
	char c = (char)(a - 2);
	short sh = (short)(-a * 1000);
	unsigned char uc = (unsigned char)(200 + a);

	__asm__ volatile("" : "+r"(c), "+r"(sh), "+r"(uc));
	DTRACE_PROBE(sdtfix, noargs);
	STAP_PROBE1(sdtfix, one, a);
	STAP_PROBE4(sdtfix, four, a, b, s, p->y);
	STAP_PROBE3(sdtfix, small, c, sh, uc);
	STAP_PROBE2(sdtfix, memory, glob_v, &glob_v);
	STAP_PROBE2(sdtfix, indexed, table[k], k);
	STAP_PROBE2(sdtfix, constant, 5, -3);
	STAP_PROBE1(otherprov, one, b);
	return a + (int)b;
}

#undef _SDT_SEMAPHORE
#define _SDT_SEMAPHORE(p, n) _SDT_ASM_1(_SDT_ASM_ADDR p##_##n##_semaphore)

__attribute__((noinline)) int guarded(int a)
{
	if (sdtfix_guarded_semaphore)
		STAP_PROBE2(sdtfix, guarded, a, sdtfix_guarded_semaphore);
	return sdtfix_guarded_semaphore;
}

int main(void)
{
	struct pt p = { 3, 4000000000L };
	int i, fd = open("/dev/null", O_WRONLY), s = 0;

	if (fd >= 0) {		/* the test compares staprun's output only */
		dup2(fd, 1);
		dup2(fd, 2);
	}
	for (i = 0; i < 3; i++) {
		s += work(i, i * -100L, "hello", &p, i);
		s += guarded(i);
	}
	printf("%d\n", s);
	return 0;
}

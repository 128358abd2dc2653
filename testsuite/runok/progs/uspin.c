/* uspin.c: a program that spins in user space for about two seconds
 * (main -> work -> spin_inner), for the user-space backtrace tests in
 * timer.profile probes (usym_profile). */
#include <time.h>

volatile unsigned long sink;

__attribute__((noinline)) void spin_inner(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void work(void)
{
	spin_inner(100000);
	__asm__ volatile("" ::: "memory");
}

int main(void)
{
	time_t end = time(NULL) + 3;

	while (time(NULL) < end)
		work();
	return 0;
}

/* twice.c: run as the -c target (no argument) it calls hit() once, waits
 * 4 s and calls it again; run with an argument (by the test's guest
 * command, not a descendant of the target) it calls hit() once (runok
 * uprobe_target_tree). */
#include <time.h>

__attribute__((noinline)) int hit(int who)
{
	__asm__ volatile("" ::: "memory");
	return who + 1;
}

int main(int argc, char **argv)
{
	struct timespec t = { 4, 0 };
	int r = hit(argc);

	(void)argv;
	if (argc == 1) {
		nanosleep(&t, 0);
		r += hit(argc);
	}
	return r == 0;
}

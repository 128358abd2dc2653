/* first.c: a program that returns at once (runok target_c_first): its
 * first user instruction is _start (static, not PIE: no dynamic loader). */
int main(void)
{
	return 0;
}

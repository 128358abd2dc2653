// SPDX-License-Identifier: GPL-2.0-or-later
/* load.c: inserting the module (finit_module, else init_module) and
 * deleting it, with the kernel's reasons spelled out. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "staprun/staprun.h"

const char *load_hint(int err)
{
	switch (err) {
	case EEXIST:
		return "a module of that name is already loaded: unload it "
		       "(rmmod NAME) or give -R to load a renamed copy";
	case ENOEXEC:
		return "the module is not valid for this kernel (built for "
		       "another kernel or architecture?); see dmesg";
	case EINVAL:
		return "the module was built for another kernel, or a module "
		       "option has a bad value; see dmesg";
	case ENOENT:
		return "the module needs a kernel symbol this kernel lacks "
		       "(built for another kernel?); see dmesg";
	case ENOSYS:
		return "this kernel cannot load modules (built without "
		       "CONFIG_MODULES), or a container's system call filter "
		       "does not let them through";
	case EPERM:
		return "loading modules needs root (CAP_SYS_MODULE, which "
		       "containers usually lack), and is refused after "
		       "kernel.modules_disabled=1";
	case EKEYREJECTED:
	case EBADMSG:
		return "the kernel only loads signed modules "
		       "(module.sig_enforce or lockdown)";
	case ENOMEM:
		return "not enough kernel memory (a smaller -s may help)";
	case EBUSY:
		return "the module's initialisation found something busy; see "
		       "dmesg";
	default:
		return NULL;
	}
}

/* Is a module of that name loaded? */
static bool module_present(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s", name);
	return access(path, F_OK) == 0;
}

/* The first word of vermagic ("6.1.0-56-amd64 SMP ..."): its release. */
static void vermagic_release(const char *vm, char *buf, size_t len)
{
	size_t n = strcspn(vm, " ");

	if (n >= len)
		n = len - 1;
	memcpy(buf, vm, n);
	buf[n] = '\0';
}

int load_module(int fd, const struct mod_image *img, const char *path,
		const char *name, const char *params, const char *vermagic)
{
	const char *hint;
	long r;
	int e;

	if (img) {
		r = syscall(SYS_init_module, img->data, (unsigned long)img->size,
			    params);
	} else {
		r = syscall(SYS_finit_module, fd, params, 0);
		if (r && errno == ENOSYS) {
			/* an old kernel: the bytes themselves */
			struct mod_image tmp;

			e = modelf_read(fd, &tmp);
			if (e) {
				errno = -e;
			} else {
				r = syscall(SYS_init_module, tmp.data,
					    (unsigned long)tmp.size, params);
				e = errno;
				modelf_free(&tmp);
				errno = e;
			}
		}
	}
	if (r == 0)
		return 0;
	e = errno;
	fprintf(stderr, "ERROR: Couldn't insert module '%s': %s\n", path,
		strerror(e));
	hint = load_hint(e);
	if (e == EEXIST && img && !module_present(name))
		fprintf(stderr,
			"Tip: the kernel took the new name '%s', but the "
			"module's initialisation found something of its "
			"original name (such as its /proc/systemtap directory) "
			"in use; see dmesg\n", name);
	else if (e == EEXIST)
		fprintf(stderr,
			"Tip: a module named '%s' is already loaded: unload it "
			"(rmmod %s) or give -R to load a renamed copy\n",
			name, name);
	else if (hint)
		fprintf(stderr, "Tip: %s\n", hint);
	if ((e == ENOEXEC || e == EINVAL || e == ENOENT) && vermagic) {
		struct utsname u;
		char rel[128];

		vermagic_release(vermagic, rel, sizeof(rel));
		if (uname(&u) == 0 && strcmp(rel, u.release))
			fprintf(stderr,
				"Tip: the module was built for kernel %s; this one is %s\n",
				rel, u.release);
	}
	return -e;
}

int unload_module(const char *name, int verbose)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = 100 * 1000 * 1000 };
	int tries, e = 0;

	if (verbose)
		fprintf(stderr, "staprun: removing module '%s'\n", name);
	/* busy while a reader or a probe handler still holds a reference */
	for (tries = 0; tries < 20; tries++) {
		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0)
			return 0;
		e = errno;
		if (e != EAGAIN && e != EBUSY && e != EINTR)
			break;
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "ERROR: Couldn't remove module '%s': %s\n", name,
		strerror(e));
	if (e == EAGAIN || e == EBUSY)
		fprintf(stderr, "Tip: try again later with 'rmmod %s'\n", name);
	return -e;
}

// SPDX-License-Identifier: GPL-2.0-or-later
/* load.c: inserting the module (finit_module, else init_module) and
 * deleting it, with the kernel's reasons spelled out. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "staprun/staprun.h"
#include "util/sdt_marker.h"

const char *load_hint(int err)
{
	switch (err) {
	case EEXIST:
		return "a module of that name is already loaded: unload it "
		       "(staprun -d NAME) or give -R to load a renamed copy";
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
		return "not enough kernel memory (dmesg names what the module "
		       "could not set up; a smaller -s may help)";
	case ENOSPC:
		return "a string global's value is longer than the module's "
		       "MAXSTRINGLEN - 1 bytes (stap -D MAXSTRINGLEN=N raises it)";
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

	SDT_MARK1(staprun, insert__module, path);
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
			"(staprun -d %s) or give -R to load a renamed copy\n",
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
	SDT_MARK1(staprun, remove__module, name);
	/* busy while a reader or a probe handler still holds a reference */
	for (tries = 0; tries < 20; tries++) {
		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0)
			return 0;
		e = errno;
		if (e == ENOENT && !module_present(name)) {
			/* someone else (rmmod) unloaded it first: gone is gone */
			if (verbose)
				fprintf(stderr, "staprun: module '%s' was already unloaded\n", name);
			return 0;
		}
		if (e != EAGAIN && e != EBUSY && e != EINTR)
			break;
		nanosleep(&ts, NULL);
	}
	fprintf(stderr, "ERROR: Couldn't remove module '%s': %s\n", name,
		strerror(e));
	if (e == EAGAIN || e == EBUSY)
		fprintf(stderr, "Tip: try again later with 'staprun -d %s'\n", name);
	return -e;
}

/* Is NAME one of ours: does it have its /proc/systemtap/NAME directory? */
static bool stap_module(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/systemtap/%s", name);
	return access(path, F_OK) == 0;
}

/* ARG ("NAME", "NAME.ko", "dir/NAME.ko") to the kernel's module name. */
static int arg_modname(const char *arg, char name[STP_MODNAME_MAX])
{
	const char *base = strrchr(arg, '/');
	size_t n, i;

	base = base ? base + 1 : arg;
	n = strlen(base);
	if (n > 3 && !strcmp(base + n - 3, ".ko"))
		n -= 3;
	if (!n || n >= STP_MODNAME_MAX)
		return -1;
	for (i = 0; i < n; i++)
		name[i] = base[i] == '-' ? '_' : base[i];
	name[n] = '\0';
	return 0;
}

static int delete_one(const char *name, int verbose)
{
	if (!module_present(name)) {
		fprintf(stderr, "ERROR: No module '%s' is loaded\n", name);
		return 1;
	}
	if (!stap_module(name)) {
		fprintf(stderr,
			"ERROR: Module '%s' is not a stap module (no /proc/systemtap/%s): not unloading it\n",
			name, name);
		return 1;
	}
	return unload_module(name, verbose) ? 1 : 0;
}

int attach_name(const char *arg, char name[STP_MODNAME_MAX])
{
	if (arg_modname(arg, name)) {
		fprintf(stderr, "ERROR: Invalid module name '%s'\n", arg);
		return -1;
	}
	if (!module_present(name)) {
		fprintf(stderr, "ERROR: No module '%s' is loaded\n", name);
		return -1;
	}
	if (!stap_module(name)) {
		fprintf(stderr,
			"ERROR: Module '%s' is not a stap module (no /proc/systemtap/%s)\n",
			name, name);
		return -1;
	}
	return 0;
}

int delete_modules(const char *arg, int verbose)
{
	char name[STP_MODNAME_MAX];
	struct dirent *de;
	int status = 0, n = 0;
	DIR *d;

	if (strcmp(arg, "*")) {
		if (arg_modname(arg, name)) {
			fprintf(stderr, "ERROR: Invalid module name '%s'\n", arg);
			return 1;
		}
		return delete_one(name, verbose);
	}
	d = opendir("/proc/systemtap");
	if (!d)
		return 0;	/* no stap module was ever loaded */
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= STP_MODNAME_MAX ||
		    !module_present(de->d_name))
			continue;
		n++;
		if (unload_module(de->d_name, verbose))
			status = 1;
	}
	closedir(d);
	if (verbose)
		fprintf(stderr, "staprun: %d module(s) unloaded\n", n);
	return status;
}

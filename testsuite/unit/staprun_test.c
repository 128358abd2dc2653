// SPDX-License-Identifier: GPL-2.0-or-later
/* staprun_test.c: staprun's testable parts: option parsing, module paths,
 * the parameter string, control records, bulk records, the monitor's
 * status (parsing, sorting, rendering), and the ELF reader
 * (a synthetic module; truncations and random corruption must not crash
 * it). Prints "N passed, N failed". */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>

#include "staprun/staprun.h"
#include "testsuite/unit/check.h"

static char err[STP_ERRLEN];

/* opts_parse on a NULL-terminated list of words. */
static int parse(struct staprun_opts *o, const char *const *words)
{
	static char *argv[32];	/* opts_parse keeps pointers into it */
	int argc = 0;

	argv[argc++] = (char *)"staprun";
	while (*words && argc < 31)
		argv[argc++] = (char *)*words++;
	argv[argc] = NULL;
	err[0] = '\0';
	return opts_parse(o, argc, argv, err, sizeof(err));
}

#define PARSE(o, ...) parse(o, (const char *const[]){ __VA_ARGS__, NULL })

static void test_options(void)
{
	struct staprun_opts o;

	CHECK(PARSE(&o, "m.ko") == 0 && !strcmp(o.module, "m.ko") &&
	      o.nmodargs == 0 && o.action == ACT_RUN && !o.verbose);
	CHECK(PARSE(&o, "-v", "-v", "-o", "out", "-x", "123", "-b", "-s", "16",
		    "-R", "-T", "5", "-w", "m.ko", "a=1", "b_2=x") == 0);
	CHECK(o.verbose == 2 && !strcmp(o.outfile, "out") && o.target == 123 &&
	      o.bulk && o.bufsize_mb == 16 && o.rename && o.timeout_s == 5 &&
	      o.quiet_warnings && o.nmodargs == 2 &&
	      !strcmp(o.modargs[1], "b_2=x"));
	CHECK(PARSE(&o, "-c", "ls -l", "-D", "-o", "f", "m.ko") == 0 &&
	      !strcmp(o.command, "ls -l") && o.detach);
	/* options after MODULE belong to it (and are not NAME=VALUE) */
	CHECK(PARSE(&o, "m.ko", "-v") == -1 && strstr(err, "'-v'"));
	CHECK(PARSE(&o, "-h") == 0 && o.action == ACT_HELP);
	CHECK(PARSE(&o, "-V") == 0 && o.action == ACT_VERSION);
	CHECK(PARSE(&o, "-d", "stap_x") == 0 && o.action == ACT_DELETE &&
	      !strcmp(o.module, "stap_x"));
	CHECK(PARSE(&o, "-v", "-d", "*") == 0 && o.action == ACT_DELETE &&
	      o.verbose == 1 && !strcmp(o.module, "*"));
	CHECK(PARSE(&o, "-d") == -1 &&
	      !strcmp(err, "Option '-d' needs an argument."));
	CHECK(PARSE(&o, "-d", "") == -1 && strstr(err, "Empty module name"));

	CHECK(PARSE(&o, "-q", "m.ko") == -1 &&
	      !strcmp(err, "Invalid option '-q'."));
	CHECK(PARSE(&o, "--help") == -1 && strstr(err, "no long options"));
	CHECK(PARSE(&o, "m.ko", "-o") == -1);
	CHECK(PARSE(&o, "-o") == -1 &&
	      !strcmp(err, "Option '-o' needs an argument."));
	CHECK(PARSE(&o, "-v") == -1 &&
	      !strcmp(err, "Need a module name or path to load."));
	CHECK(PARSE(&o, "-s", "0", "m.ko") == -1 && strstr(err, "1-4095"));
	CHECK(PARSE(&o, "-s", "4096", "m.ko") == -1);
	CHECK(PARSE(&o, "-s", "4095", "m.ko") == 0 && o.bufsize_mb == 4095);
	CHECK(PARSE(&o, "-s", "-1", "m.ko") == -1);
	CHECK(PARSE(&o, "-s", "12x", "m.ko") == -1);
	CHECK(PARSE(&o, "-s", "99999999999999999999999", "m.ko") == -1);
	CHECK(PARSE(&o, "-x", "0", "m.ko") == -1 && strstr(err, "process id"));
	CHECK(PARSE(&o, "-x", "abc", "m.ko") == -1);
	CHECK(PARSE(&o, "-x", "", "m.ko") == -1);
	CHECK(PARSE(&o, "-T", "0", "m.ko") == -1 && strstr(err, "timeout"));
	CHECK(PARSE(&o, "-c", "true", "-x", "1", "m.ko") == -1 &&
	      strstr(err, "'-c' and '-x'"));
	CHECK(PARSE(&o, "-D", "m.ko") == -1 && strstr(err, "-o FILE"));
	CHECK(PARSE(&o, "-o", "", "m.ko") == -1);
	CHECK(PARSE(&o, "") == -1);
	CHECK(PARSE(&o, "m.ko", "novalue") == -1 && strstr(err, "NAME=VALUE"));
	CHECK(PARSE(&o, "m.ko", "=1") == -1 && strstr(err, "identifier"));
	CHECK(PARSE(&o, "m.ko", "1a=1") == -1);
	CHECK(PARSE(&o, "m.ko", "a-b=1") == -1);
	CHECK(PARSE(&o, "m.ko", "a=b c") == -1 && strstr(err, "white space"));
	CHECK(PARSE(&o, "m.ko", "a=x\ty") == -1);
	CHECK(PARSE(&o, "m.ko", "a=") == 0);
	CHECK(PARSE(&o, "m.ko", "s=a=b") == 0);
	/* reusable: getopt restarts */
	CHECK(PARSE(&o, "-v", "m.ko") == 0 && o.verbose == 1);
	CHECK(strstr(opts_usage(), "Usage: staprun") != NULL);
}

static void test_params(void)
{
	struct staprun_opts o;
	char path[256], want[256];
	char *p;

	/* _stp_pid (this process: stp_pid()) and the time zone are always
	 * passed (TZ is set here: a POSIX TZ string needs no zone files). */
	setenv("TZ", "EST5", 1);
	tzset();
	CHECK(PARSE(&o, "m.ko") == 0);
	p = params_build(&o, 0, err, sizeof(err));
	CHECK(p && strstr(p, " _stp_tz_gmtoff=18000 _stp_tz_name=EST"));
	free(p);
	setenv("TZ", "UTC0", 1);
	tzset();
	CHECK(PARSE(&o, "m.ko") == 0);
	p = params_build(&o, 0, err, sizeof(err));
	snprintf(want, sizeof(want), "_stp_pid=%ld _stp_tz_gmtoff=0 _stp_tz_name=UTC", (long)getpid());
	CHECK(p && !strcmp(p, want));
	free(p);
	CHECK(PARSE(&o, "-s", "2", "-b", "m.ko", "x=1", "s=hello") == 0);
	p = params_build(&o, 42, err, sizeof(err));
	snprintf(want, sizeof(want), "_stp_bufsize=2097152 _stp_target=42 _stp_bulk=1 _stp_pid=%ld _stp_tz_gmtoff=0 _stp_tz_name=UTC x=1 s=hello",
		 (long)getpid());
	CHECK(p && !strcmp(p, want));
	free(p);
	CHECK(PARSE(&o, "-s", "4095", "m.ko", "v=-5") == 0);
	p = params_build(&o, 0, err, sizeof(err));
	snprintf(want, sizeof(want), "_stp_bufsize=4293918720 _stp_pid=%ld _stp_tz_gmtoff=0 _stp_tz_name=UTC v=-5", (long)getpid());
	CHECK(p && !strcmp(p, want));
	free(p);
	CHECK(PARSE(&o, "m.ko", "a=1") == 0);
	p = params_build(&o, 7, err, sizeof(err));
	snprintf(want, sizeof(want), "_stp_target=7 _stp_pid=%ld _stp_tz_gmtoff=0 _stp_tz_name=UTC a=1", (long)getpid());
	CHECK(p && !strcmp(p, want));
	free(p);
	{
		/* many long values: the string grows */
		static char big[20][300];
		const char *words[22];
		int i;

		words[0] = "m.ko";
		for (i = 0; i < 20; i++) {
			snprintf(big[i], sizeof(big[i]), "g%d=", i);
			memset(big[i] + strlen(big[i]), 'v', 250);
			words[i + 1] = big[i];
		}
		words[21] = NULL;
		CHECK(parse(&o, words) == 0);
		p = params_build(&o, 0, err, sizeof(err));
		CHECK(p && strlen(p) > 20 * 250 && strstr(p, " g0=vvv"));
		free(p);
	}

	CHECK(params_module_path("./x.ko", path, sizeof(path)) == 0 &&
	      !strcmp(path, "./x.ko"));
	CHECK(params_module_path("x.ko", path, sizeof(path)) == 0 &&
	      !strcmp(path, "x.ko"));
	CHECK(params_module_path("stap_1", path, sizeof(path)) == 0 &&
	      !strncmp(path, "/lib/modules/", 13) &&
	      strstr(path, "/systemtap/stap_1.ko"));
	CHECK(params_module_path("./x.ko", path, 4) == -1);
}

/* Collects the records of ctl_feed. */
struct seen {
	int n;
	enum ctl_kind kind[16];
	int status[16];
	char text[16][CTL_LINE_MAX + 1];
	int stop_at;
};

static int collect(void *arg, const struct ctl_record *r)
{
	struct seen *s = arg;

	if (s->n < 16) {
		s->kind[s->n] = r->kind;
		s->status[s->n] = r->status;
		snprintf(s->text[s->n], sizeof(s->text[0]), "%s", r->text);
	}
	s->n++;
	return s->stop_at && s->n == s->stop_at;
}

static void test_ctl(void)
{
	static struct ctl_reader cr;
	static struct seen s;
	static char line[64];
	static char big[CTL_LINE_MAX * 2 + 16];
	const char *all = "M hello world\nX 0\nM WARNING: x\nD 1\n";
	struct ctl_record r;
	size_t i;

	strcpy(line, "M ERROR: division by 0");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_MSG && !strcmp(r.text, "ERROR: division by 0"));
	strcpy(line, "X 1");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_EXIT && r.status == 1);
	strcpy(line, "D 0\r");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_DONE && r.status == 0);
	strcpy(line, "D 255");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_DONE && r.status == 255);
	strcpy(line, "D 256");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_DONE && r.status == 1);
	strcpy(line, "D x");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_DONE && r.status == 1);
	strcpy(line, "D ");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_DONE && r.status == 1);
	strcpy(line, "M");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_MSG && !strcmp(r.text, ""));
	strcpy(line, "M ");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_MSG && !strcmp(r.text, ""));
	strcpy(line, "Q what");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_UNKNOWN && !strcmp(r.text, "Q what"));
	strcpy(line, "");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_UNKNOWN);
	strcpy(line, "Mx");
	ctl_parse_line(line, &r);
	CHECK(r.kind == CTL_UNKNOWN);

	/* whole, then one byte at a time: the same records */
	memset(&cr, 0, sizeof(cr));
	memset(&s, 0, sizeof(s));
	CHECK(ctl_feed(&cr, all, strlen(all), collect, &s) == 0);
	CHECK(s.n == 4 && s.kind[0] == CTL_MSG &&
	      !strcmp(s.text[0], "hello world") && s.kind[1] == CTL_EXIT &&
	      s.status[1] == 0 && s.kind[2] == CTL_MSG &&
	      s.kind[3] == CTL_DONE && s.status[3] == 1);
	memset(&s, 0, sizeof(s));
	for (i = 0; i < strlen(all); i++)
		ctl_feed(&cr, all + i, 1, collect, &s);
	CHECK(s.n == 4 && !strcmp(s.text[2], "WARNING: x") && s.status[3] == 1);
	/* a partial line waits for its newline */
	memset(&s, 0, sizeof(s));
	ctl_feed(&cr, "M par", 5, collect, &s);
	CHECK(s.n == 0);
	ctl_feed(&cr, "tial\n", 5, collect, &s);
	CHECK(s.n == 1 && !strcmp(s.text[0], "partial"));
	/* the callback can stop the feed */
	memset(&s, 0, sizeof(s));
	s.stop_at = 2;
	CHECK(ctl_feed(&cr, all, strlen(all), collect, &s) == 1 && s.n == 2);
	/* an overlong line is cut, the next one is intact; NULs become spaces */
	memset(&cr, 0, sizeof(cr));
	memset(&s, 0, sizeof(s));
	big[0] = 'M';
	big[1] = ' ';
	memset(big + 2, 'a', sizeof(big) - 2);
	big[sizeof(big) - 1] = '\n';
	ctl_feed(&cr, big, sizeof(big), collect, &s);
	ctl_feed(&cr, "M a\0b\nD 0\n", 10, collect, &s);
	CHECK(s.n == 3 && strlen(s.text[0]) == CTL_LINE_MAX - 2 &&
	      !strcmp(s.text[1], "a b") && s.kind[2] == CTL_DONE);
}

/* Reads a whole small file into @buf; returns its length or -1. */
static long slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len);
	close(fd);
	return n;
}

static void put_rec(char **p, uint32_t cpu, const char *data)
{
	uint32_t len = (uint32_t)strlen(data);

	memcpy(*p, &cpu, 4);
	memcpy(*p + 4, &len, 4);
	memcpy(*p + 8, data, len);
	*p += 8 + len;
}

static void test_bulk(void)
{
	char dir[] = "/tmp/staprun-test.XXXXXX";
	char prefix[64], name[128], stream[256], got[64], *p = stream;
	struct bulk_out b;
	size_t n, i;
	int fd;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(prefix, sizeof(prefix), "%s/out", dir);
	put_rec(&p, 0, "zero ");
	put_rec(&p, 2, "two");
	put_rec(&p, 0, "again");
	put_rec(&p, 1, "");
	n = (size_t)(p - stream);

	/* one byte at a time: headers and payloads split anywhere */
	bulk_init(&b, prefix);
	for (i = 0; i < n; i++)
		CHECK(bulk_feed(&b, stream + i, 1, err, sizeof(err)) == 0);
	CHECK(!bulk_pending(&b));
	CHECK(bulk_close(&b) == 0);
	snprintf(name, sizeof(name), "%s_0", prefix);
	CHECK(slurp(name, got, sizeof(got)) == 10 && !memcmp(got, "zero again", 10));
	snprintf(name, sizeof(name), "%s_2", prefix);
	CHECK(slurp(name, got, sizeof(got)) == 3 && !memcmp(got, "two", 3));
	snprintf(name, sizeof(name), "%s_1", prefix);
	CHECK(slurp(name, got, sizeof(got)) == 0);

	/* all at once gives the same; a cut record is pending */
	bulk_init(&b, prefix);
	CHECK(bulk_feed(&b, stream, n - 2, err, sizeof(err)) == 0);
	CHECK(bulk_pending(&b));
	CHECK(bulk_feed(&b, stream + n - 2, 2, err, sizeof(err)) == 0);
	CHECK(!bulk_pending(&b));
	bulk_close(&b);
	snprintf(name, sizeof(name), "%s_0", prefix);
	CHECK(slurp(name, got, sizeof(got)) == 10);

	/* a silly CPU number is an error, not a huge allocation */
	p = stream;
	put_rec(&p, 0xfffffff0u, "x");
	bulk_init(&b, prefix);
	CHECK(bulk_feed(&b, stream, (size_t)(p - stream), err, sizeof(err)) == -1 &&
	      strstr(err, "CPU"));
	bulk_close(&b);
	/* an unwritable place */
	bulk_init(&b, "/nonexistent-dir/x");
	p = stream;
	put_rec(&p, 0, "x");
	CHECK(bulk_feed(&b, stream, (size_t)(p - stream), err, sizeof(err)) == -1 &&
	      strstr(err, "/nonexistent-dir/x_0"));
	bulk_close(&b);
	bulk_init(&b, NULL);
	CHECK(bulk_file_name(&b, 3, name, sizeof(name)) == 0 &&
	      !strcmp(name, "stpd_cpu3"));

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "%s_%zu", prefix, i);
		unlink(name);
	}
	rmdir(dir);

	/* write_all through a pipe */
	{
		int pfd[2];
		char rb[8];

		CHECK(pipe(pfd) == 0);
		CHECK(write_all(pfd[1], "abc", 3) == 0);
		CHECK(read(pfd[0], rb, sizeof(rb)) == 3);
		close(pfd[0]);
		fd = pfd[1];
		/* SIGPIPE is not ignored here: use a closed fd instead */
		close(fd);
		CHECK(write_all(fd, "abc", 3) == -EBADF);
	}
}

/*
 * A minimal relocatable ELF64 module: sections null, .shstrtab, .modinfo,
 * .gnu.linkonce.this_module (struct module's name at offset 24).
 */
struct fake_mod {
	Elf64_Ehdr eh;
	char shstrtab[64];
	char modinfo[96];
	char this_module[128];
	Elf64_Shdr sh[4];
};

static size_t fake_module(unsigned char *buf, const char *name)
{
	static const char strs[] = "\0.shstrtab\0.modinfo\0.gnu.linkonce.this_module";
	struct fake_mod m;
	size_t mi;

	memset(&m, 0, sizeof(m));
	memcpy(m.eh.e_ident, ELFMAG, SELFMAG);
	m.eh.e_ident[EI_CLASS] = ELFCLASS64;
	m.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	m.eh.e_ident[EI_VERSION] = EV_CURRENT;
	m.eh.e_type = ET_REL;
	m.eh.e_machine = EM_X86_64;
	m.eh.e_version = EV_CURRENT;
	m.eh.e_ehsize = sizeof(Elf64_Ehdr);
	m.eh.e_shentsize = sizeof(Elf64_Shdr);
	m.eh.e_shnum = 4;
	m.eh.e_shstrndx = 1;
	m.eh.e_shoff = offsetof(struct fake_mod, sh);
	memcpy(m.shstrtab, strs, sizeof(strs));
	mi = (size_t)snprintf(m.modinfo, sizeof(m.modinfo),
			      "license=GPL%cname=%s%cvermagic=6.1.0-56-amd64 SMP mod_unload",
			      0, name, 0) + 1;
	strcpy(m.this_module + 24, name);
	m.sh[1].sh_name = 1;
	m.sh[1].sh_type = SHT_STRTAB;
	m.sh[1].sh_offset = offsetof(struct fake_mod, shstrtab);
	m.sh[1].sh_size = sizeof(strs);
	m.sh[2].sh_name = 11;
	m.sh[2].sh_type = SHT_PROGBITS;
	m.sh[2].sh_offset = offsetof(struct fake_mod, modinfo);
	m.sh[2].sh_size = mi;
	m.sh[3].sh_name = 20;
	m.sh[3].sh_type = SHT_PROGBITS;
	m.sh[3].sh_offset = offsetof(struct fake_mod, this_module);
	m.sh[3].sh_size = sizeof(m.this_module);
	memcpy(buf, &m, sizeof(m));
	return sizeof(m);
}

static void test_modelf(void)
{
	static _Alignas(8) unsigned char buf[sizeof(struct fake_mod)];
	static unsigned char copy[sizeof(buf)];
	struct mod_image img = { buf, 0 };
	char name[STP_MODNAME_MAX];
	const char *v;
	size_t size, i, k;
	unsigned int seed = 1;

	size = fake_module(buf, "stap_abc");
	img.size = size;
	CHECK(modelf_name(&img, name) == 0 && !strcmp(name, "stap_abc"));
	v = modelf_modinfo(&img, "vermagic");
	CHECK(v && !strncmp(v, "6.1.0-56-amd64 ", 15));
	CHECK(modelf_modinfo(&img, "license") &&
	      !strcmp(modelf_modinfo(&img, "license"), "GPL"));
	CHECK(modelf_modinfo(&img, "nosuch") == NULL);
	CHECK(modelf_modinfo(&img, "lic") == NULL);

	/* rename: shorter (modinfo rewritten), longer (modinfo blanked) */
	CHECK(modelf_rename(&img, "stap_1", err, sizeof(err)) == 0);
	CHECK(modelf_name(&img, name) == 0 && !strcmp(name, "stap_1"));
	CHECK(modelf_modinfo(&img, "name") &&
	      !strcmp(modelf_modinfo(&img, "name"), "stap_1"));
	CHECK(modelf_modinfo(&img, "vermagic") != NULL);
	CHECK(modelf_rename(&img, "stap_abc_123456", err, sizeof(err)) == 0);
	CHECK(modelf_name(&img, name) == 0 && !strcmp(name, "stap_abc_123456"));
	CHECK(modelf_modinfo(&img, "name") == NULL);
	CHECK(modelf_modinfo(&img, "vermagic") != NULL);
	CHECK(modelf_rename(&img, "bad name", err, sizeof(err)) == -1);
	CHECK(modelf_rename(&img,
			    "a123456789b123456789c123456789d123456789e123456789f12345",
			    err, sizeof(err)) == -1);

	/* the modinfo name when struct module's is unusable */
	size = fake_module(buf, "stap_x");
	memset(buf + offsetof(struct fake_mod, this_module), 0xff, 128);
	CHECK(modelf_name(&img, name) == 0 && !strcmp(name, "stap_x"));
	CHECK(modelf_rename(&img, "stap_y", err, sizeof(err)) == -1);

	/* not ELF, other byte order, truncated anywhere: -1, no crash */
	memcpy(buf, "\x7f" "ELG", 4);
	CHECK(modelf_name(&img, name) == -1);
	fake_module(buf, "stap_abc");
	buf[EI_DATA] = ELFDATA2MSB;
	CHECK(modelf_name(&img, name) == -1);
	fake_module(buf, "stap_abc");
	for (k = 0, i = 0; k < size; k++) {
		img.size = k;
		if (modelf_name(&img, name) == 0 && strcmp(name, "stap_abc"))
			i++;
		modelf_modinfo(&img, "vermagic");
	}
	CHECK(i == 0);
	img.size = size;
	/* bad header values */
	fake_module(buf, "stap_abc");
	((Elf64_Ehdr *)(void *)buf)->e_shoff = ~0ULL;
	CHECK(modelf_name(&img, name) == -1);
	fake_module(buf, "stap_abc");
	((Elf64_Ehdr *)(void *)buf)->e_shstrndx = 9;
	CHECK(modelf_name(&img, name) == -1);
	fake_module(buf, "stap_abc");
	((Elf64_Ehdr *)(void *)buf)->e_shnum = 0;	/* extended: sh[0].sh_size 0 */
	CHECK(modelf_name(&img, name) == -1);
	fake_module(buf, "stap_abc");
	((Elf64_Ehdr *)(void *)buf)->e_shentsize = 4;
	CHECK(modelf_name(&img, name) == -1);

	/* random corruption: whatever comes back, nothing crashes */
	fake_module(copy, "stap_abc");
	for (i = 0, k = 0; i < 20000; i++) {
		size_t j;

		memcpy(buf, copy, size);
		for (j = 0; j < 4; j++) {
			seed = seed * 1103515245u + 12345u;
			buf[(seed >> 8) % size] = (unsigned char)(seed >> 20);
		}
		if (modelf_name(&img, name) == 0 &&
		    strlen(name) >= STP_MODNAME_MAX)
			k++;
		modelf_modinfo(&img, "name");
		modelf_rename(&img, "stap_r", err, sizeof(err));
	}
	CHECK(k == 0);

	/* modelf_read: a regular file only */
	{
		struct mod_image rd;
		int fd = open("/", O_RDONLY);

		CHECK(fd >= 0 && modelf_read(fd, &rd) == -EISDIR);
		close(fd);
		fd = open("/dev/null", O_RDONLY);
		CHECK(fd >= 0 && modelf_read(fd, &rd) == -EINVAL);
		close(fd);
	}
}

static void test_hints(void)
{
	CHECK(load_hint(EEXIST) && strstr(load_hint(EEXIST), "-R"));
	CHECK(load_hint(ENOEXEC) && strstr(load_hint(ENOEXEC), "dmesg"));
	CHECK(load_hint(EINVAL) && strstr(load_hint(EINVAL), "another kernel"));
	CHECK(load_hint(ENOSYS) && load_hint(EPERM));
	CHECK(load_hint(EIO) == NULL);
}


/* -M and the monitor's status: parsing the module's file, sorting,
 * rendering the window (monitor_fmt.c). */
static const char mon_text[] =
	"uptime_ms 3723500\n"
	"module mon\n"
	"uid 1000\n"
	"memory 1769493\n"
	"state running\n"
	"global long pokes 3\n"
	"global string label two words\n"
	"global string empty \n"
	"global array seen 12\n"
	"global stat st 7\n"
	"global statarray pm 2\n"
	"probe 0 fixed 1 5000 5000 5000 begin\n"
	"probe 1 on 3 3000 500 2000 procfs(\"poke\").write\n"
	"probe 2 off 40 8000 100 900 timer.ms(50)\n"
	"probe 3 fixed 0 0 0 0 end\n"
	"future_line whatever\n";

static char *render(const struct mon_status *st, const struct mon_view *v)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	mon_render(f, st, v);
	fclose(f);
	return text;
}

static void test_monitor(void)
{
	struct staprun_opts o;
	struct mon_status st;
	struct mon_view v = { 0 };
	char *text;

	CHECK(PARSE(&o, "-M", "2", "m.ko") == 0 && o.monitor_s == 2);
	CHECK(PARSE(&o, "-M", "0", "m.ko") == -1 &&
	      !strcmp(err, "Invalid monitor interval '0' (should be 1-86400 seconds)."));
	CHECK(PARSE(&o, "-M", "1x", "m.ko") == -1);
	CHECK(PARSE(&o, "-M", "1", "-L", "m.ko") == -1 &&
	      !strcmp(err, "'-M' shows the session while staprun runs it: no '-L' or '-D'."));

	CHECK(mon_parse(mon_text, &st) == 0);
	CHECK(st.uptime_ms == 3723500 && !strcmp(st.module, "mon") && st.uid == 1000 &&
	      st.memory == 1769493 && !strcmp(st.state, "running"));
	CHECK(st.ng == 6 && st.np == 4);
	CHECK(!strcmp(st.g[0].kind, "long") && !strcmp(st.g[0].name, "pokes") &&
	      !strcmp(st.g[0].value, "3"));
	CHECK(!strcmp(st.g[1].name, "label") && !strcmp(st.g[1].value, "two words"));
	CHECK(!strcmp(st.g[2].name, "empty") && !strcmp(st.g[2].value, ""));
	CHECK(st.p[1].idx == 1 && !strcmp(st.p[1].state, "on") && st.p[1].hits == 3 &&
	      st.p[1].ns == 3000 && st.p[1].min_ns == 500 && st.p[1].max_ns == 2000 &&
	      !strcmp(st.p[1].pp, "procfs(\"poke\").write"));

	text = render(&st, &v);
	CHECK(!strcmp(text,
		"uptime 1:02:03  module mon  invoker uid 1000  memory 1728 KiB  running\n"
		"globals: pokes=3  label=\"two words\"  empty=\"\"  seen[12]  st=@count 7  pm[2]\n"
		"   # state       hits     avg ns     min ns     max ns  probe (sorted by index)\n"
		"   0 fixed          1       5000       5000       5000  begin\n"
		"   1 on             3       1000        500       2000  procfs(\"poke\").write\n"
		"   2 off           40        200        100        900  timer.ms(50)\n"
		"   3 fixed          0          0          0          0  end\n"
		"keys: c reset globals  s sort  t toggle probe  p pause  r resume  x hide\n"));
	free(text);

	/* sorted by hits (most first), by average time, by name */
	mon_sort(&st, MON_SORT_HITS);
	CHECK(st.p[0].idx == 2 && st.p[1].idx == 1 && st.p[2].idx == 0 && st.p[3].idx == 3);
	mon_sort(&st, MON_SORT_AVG);
	CHECK(st.p[0].idx == 0 && st.p[1].idx == 1 && st.p[2].idx == 2 && st.p[3].idx == 3);
	mon_sort(&st, MON_SORT_NAME);
	CHECK(st.p[0].idx == 0 && st.p[1].idx == 3 && st.p[2].idx == 1 && st.p[3].idx == 2);
	CHECK(!strcmp(mon_sort_name(MON_SORT_AVG), "average time"));

	/* a narrow, short window: lines cut to 20 columns; the probes that do
	 * not fit counted ("... N more"), the prompt on the last line */
	mon_sort(&st, MON_SORT_INDEX);
	v.width = 20;
	v.prompt = "toggle probe #: 2";
	{
		static const struct { int max_lines; const char *probes; } cut[] = {
			{ 6, "   0 fixed          \n     ... 3 more\n" },
			{ 7, "   0 fixed          \n   1 on             \n     ... 2 more\n" },
			{ 8, "   0 fixed          \n   1 on             \n   2 off           4\n"
			     "   3 fixed          \n" },
		};
		char want[512];
		size_t i;

		for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
			v.max_lines = cut[i].max_lines;
			snprintf(want, sizeof(want), "uptime 1:02:03  modu\nglobals: pokes=3  la\n"
				 "   # state       hit\n%stoggle probe #: 2\n", cut[i].probes);
			text = render(&st, &v);
			CHECK(!strcmp(text, want));
			free(text);
		}
	}
	mon_status_free(&st);

	/* malformed: refused, nothing kept */
	CHECK(mon_parse("module m\nprobe x on 1 2 3 4 begin\n", &st) == -1 && st.np == 0);
	CHECK(mon_parse("module m\nprobe 1 on 1 2 3 4\n", &st) == -1);
	CHECK(mon_parse("module m\nglobal long\n", &st) == -1);
	CHECK(mon_parse("uid 0\n", &st) == -1);
	CHECK(mon_parse("module m\n", &st) == 0 && st.ng == 0 && st.np == 0);
	text = render(&st, &(struct mon_view){ 0 });
	CHECK(strstr(text, "globals: (none)\n") != NULL);
	free(text);
	mon_status_free(&st);
}

int main(void)
{
	test_options();
	test_params();
	test_ctl();
	test_bulk();
	test_modelf();
	test_hints();
	test_monitor();
	return CHECK_SUMMARY();
}

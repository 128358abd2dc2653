// SPDX-License-Identifier: GPL-2.0-or-later
/* kmod.c: where loaded kernel modules are, and when they come and go.
 * A static variable of a module is addressed from an anchor symbol of that
 * module (the translator chose one with a unique name in the variable's
 * section, elaborate/dwarf_static.c). Its run-time address is read from
 * the module's own symbol table (struct module's kallsyms: st_value is the
 * run-time address) when the session starts, for modules already loaded,
 * and when a module loads later (module notifier); it is forgotten when
 * the module unloads. Handlers only read the result (STP_KMOD_BASE). The
 * notifier also tells the probe families (their `module` hook: kprobe.c
 * registers and unregisters the points of modules that come and go). */

/* The walk of the module list below tells its head by address. */
#ifndef CONFIG_X86_64
#error "kmod.c: the module list walk assumes x86-64's module area (MODULES_VADDR)"
#endif

/* Module @mod came or goes: the families that follow modules. */
static void stp_kmod_families(struct module *mod, bool coming)
{
	unsigned int i;

	for (i = 0; i < stp_module.nfamilies; i++)
		if (stp_module.families[i].family->module)
			stp_module.families[i].family->module(mod, coming);
}

/* Do anchors or some family's points need the modules followed? */
static bool stp_kmod_wanted(void)
{
	unsigned int i;

	for (i = 0; i < stp_module.nfamilies; i++)
		if (stp_module.families[i].modules)
			return true;
	return stp_module.nkmods > 0;
}

/* The run-time address of @mod's defined symbol @name, 0 if none. The
 * caller keeps preemption off (the table is freed after an RCU grace
 * period when the module's init ends). */
static unsigned long stp_kmod_symbol(struct module *mod, const char *name)
{
	struct mod_kallsyms *ks = rcu_dereference_sched(mod->kallsyms);
	unsigned int i;

	if (!ks)
		return 0;
	for (i = 0; i < ks->num_symtab; i++) {
		const Elf_Sym *s = &ks->symtab[i];

		if (s->st_shndx != SHN_UNDEF && !strcmp(ks->strtab + s->st_name, name))
			return (unsigned long)s->st_value;
	}
	return 0;
}

/* The start's scan and the notifier update the addresses under this, so
 * that a scan that saw a module alive cannot write its address after the
 * notifier forgot it (an unload between the two). */
static DEFINE_MUTEX(stp_kmod_mutex);

/* @mod has loaded (@loaded) or is unloading: its anchors' addresses (1:
 * loaded without the symbol). */
static void stp_kmod_seen(struct module *mod, bool loaded)
{
	unsigned int i;

	for (i = 0; i < stp_module.nkmods; i++) {
		struct stp_kmod *k = &stp_module.kmods[i];
		unsigned long a = 0;

		if (strcmp(k->module, mod->name))
			continue;
		if (loaded) {
			a = stp_kmod_symbol(mod, k->symbol);
			if (a <= 1)
				a = 1;
		}
		WRITE_ONCE(k->addr, a);
	}
}

/* Loading: variables first, then the probes that may read them;
 * unloading: the other way round. */
static int stp_kmod_notify(struct notifier_block *nb, unsigned long val, void *data)
{
	if (val == MODULE_STATE_COMING) {
		mutex_lock(&stp_kmod_mutex);
		preempt_disable();
		stp_kmod_seen(data, true);
		preempt_enable();
		mutex_unlock(&stp_kmod_mutex);
		stp_kmod_families(data, true);
	} else if (val == MODULE_STATE_GOING) {
		stp_kmod_families(data, false);
		mutex_lock(&stp_kmod_mutex);
		preempt_disable();
		stp_kmod_seen(data, false);
		preempt_enable();
		mutex_unlock(&stp_kmod_mutex);
	}
	return NOTIFY_DONE;
}

static struct notifier_block stp_kmod_nb = { .notifier_call = stp_kmod_notify };
static bool stp_kmod_nb_registered;

/* The modules loaded now: the kernel's list of modules, walked from this
 * module's own entry (the list's head is not exported; it is the one entry
 * outside the modules' address range, where every struct module is).
 * @fn sees each module (not this one) that is loading or loaded, with
 * preemption off, until it returns true. */
static void stp_kmods_each(bool (*fn)(struct module *mod, void *arg), void *arg)
{
	struct list_head *p;
	unsigned int n = 0;

	preempt_disable();
	for (p = rcu_dereference_sched(list_next_rcu(&THIS_MODULE->list));
	     p != &THIS_MODULE->list && n < 65536;
	     p = rcu_dereference_sched(list_next_rcu(p)), n++) {
		struct module *mod;

		if ((unsigned long)p < MODULES_VADDR || (unsigned long)p >= MODULES_END)
			continue;	/* the list's head */
		mod = container_of(p, struct module, list);
		if (mod->state != MODULE_STATE_UNFORMED && mod->state != MODULE_STATE_GOING &&
		    fn(mod, arg))
			break;
	}
	preempt_enable();
}

static bool stp_kmod_scan_one(struct module *mod, void *arg)
{
	stp_kmod_seen(mod, true);
	return false;
}

struct stp_kmod_name {
	const char *name;
	size_t len;
	bool found;
};

static bool stp_kmod_is(struct module *mod, void *arg)
{
	struct stp_kmod_name *n = arg;

	n->found = strlen(mod->name) == n->len && !strncmp(mod->name, n->name, n->len);
	return n->found;
}

/* Is the module named by the @len characters at @name loaded? */
bool stp_kmod_is_loaded(const char *name, size_t len)
{
	struct stp_kmod_name n = { name, len, false };

	stp_kmods_each(stp_kmod_is, &n);
	return n.found;
}

/* At the session's start, before any probe: follow the modules. */
static int stp_kmods_start(void)
{
	int rc;

	if (!stp_kmod_wanted())
		return 0;
	rc = STP_FAULT_RC("module notifier", register_module_notifier(&stp_kmod_nb));
	if (rc)
		return rc;
	stp_kmod_nb_registered = true;
	mutex_lock(&stp_kmod_mutex);
	stp_kmods_each(stp_kmod_scan_one, NULL);
	mutex_unlock(&stp_kmod_mutex);
	return 0;
}

/* At the session's end, after the last probe. */
static void stp_kmods_stop(void)
{
	if (!stp_kmod_nb_registered)
		return;
	unregister_module_notifier(&stp_kmod_nb);
	stp_kmod_nb_registered = false;
}

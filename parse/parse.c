// SPDX-License-Identifier: GPL-2.0-or-later
/* parse.c: running the preprocessor and the grammar over one file. */
#include "parse/parse.h"

#include <string.h>

#include "parse/parse_internal.h"
#include "parse/parser.h"
#include "util/arena.h"
#include "util/diag.h"
#include "util/intern.h"
#include "util/source.h"
#include "session.h"

void parse_env_init(struct parse_env *env, struct arena *a, struct diag *d,
		    const struct session *sess, struct kernel_info *kinfo)
{
	env->arena = a;
	env->in = intern_new(a);
	env->diag = d;
	env->sess = sess;
	env->kinfo = kinfo;
	env->library_macros = macro_table_new(a);
	/* the paths of stap and staprun for the stap.* and staprun.*
	 * aliases: @__stap_exe, @__staprun_exe */
	if (sess && (sess->stap_exe || sess->staprun_exe)) {
		const struct source *src = source_from_mem(a, "<stap>", "", 0);

		if (sess->stap_exe)
			macro_define_string(env->library_macros, a, src,
					    intern(env->in, "__stap_exe"), sess->stap_exe);
		if (sess->staprun_exe)
			macro_define_string(env->library_macros, a, src,
					    intern(env->in, "__staprun_exe"),
					    sess->staprun_exe);
	}
}

static void parser_init(struct parser *p, struct parse_env *env,
			const struct source *src, bool library)
{
	memset(p, 0, sizeof(*p));
	p->arena = env->arena;
	p->in = env->in;
	p->diag = env->diag;
	p->sess = env->sess;
	p->kinfo = env->kinfo;
	p->library_macros = env->library_macros;
	p->file_macros = macro_table_new(env->arena);
	p->library = library;
	p->file = arena_new_obj(env->arena, struct ast_file);
	p->file->src = src;
	macro_push_source(p, src);
}

struct ast_file *parse_file(struct parse_env *env, const struct source *src,
			    bool library)
{
	struct parser p;

	parser_init(&p, env, src, library);
	parse_run(&p);
	lex_close(&p.lexer);
	/* An empty user script is an error, as in the reference. */
	if (!library && !p.parsed && !diag_errors(env->diag))
		diag_report(env->diag, DIAG_PLAIN, NULL, NULL,
			    "Input file '%s' is empty%s.", src->name,
			    p.lexed ? " after preprocessing" : "");
	return p.file;
}

bool parse_macro_file(struct parse_env *env, const struct source *src)
{
	unsigned before = diag_errors(env->diag);
	struct parser p;
	struct token tok;

	parser_init(&p, env, src, true);
	p.macro_file = true;
	while (pp_next(&p, &tok) != YYEOF) {
		parse_error_at(&p, &tok.loc, &tok,
			       "only @define is allowed in a macro library file");
		break;
	}
	lex_close(&p.lexer);
	return diag_errors(env->diag) == before;
}

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parser.y: the SystemTap script grammar (pure Bison). Each action is one
 * constructor or act_* helper call; checks and diagnostics live in
 * actions.c so this file stays a grammar. */
%code top {
#include "config.h"
}
%code requires {
#include "parse/actions.h"
}
%code provides {
int parse_run(struct parser *p);
}
%code {
#include "util/arena.h"

#define A (p->arena)
static int yylex(YYSTYPE *lval, YYLTYPE *lloc, struct parser *p);
static void yyerror(YYLTYPE *loc, struct parser *p, const char *msg);
}

%define api.pure full
%define parse.error custom
%define parse.lac full
%define api.push-pull pull
%locations
%param {struct parser *p}
%expect 0

%union {
	struct tokval tok;
	struct expr *expr;
	struct stmt *stmt;
	struct decl *decl;
	struct pp_component *comp;
	struct ptrvec vec;
	struct fe_head *fh;
	struct fe_var fv;
	struct gsize gs;
	int num;
	enum stap_type type;
}

%token <tok> IDENT TARGET NUMBER STRING EMBEDDED
%token <tok> K_PROBE K_GLOBAL K_PRIVATE K_FUNCTION K_IF K_ELSE K_FOR K_FOREACH
%token <tok> K_IN K_LIMIT K_RETURN K_DELETE K_WHILE K_BREAK K_CONTINUE K_NEXT
%token <tok> K_TRY K_CATCH K_STRING K_LONG
%token <tok> AT_CAST AT_VAR AT_ENTRY AT_DEFINED AT_PROBEWRITE AT_STATOP
%token <tok> AT_HIST_LOG AT_HIST_LINEAR AT_OP
%token STATS_ADD USHR SHL_ASSIGN SHR_ASSIGN ADD_ASSIGN SUB_ASSIGN MUL_ASSIGN
%token DIV_ASSIGN MOD_ASSIGN AND_ASSIGN OR_ASSIGN XOR_ASSIGN CAT_ASSIGN
%token EQ NE LE GE MATCH NOMATCH ANDAND OROR INC DEC ARROW SHL SHR
/* Seen only by the preprocessor; declared here so one enum covers all. */
%token PP_OPEN PP_THEN PP_ELSE PP_CLOSE ARG_DOLLAR ARG_AT ARG_COUNT AT_IDENT
%token LEX_ERROR
%token <tok> '*'

/* Precedence, lowest first. LOWEST marks the reductions that must yield
 * to a shift: an expression statement followed by an operator continues
 * the expression (statements need no separator), 'return' followed by an
 * expression returns it, a ';' after a simple statement belongs to it,
 * an 'else' binds to the nearest 'if', and adjacent string literals are
 * glued. These are the classic shift preferences, made explicit so that
 * %expect stays 0. */
%precedence LOWEST
%precedence THEN
%precedence K_ELSE
%precedence ';'
%precedence IDENT TARGET NUMBER STRING EMBEDDED AT_CAST AT_VAR AT_ENTRY
%precedence AT_DEFINED AT_PROBEWRITE AT_STATOP AT_HIST_LOG AT_HIST_LINEAR AT_OP
/* All assignment operators share one level (one %right line). */
%right '=' ADD_ASSIGN SUB_ASSIGN MUL_ASSIGN DIV_ASSIGN MOD_ASSIGN SHL_ASSIGN
       SHR_ASSIGN AND_ASSIGN OR_ASSIGN XOR_ASSIGN CAT_ASSIGN STATS_ADD
%right '?' ':'
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%left K_IN
%left EQ NE '<' '>' LE GE MATCH NOMATCH
%left SHL SHR USHR
%left '.'
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY '!' '~'
%precedence INC DEC
%precedence '(' '[' ARROW

%type <expr> expr opt_expr primary target string literal pp_param opt_cond
%type <expr> index hist in_array fe_array call
%type <stmt> stmt simple block
%type <vec> stmts args opt_args index_list pp_list pp_comps pp_group pp gvars params
%type <vec> alias_names strings
%type <vec> opt_params fe_var_list
%type <comp> pp_comp
%type <tok> pp_name pp_first pp_piece member keyword
%type <decl> fn_head gvar
%type <fh> fe_vars
%type <fv> fe_var fe_array_sort
%type <gs> gsize
%type <num> opt_sort pp_flags
%type <type> opt_type

%%

/* After a syntax error Bison discards tokens until a declaration can
 * start; once a whole declaration parses, errors are reported again. */
file:
	  %empty
	| file decl				{ yyerrok; }
	| file error				{ act_recover(p); }
	;

/* The keyword of a declaration re-enables error reports right away, so an
 * error in the declaration after a broken one is not swallowed. */
decl:
	  global_kw gvars			{ act_globals(p, &$2, false); }
	| global_kw gvars ';'			{ act_globals(p, &$2, false); }
	| private_kw global_kw gvars		{ act_globals(p, &$3, true); }
	| private_kw global_kw gvars ';'	{ act_globals(p, &$3, true); }
	| private_kw gvars			{ act_globals(p, &$2, true); }
	| private_kw gvars ';'			{ act_globals(p, &$2, true); }
	| function_kw fn_head block		{ act_function(p, $2, $3, NULL, false); }
	| function_kw fn_head EMBEDDED		{ act_function(p, $2, NULL, &$3, false); }
	| private_kw function_kw fn_head block	{ act_function(p, $3, $4, NULL, true); }
	| private_kw function_kw fn_head EMBEDDED { act_function(p, $3, NULL, &$4, true); }
	| probe_kw pp_list block		{ act_probe(p, @1, &$2, $3); }
	| probe_kw alias_names pp_list block	{ act_alias(p, @1, &$2, false, &$3, $4, NULL); }
	| probe_kw alias_names pp_list block ',' block
						{ act_alias(p, @1, &$2, false, &$3, $4, $6); }
	| probe_kw pp ADD_ASSIGN pp_list block	{ act_alias(p, @1, &$2, true, &$4, $5, NULL); }
	| EMBEDDED				{ yyerrok; act_top_embedded(p, @1, &$1); }
	;

global_kw: K_GLOBAL { yyerrok; } ;
private_kw: K_PRIVATE { yyerrok; } ;
function_kw: K_FUNCTION { yyerrok; } ;
probe_kw: K_PROBE { yyerrok; } ;

/* "probe a = b = pp1, pp2": every name before an '=' is an alias name. */
alias_names:
	  pp '='
	| alias_names pp '='			{ $$ = $1; act_pp_append(p, &$$, &$2); }
	;

gvars:
	  gvar					{ $$ = (struct ptrvec){0}; vec_push(A, &$$, $1); }
	| gvars ',' gvar			{ $$ = $1; vec_push(A, &$$, $3); }
	;

gvar:
	  IDENT gsize				{ $$ = act_gvar(p, @1, &$1, &$2, NULL); }
	| IDENT gsize '=' literal		{ $$ = act_gvar(p, @1, &$1, &$2, $4); }
	;

gsize:
	  %empty				{ $$ = (struct gsize){ 0, false }; }
	| '[' NUMBER ']'			{ $$ = (struct gsize){ (int64_t)$2.num, false }; }
	| '%'					{ $$ = (struct gsize){ 0, true }; }
	| '%' '[' NUMBER ']'			{ $$ = (struct gsize){ (int64_t)$3.num, true }; }
	;

literal:
	  NUMBER				{ $$ = ast_number(A, (int64_t)$1.num, @1); }
	| '-' NUMBER				{ $$ = ast_unary(A, OP_NEG, ast_number(A, (int64_t)$2.num, @2), @1); }
	| string
	;

fn_head:
	  IDENT opt_type '(' opt_params ')'	{ $$ = act_fn_head(p, @1, &$1, $2, &$4, NULL); }
	| IDENT opt_type '(' opt_params ')' ':' NUMBER
						{ $$ = act_fn_head(p, @1, &$1, $2, &$4, &$7); }
	;

opt_type:
	  %empty				{ $$ = TYPE_UNKNOWN; }
	| ':' K_LONG				{ $$ = TYPE_LONG; }
	| ':' K_STRING				{ $$ = TYPE_STRING; }
	;

opt_params:
	  %empty				{ $$ = (struct ptrvec){0}; }
	| params
	;

params:
	  IDENT opt_type			{ $$ = (struct ptrvec){0}; act_param(p, &$$, @1, &$1, $2); }
	| params ',' IDENT opt_type		{ $$ = $1; act_param(p, &$$, @3, &$3, $4); }
	;

/* ---- probe points ---- */

/* Probe points come out brace-expanded: a.{b,c}.d is a.b.d and a.c.d. */
pp_list:
	  pp
	| pp_list ',' pp			{ $$ = $1; act_pp_append(p, &$$, &$3); }
	;

pp:
	  pp_comps pp_flags opt_cond		{ $$ = act_pp_finish(p, &$1, $2, $3); }
	;

pp_flags:
	  %empty				{ $$ = 0; }
	| '?'					{ $$ = 1; }
	| '!'					{ $$ = 2; }
	;

opt_cond:
	  %empty				{ $$ = NULL; }
	| K_IF '(' expr ')'			{ $$ = $3; }
	;

pp_comps:
	  pp_group
	| pp_comps '.' pp_group			{ $$ = act_pp_product(p, &$1, &$3, @3); }
	;

pp_group:
	  pp_comp				{ $$ = act_pp_single(p, $1); }
	| '{' pp_list '}'			{ $$ = $2; }
	;

pp_comp:
	  pp_name				{ $$ = act_pp_comp(p, @1, &$1, NULL); }
	| pp_name '(' pp_param ')'		{ $$ = act_pp_comp(p, @1, &$1, $3); }
	;

/* A component name is made of adjacent pieces: sys**open, vfs_*. */
pp_name:
	  pp_first
	| pp_name pp_piece			{ $$ = act_pp_glue(p, &$1, &$2, @2); }
	;

pp_first:
	  IDENT | '*' | keyword
	;

/* Keywords are names again after '.' in a probe point and after '->'. */
keyword:
	  K_PROBE | K_GLOBAL | K_PRIVATE | K_FUNCTION | K_IF | K_ELSE | K_FOR
	| K_FOREACH | K_IN | K_LIMIT | K_RETURN | K_DELETE | K_WHILE | K_BREAK
	| K_CONTINUE | K_NEXT | K_TRY | K_CATCH | K_STRING | K_LONG
	;

pp_piece:
	  IDENT | NUMBER | '*'
	;

pp_param:
	  NUMBER				{ $$ = ast_number(A, (int64_t)$1.num, @1); }
	| '-' NUMBER				{ $$ = ast_unary(A, OP_NEG, ast_number(A, (int64_t)$2.num, @2), @1); }
	| string
	;

/* ---- statements ---- */

block:
	  '{' stmts '}'				{ $$ = ast_block(A, &$2, @1); }
	;

stmts:
	  %empty				{ $$ = (struct ptrvec){0}; }
	| stmts stmt				{ $$ = $1; vec_push(A, &$$, $2); }
	;

stmt:
	  block
	| ';'					{ $$ = ast_stmt(A, STMT_NULL, @1); }
	| simple ';'
	| simple %prec LOWEST
	| K_IF '(' expr ')' stmt %prec THEN	{ $$ = ast_if(A, $3, $5, NULL, @1); }
	| K_IF '(' expr ')' stmt K_ELSE stmt	{ $$ = ast_if(A, $3, $5, $7, @1); }
	| K_WHILE '(' expr ')' stmt		{ $$ = ast_loop(A, STMT_WHILE, NULL, $3, NULL, $5, @1); }
	| K_FOR '(' opt_expr ';' opt_expr ';' opt_expr ')' stmt
						{ $$ = ast_loop(A, STMT_FOR, $3, $5, $7, $9, @1); }
	| K_FOREACH '(' fe_vars K_IN fe_array fe_array_sort ')' stmt
						{ $$ = act_foreach(p, @1, $3, $5, &$6, NULL, $8); }
	| K_FOREACH '(' fe_vars K_IN fe_array fe_array_sort K_LIMIT expr ')' stmt
						{ $$ = act_foreach(p, @1, $3, $5, &$6, $8, $10); }
	| K_TRY block K_CATCH block		{ $$ = ast_try(A, $2, NULL, $4, @1); }
	| K_TRY block K_CATCH '(' IDENT ')' block
						{ $$ = ast_try(A, $2, ast_symbol(A, $5.text, @5), $7, @1); }
	;

simple:
	  expr %prec LOWEST			{ $$ = ast_stmt_expr(A, STMT_EXPR, $1, @1); }
	| K_BREAK				{ $$ = ast_stmt(A, STMT_BREAK, @1); }
	| K_CONTINUE				{ $$ = ast_stmt(A, STMT_CONTINUE, @1); }
	| K_NEXT				{ $$ = ast_stmt(A, STMT_NEXT, @1); }
	| K_RETURN %prec LOWEST			{ $$ = act_return(p, @1, NULL); }
	| K_RETURN expr %prec LOWEST		{ $$ = act_return(p, @1, $2); }
	| K_DELETE expr %prec LOWEST		{ $$ = ast_stmt_expr(A, STMT_DELETE, $2, @1); }
	;

opt_expr:
	  %empty				{ $$ = NULL; }
	| expr
	;

fe_vars:
	  fe_var				{ $$ = act_fe_keys(p, NULL, &$1, NULL, false); }
	| '[' fe_var_list ']'			{ $$ = act_fe_keys(p, NULL, NULL, &$2, true); }
	| fe_var '=' fe_var			{ $$ = act_fe_keys(p, &$1, &$3, NULL, false); }
	| fe_var '=' '[' fe_var_list ']'	{ $$ = act_fe_keys(p, &$1, NULL, &$4, true); }
	;

fe_var_list:
	  fe_var				{ $$ = (struct ptrvec){0}; act_fe_push(p, &$$, &$1); }
	| fe_var_list ',' fe_var		{ $$ = $1; act_fe_push(p, &$$, &$3); }
	;

fe_var:
	  IDENT opt_sort			{ $$ = (struct fe_var){ ast_symbol(A, $1.text, @1), $2, NULL, @2 }; }
	;

opt_sort:
	  %empty				{ $$ = 0; }
	| '+'					{ $$ = 1; }
	| '-'					{ $$ = -1; }
	;

fe_array:
	  IDENT					{ $$ = ast_symbol(A, $1.text, @1); }
	| IDENT '[' index_list ']'		{ $$ = ast_index(A, ast_symbol(A, $1.text, @1), &$3, @1); }
	| hist
	;

fe_array_sort:
	  opt_sort				{ $$ = (struct fe_var){ NULL, $1, NULL, @1 }; }
	| AT_STATOP opt_sort			{ $$ = (struct fe_var){ NULL, $2, $1.text, @2 }; }
	;

/* ---- expressions ---- */

expr:
	  expr '=' expr				{ $$ = act_depth(p, ast_assign(A, OP_ASSIGN, $1, $3, @2)); }
	| expr ADD_ASSIGN expr			{ $$ = act_depth(p, ast_assign(A, OP_ADD_ASSIGN, $1, $3, @2)); }
	| expr SUB_ASSIGN expr			{ $$ = act_depth(p, ast_assign(A, OP_SUB_ASSIGN, $1, $3, @2)); }
	| expr MUL_ASSIGN expr			{ $$ = act_depth(p, ast_assign(A, OP_MUL_ASSIGN, $1, $3, @2)); }
	| expr DIV_ASSIGN expr			{ $$ = act_depth(p, ast_assign(A, OP_DIV_ASSIGN, $1, $3, @2)); }
	| expr MOD_ASSIGN expr			{ $$ = act_depth(p, ast_assign(A, OP_MOD_ASSIGN, $1, $3, @2)); }
	| expr SHL_ASSIGN expr			{ $$ = act_depth(p, ast_assign(A, OP_SHL_ASSIGN, $1, $3, @2)); }
	| expr SHR_ASSIGN expr			{ $$ = act_depth(p, ast_assign(A, OP_SHR_ASSIGN, $1, $3, @2)); }
	| expr AND_ASSIGN expr			{ $$ = act_depth(p, ast_assign(A, OP_AND_ASSIGN, $1, $3, @2)); }
	| expr OR_ASSIGN expr			{ $$ = act_depth(p, ast_assign(A, OP_OR_ASSIGN, $1, $3, @2)); }
	| expr XOR_ASSIGN expr			{ $$ = act_depth(p, ast_assign(A, OP_XOR_ASSIGN, $1, $3, @2)); }
	| expr CAT_ASSIGN expr			{ $$ = act_depth(p, ast_assign(A, OP_CAT_ASSIGN, $1, $3, @2)); }
	| expr STATS_ADD expr			{ $$ = act_depth(p, ast_assign(A, OP_STATS_ADD, $1, $3, @2)); }
	| expr '?' expr ':' expr		{ $$ = act_depth(p, ast_ternary(A, $1, $3, $5, @2)); }
	| expr OROR expr			{ $$ = act_depth(p, ast_binary(A, OP_LOR, $1, $3, @2)); }
	| expr ANDAND expr			{ $$ = act_depth(p, ast_binary(A, OP_LAND, $1, $3, @2)); }
	| expr '|' expr				{ $$ = act_depth(p, ast_binary(A, OP_BOR, $1, $3, @2)); }
	| expr '^' expr				{ $$ = act_depth(p, ast_binary(A, OP_BXOR, $1, $3, @2)); }
	| expr '&' expr				{ $$ = act_depth(p, ast_binary(A, OP_BAND, $1, $3, @2)); }
	| expr K_IN in_array			{ $$ = act_depth(p, act_in(p, @2, $1, NULL, $3)); }
	| '[' index_list ']' K_IN in_array	{ $$ = act_depth(p, act_in(p, @4, NULL, &$2, $5)); }
	| expr EQ expr				{ $$ = act_depth(p, ast_binary(A, OP_EQ, $1, $3, @2)); }
	| expr NE expr				{ $$ = act_depth(p, ast_binary(A, OP_NE, $1, $3, @2)); }
	| expr '<' expr				{ $$ = act_depth(p, ast_binary(A, OP_LT, $1, $3, @2)); }
	| expr '>' expr				{ $$ = act_depth(p, ast_binary(A, OP_GT, $1, $3, @2)); }
	| expr LE expr				{ $$ = act_depth(p, ast_binary(A, OP_LE, $1, $3, @2)); }
	| expr GE expr				{ $$ = act_depth(p, ast_binary(A, OP_GE, $1, $3, @2)); }
	| expr MATCH expr			{ $$ = act_depth(p, act_regex(p, @2, OP_MATCH, $1, $3)); }
	| expr NOMATCH expr			{ $$ = act_depth(p, act_regex(p, @2, OP_NOMATCH, $1, $3)); }
	| expr SHL expr				{ $$ = act_depth(p, ast_binary(A, OP_SHL, $1, $3, @2)); }
	| expr SHR expr				{ $$ = act_depth(p, ast_binary(A, OP_SHR, $1, $3, @2)); }
	| expr USHR expr			{ $$ = act_depth(p, ast_binary(A, OP_USHR, $1, $3, @2)); }
	| expr '.' expr				{ $$ = act_depth(p, ast_binary(A, OP_CONCAT, $1, $3, @2)); }
	| expr '+' expr				{ $$ = act_depth(p, ast_binary(A, OP_ADD, $1, $3, @2)); }
	| expr '-' expr				{ $$ = act_depth(p, ast_binary(A, OP_SUB, $1, $3, @2)); }
	| expr '*' expr				{ $$ = act_depth(p, ast_binary(A, OP_MUL, $1, $3, @2)); }
	| expr '/' expr				{ $$ = act_depth(p, ast_binary(A, OP_DIV, $1, $3, @2)); }
	| expr '%' expr				{ $$ = act_depth(p, ast_binary(A, OP_MOD, $1, $3, @2)); }
	| '-' expr %prec UNARY			{ $$ = act_depth(p, ast_unary(A, OP_NEG, $2, @1)); }
	| '+' expr %prec UNARY			{ $$ = act_depth(p, ast_unary(A, OP_PLUS, $2, @1)); }
	| '!' expr				{ $$ = act_depth(p, ast_unary(A, OP_NOT, $2, @1)); }
	| '~' expr				{ $$ = act_depth(p, ast_unary(A, OP_BNOT, $2, @1)); }
	| INC expr %prec UNARY			{ $$ = act_depth(p, ast_crement(A, OP_PREINC, $2, @1)); }
	| DEC expr %prec UNARY			{ $$ = act_depth(p, ast_crement(A, OP_PREDEC, $2, @1)); }
	| '&' expr %prec UNARY			{ $$ = act_addr_of(p, @1, $2); }
	| primary INC				{ $$ = act_depth(p, ast_crement(A, OP_POSTINC, $1, @2)); }
	| primary DEC				{ $$ = act_depth(p, ast_crement(A, OP_POSTDEC, $1, @2)); }
	| primary %prec LOWEST
	;

in_array:
	  IDENT					{ $$ = ast_symbol(A, $1.text, @1); }
	| hist
	;

primary:
	  NUMBER				{ $$ = ast_number(A, (int64_t)$1.num, @1); }
	| string %prec LOWEST
	| IDENT %prec LOWEST			{ $$ = ast_symbol(A, $1.text, @1); }
	| call %prec LOWEST
	| IDENT '[' index_list ']'		{ $$ = ast_index(A, ast_symbol(A, $1.text, @1), &$3, @1); }
	| '(' expr ')' %prec LOWEST		{ $$ = $2; }
	| target %prec LOWEST
	| EMBEDDED				{ $$ = act_embedded_expr(p, @1, &$1); }
	| AT_ENTRY '(' expr ')'			{ $$ = ast_with_operand(A, EXPR_ENTRY, $3, @1); }
	| AT_DEFINED '(' expr ')'		{ $$ = ast_with_operand(A, EXPR_DEFINED, $3, @1); }
	| AT_PROBEWRITE '(' IDENT ')'		{ $$ = act_probewrite(p, @1, &$3); }
	| AT_STATOP '(' args ')'		{ $$ = act_stat(p, @1, &$1, &$3); }
	| hist %prec LOWEST
	| hist '[' expr ']'			{ struct ptrvec v = {0}; vec_push(A, &v, $3); $$ = ast_index(A, $1, &v, @2); }
	| AT_OP '(' opt_args ')'		{ $$ = act_atop(p, @1, &$1, &$3); }
	;

hist:
	  AT_HIST_LOG '(' expr ')'		{ $$ = ast_hist(A, HIST_LOG, $3, NULL, @1); }
	| AT_HIST_LINEAR '(' expr ',' args ')'	{ $$ = act_hist_linear(p, @1, $3, &$5); }
	;

target:
	  TARGET				{ $$ = act_target(p, @1, &$1); }
	| AT_CAST '(' expr ',' string ')'	{ $$ = act_cast(p, @1, $3, $5, NULL); }
	| AT_CAST '(' expr ',' string ',' string ')'
						{ $$ = act_cast(p, @1, $3, $5, $7); }
	| AT_VAR '(' string ')'			{ $$ = act_atvar(p, @1, $3, NULL); }
	| AT_VAR '(' string ',' string ')'	{ $$ = act_atvar(p, @1, $3, $5); }
	| IDENT ARROW member			{ $$ = act_target_field(p, act_deref(p, @2, ast_symbol(A, $1.text, @1)), @2, &$3); }
	| call ARROW member			{ $$ = act_target_field(p, act_deref(p, @2, $1), @2, &$3); }
	| '(' expr ')' ARROW member		{ $$ = act_target_field(p, act_deref(p, @4, $2), @4, &$5); }
	| '(' expr ')' '[' expr ']'		{ $$ = act_target_index(p, act_deref(p, @1, $2), @4, $5); }
	| target ARROW member			{ $$ = act_target_field(p, $1, @2, &$3); }
	| target ARROW TARGET			{ $$ = act_target_pretty(p, $1, @3, &$3); }
	| target '[' expr ']'			{ $$ = act_target_index(p, $1, @2, $3); }
	;

call:
	  IDENT '(' opt_args ')'		{ $$ = act_call(p, @1, &$1, &$3); }
	;

member:
	  IDENT | keyword
	;

/* Adjacent literals are one string: gathered, then joined once. */
string:
	  strings %prec LOWEST			{ $$ = act_string(p, @1, &$1); }
	;

strings:
	  STRING				{ $$ = (struct ptrvec){0}; act_string_piece(p, &$$, &$1); }
	| strings STRING			{ $$ = $1; act_string_piece(p, &$$, &$2); }
	;

opt_args:
	  %empty				{ $$ = (struct ptrvec){0}; }
	| args
	;

args:
	  expr					{ $$ = (struct ptrvec){0}; vec_push(A, &$$, $1); }
	| args ',' expr				{ $$ = $1; vec_push(A, &$$, $3); }
	;

index_list:
	  index					{ $$ = (struct ptrvec){0}; vec_push(A, &$$, $1); }
	| index_list ',' index			{ $$ = $1; vec_push(A, &$$, $3); }
	;

index:
	  expr
	| '*'					{ $$ = ast_expr(A, EXPR_WILDCARD, @1); }
	;

%%

static int yylex(YYSTYPE *lval, YYLTYPE *lloc, struct parser *p)
{
	struct token *t = &p->last;
	int kind = pp_next(p, t);

	if (!t->text)
		t->text = token_spelling(p, kind);
	lval->tok.text = t->text;
	lval->tok.len = t->len;
	lval->tok.num = t->num;
	lval->tok.space_before = t->space_before;
	*lloc = t->loc;
	return kind;
}

/* Only for Bison's own failures (its stack exhausted); syntax errors go
 * through yyreport_syntax_error. */
static void yyerror(YYLTYPE *loc, struct parser *p, const char *msg)
{
	parse_error_at(p, loc, NULL, "%s (script nested too deeply)", msg);
}

/* Bison keeps only the token-to-symbol table; invert it for messages. */
static int symbol_to_token(yysymbol_kind_t sym)
{
	int code;

	if (sym == YYSYMBOL_YYEOF)
		return YYEOF;
	for (code = 1; code <= LEX_ERROR; code++)
		if (YYTRANSLATE(code) == sym)
			return code;
	return -1;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, struct parser *p)
{
	yysymbol_kind_t expected[YYNTOKENS];
	int n = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
	int kinds[YYNTOKENS], i;

	if (n < 0)
		n = 0;
	for (i = 0; i < n; i++)
		kinds[i] = symbol_to_token(expected[i]);
	act_syntax_error(p, kinds, n);
	return 0;
}

int parse_run(struct parser *p)
{
	return yyparse(p);
}

/* cmd_lsp.c - `mcpdesc lsp`: the language server on standard input and output
 * (src/lsp/). This file is its host: it loads the rule set as `validate` selects it
 * (--rules/--rules-tag, else the config's rules, else the default; the preset and the
 * config's levels through cmd_filters) and applies the config's levels and the
 * suppressions to each judged description. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "cli/cmd.h"
#include "cli/cmd_common.h"
#include "cli/cmd_config.h"
#include "findings/suppress.h"
#include "lsp/lsp.h"

static const char *const options[] = {"--rules",     "--rules-tag", "--preset", "--config",
                                      "--no-config", "--debounce",  "--help",   NULL};

static void usage(FILE *f)
{
    fputs("usage: mcpdesc lsp [--rules DIR | --rules-tag TAG] [--preset PRESET]\n"
          "                   [--config FILE | --no-config] [--debounce MS]\n"
          "\n"
          "A Language Server Protocol 3.17 server on standard input and output, for editors:\n"
          "diagnostics of descriptions, rule files, manifests and the config as you type,\n"
          "hover, go to definition, completion in rule files and of description members\n"
          "(from the format's schema, mcp-description.schema.json), and quick fixes (the\n"
          "rules' fixes, and suppressing a finding with a reason). docs/editors.md sets it\n"
          "up in Neovim, Helix, Emacs and VS Code.\n"
          "\n"
          "  --rules DIR       the rule set directory (as validate)\n"
          "  --rules-tag TAG   a released rule set (as validate)\n"
          "  --preset PRESET   recommended (default), strict or all: which rules run\n"
          "  --config FILE     the config (default: .mcpdesc.yaml of the workspace folder, else\n"
          "                    found upward from the working directory, as validate)\n"
          "  --no-config       read no config\n"
          "  --debounce MS     delay from an edit to its re-judge (default 150; the client's\n"
          "                    initializationOptions.debounceMs overrides it)\n"
          "\n"
          "Exit status: 0 after shutdown and exit, 1 when the input ends otherwise, 2 on bad\n"
          "usage.\n",
          f);
}

struct lsp_opts {
    const char *rules_dir, *rules_tag, *preset, *config_file;
    int no_config;
};

/* What one load gives: the config, the rule set and the filter over them. */
struct loaded {
    struct config *cfg;
    struct rule_set *rs;
    struct cmd_filters filt;
    struct eval_options eo;
};

static void loaded_free(struct loaded *l)
{
    if (!l) return;
    rule_set_free(l->rs);
    config_free(l->cfg);
    free(l);
}

/* The config of the workspace ROOT: ROOT/.mcpdesc.yaml (or .yml) when there is one, else
 * validate's search from the working directory. 0, or 2 after a message. */
static int find_config(const struct lsp_opts *o, const char *root, char **path)
{
    *path = NULL;
    if (!o->config_file && !o->no_config && root) {
        const char *nodisc = getenv("MCPDESC_NO_CONFIG");
        if (!nodisc || !*nodisc || !strcmp(nodisc, "0")) {
            static const char *const names[] = {CMD_CONFIG_NAMES};
            for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
                char *p = xasprintf("%s/%s", root, names[i]);
                if (access(p, R_OK) == 0) {
                    *path = p;
                    return 0;
                }
                free(p);
            }
        }
    }
    return cmd_config_find(o->config_file, o->no_config, path);
}

static int load(void *arg, const char *root, struct lsp_rules *out, char **why)
{
    const struct lsp_opts *o = arg;
    struct loaded *l = xcalloc(1, sizeof *l);
    char *cfg_path = NULL;
    /* the loaders write their errors to standard error (the editor's log) */
    if (find_config(o, root, &cfg_path) != 0) {
        *why = xstrdup("the config could not be found (see the server's log)");
        loaded_free(l);
        return -1;
    }
    if (cfg_path && !(l->cfg = cmd_config_load(cfg_path))) {
        *why = xasprintf("the config %s has errors", cfg_path);
        free(cfg_path);
        loaded_free(l);
        return -1;
    }
    free(cfg_path);
    if (l->cfg && l->cfg->rules.len && !o->rules_dir && !o->rules_tag)
        l->rs = cmd_config_rules(l->cfg);
    else l->rs = cmd_load_rules_tagged(o->rules_dir, o->rules_tag);
    if (!l->rs) {
        *why = xstrdup("the rule set has errors (see the server's log, or mcpdesc rules lint)");
        loaded_free(l);
        return -1;
    }
    const char *preset = o->preset   ? o->preset
        : l->cfg && l->cfg->preset.s ? l->cfg->preset.s
                                     : "recommended";
    if (rule_preset_parse(preset, &l->filt.preset) < 0) {
        *why = xasprintf("--preset takes %s, not '%s'", rule_preset_names(), preset);
        loaded_free(l);
        return -1;
    }
    l->filt.cfg = l->cfg;
    l->filt.rs = l->rs;
    /* the items of a large document on every core: an edit's diagnostics come sooner */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    l->eo = (struct eval_options){
        .enabled = cmd_rule_enabled, .enabled_arg = &l->filt, .workers = cpus > 1 ? cpus : 1};
    *out = (struct lsp_rules){l->rs, &l->eo, l, cmd_docs_url(NULL, l->cfg, l->rs)};
    return 0;
}

static void unload(void *arg, struct lsp_rules *r)
{
    loaded_free(r->handle);
}

/* The inline suppressions, the config's levels and its suppressions, as validate
 * applies them. */
static void apply(void *arg, const struct lsp_rules *r, const char *path, const doc *d,
                  struct diag_list *diags)
{
    const struct loaded *l = r->handle;
    char today[11];
    if (suppress_today(today) < 0) return;
    struct cmd_judged_run run = {&l->eo, l->cfg, today, NULL};
    cmd_validate_filter(&run, l->rs, d, path, diags);
}

static int ignored(void *arg, const struct lsp_rules *r, const char *path)
{
    const struct loaded *l = r->handle;
    return l->cfg && path && config_ignored(l->cfg, path);
}

int cmd_lsp(int argc, char **argv)
{
    struct lsp_opts o = {0};
    long debounce = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
#define OPT(name)                                                                                  \
    (!strcmp(a, name) || (!strncmp(a, name "=", sizeof(name)) && a[sizeof(name) - 1] == '='))
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (OPT("--rules")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--rules"))) return 2;
            if (cmd_option_once("lsp", "--rules", &o.rules_dir, v) < 0) return 2;
        } else if (OPT("--rules-tag")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--rules-tag"))) return 2;
            if (cmd_option_once("lsp", "--rules-tag", &o.rules_tag, v) < 0) return 2;
        } else if (OPT("--preset")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--preset"))) return 2;
            o.preset = v;
        } else if (OPT("--config")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--config"))) return 2;
            o.config_file = v;
        } else if (!strcmp(a, "--no-config")) {
            o.no_config = 1;
        } else if (OPT("--debounce")) {
            if (!(v = cmd_option_value(argc, argv, &i, "--debounce"))) return 2;
            char *end;
            debounce = strtol(v, &end, 10);
            if (!*v || *end || debounce < 0 || debounce > 60000) {
                fprintf(stderr,
                        "mcpdesc lsp: --debounce takes milliseconds (0 to 60000), not "
                        "'%s'\n",
                        v);
                return 2;
            }
        } else {
            cmd_unknown_option("lsp", a, options);
            return 2;
        }
#undef OPT
    }
    if (o.config_file && o.no_config) {
        fprintf(stderr, "mcpdesc lsp: --config and --no-config contradict each other\n");
        return 2;
    }
    enum rule_preset p;
    if (o.preset && rule_preset_parse(o.preset, &p) < 0) {
        fprintf(stderr, "mcpdesc lsp: --preset takes %s, not '%s'\n", rule_preset_names(),
                o.preset);
        return 2;
    }
    /* a client that goes away is an end of input, not a signal */
    signal(SIGPIPE, SIG_IGN);
    struct lsp_host host = {load, unload, apply, &o, ignored};
    lsp_server *s = lsp_server_new(&host, debounce);
    int st = lsp_run(s, STDIN_FILENO, STDOUT_FILENO, 0);
    lsp_server_free(s);
    return st;
}

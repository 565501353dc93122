/* cmd_config.h - the config file on the command line (docs/config.md): finding
 * .mcpdesc.yaml (or --config FILE), loading it with findings/config.h, and loading the rule
 * sets its `rules` names. How its keys rank against the options is cmd_validate.c's:
 * the command line over the config over the preset. */
#ifndef MCPDESC_CMD_CONFIG_H
#define MCPDESC_CMD_CONFIG_H

#include "findings/config.h"
#include "rules/rule.h"

/* The names looked for, in this order, in each directory. */
#define CMD_CONFIG_NAMES ".mcpdesc.yaml", ".mcpdesc.yml"

/* The config of this run, new, or NULL for none: GIVEN (--config FILE) when not NULL;
 * none with NONE (--no-config) or when MCPDESC_NO_CONFIG is set (not empty, not "0");
 * else the first directory from the working directory upward that holds .mcpdesc.yaml or
 * .mcpdesc.yml, stopping after a repository root (a directory holding .git) or /. The
 * path is relative to the working directory when found (".mcpdesc.yaml",
 * "../.mcpdesc.yaml"). Returns 0, or 2 after a message (both names in one directory). */
int cmd_config_find(const char *given, int none, char **path);
/* Load the config at PATH, printing each error as PATH:line:col: error: message. NULL on
 * failure (the caller exits 2). */
struct config *cmd_config_load(const char *path);
/* The rule set the config's `rules` names (the shipped set `mcpdesc-mcp`, a release
 * NAME@TAG found as --rules-tag finds it, or a path relative to the config's directory;
 * a list is a chain, each set extending the one before it). NULL after messages. */
struct rule_set *cmd_config_rules(const struct config *c);

#endif

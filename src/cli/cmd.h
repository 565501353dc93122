/* cmd.h - command families of the CLI. Each takes argv with argv[0] = its own name
 * ("validate", "rules", ...) and returns the process exit status: 0 ok, 1 findings,
 * 2 bad usage, unreadable input or rule set. */
#ifndef MCPDESC_CMD_H
#define MCPDESC_CMD_H

int cmd_validate(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_capture(int argc, char **argv);

#endif

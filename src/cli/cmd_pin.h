/* cmd_pin.h - `mcpdesc rules pin`: the lockfile habit of npm and Go for rule sets
 * (docs/releases.md, "Pinning a digest"). Rewrites each release a config's `rules:` names
 * (NAME@TAG, or the shipped set mcpdesc-mcp) to NAME@TAG@sha256:HEX, the digest of the
 * release that runs today, in place: nothing else of the file changes, comments and layout
 * included. A pin already there is checked, never moved. */
#ifndef MCPDESC_CMD_PIN_H
#define MCPDESC_CMD_PIN_H

/* Pin the config GIVEN (--config FILE), or the one found as validate finds it. Exit
 * status: 0 (written, or nothing to pin), 2 after a message. */
int cmd_pin_config(const char *given);

#endif

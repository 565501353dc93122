/* regex_jit.h - PCRE2's JIT compiled on a pattern's first match rather than at load: a
 * rule set holds hundreds of patterns and a run on a small description matches few of
 * them, while JIT-compiling one costs more than many interpreted matches. Safe when the
 * items of a document are judged on several threads at once. */
#ifndef MCPDESC_REGEX_JIT_H
#define MCPDESC_REGEX_JIT_H

#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

#include "base/once.h"

/* A pattern's JIT state: REGEX_JIT_INIT (zero, as xcalloc leaves it) until the first
 * match. */
typedef once_state regex_jit_state;
#define REGEX_JIT_INIT ONCE_INIT

/* 1 when CODE is JIT-compiled (pcre2_jit_match may run it), 0 when PCRE2 has no JIT or
 * it failed (the interpreter serves, with the same limits). Compiles it on the first
 * call for STATE, once, under a lock; every later call is one atomic load. Call it
 * before any match of CODE (pcre2_match too, which runs the JIT's code once there is
 * one), so that every match of a pattern runs on the same engine. */
int regex_jit_ready(pcre2_code *code, regex_jit_state *state);

#endif

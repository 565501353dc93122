/* cmd_validate.c - placeholder until the 'validate' command lands: says so and exits 2. */
#include <stdio.h>

#include "cmd.h"

int cmd_validate(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "mcpdesc: '%s' is not implemented yet\n", argv[0]);
    return 2;
}

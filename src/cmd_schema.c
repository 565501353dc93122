/* cmd_schema.c - placeholder until the 'schema' command lands: says so and exits 2. */
#include <stdio.h>

#include "cmd.h"

int cmd_schema(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "mcpdesc: '%s' is not implemented yet\n", argv[0]);
    return 2;
}

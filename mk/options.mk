# mk/options.mk - one set of options: `check-options` (in `make check`) compares, for every
# command and subcommand, the options of its --help, of the man page (docs/mcpdesc.1), of
# the bash completion (tools/mcpdesc.bash-completion, run in bash without extglob: file
# names with spaces complete whole) and of the C option tables of src/cli, and fails
# naming each option missing from one of them (tests/check-options.sh; without bash the
# completion is skipped through tests/skip.sh).

.PHONY: check-options
check-options: $(BUILD)/mcpdesc
	sh tests/check-options.sh $(BUILD)/mcpdesc

EXTRA_CHECKS += check-options

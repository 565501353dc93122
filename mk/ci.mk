# mk/ci.mk - what CI users install (issue 18), run by `make check` plain and under
# ASan+UBSan (BUILD=build/san SAN=1); neither needs the network:
#   test-precommit  the hooks of .pre-commit-hooks.yaml under Debian's pre-commit
#                   (try-repo and a real `git commit` on scratch repositories; skipped
#                   with a message when pre-commit is not installed; about 10 s)
#   test-github-action  tools/github-action.sh, the run step of action.yml, under a
#                   simulated GitHub Actions environment (tests/github-action.sh)
.PHONY: test-precommit test-github-action
test-precommit: $(BUILD)/mcpdesc
	sh tests/precommit.sh $(BUILD)/mcpdesc

test-github-action: $(BUILD)/mcpdesc
	sh tests/github-action.sh $(BUILD)/mcpdesc

EXTRA_CHECKS += test-precommit test-github-action

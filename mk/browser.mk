# mk/browser.mk - the html report and the pages of `rules docs` in a real browser, run
# by `make check` (plain and under ASan+UBSan, as every EXTRA_CHECKS):
#   test-browser  headless Chromium (Debian's chromium; skipped with a message when it
#                 is not installed) loads the html report of a few runs and the index, a
#                 rule and a version page of `rules docs`: every finding of the JSON report
#                 in the DOM, no console message, no request to the network; a screenshot
#                 of each page is kept in build/browser/ (tests/browser.sh)
.PHONY: test-browser
test-browser: $(BUILD)/mcpdesc
	BROWSER_OUT='$(BUILD)/browser' sh tests/browser.sh $(BUILD)/mcpdesc

EXTRA_CHECKS += test-browser

# mk/install.mk - `make install PREFIX=... [DESTDIR=...]`: the binary; every shipped
# release (PREFIX/share/mcpdesc/releases/NAME@TAG, found by --rules-tag, with its findings
# record and changes log NAME@TAG.findings and .changes beside it) and the default
# rule set PREFIX/share/mcpdesc/rules (where the binary looks without --rules: a link to
# the release of the manifest's tag, tools/install-rules.sh); the description format's
# JSON Schemas (PREFIX/share/mcpdesc/schema); libmcpdesc.a with its public header
# mcpdesc.h and a pkg-config file, the man page and bash completion. `make uninstall`
# removes all of it, and the directories install made once they are empty. `test-install`
# (run by `make check`, plain and under the sanitizers) installs into a temporary prefix,
# uses it with the checkout out of reach, builds tests/embed/example.c through pkg-config
# against what was installed, and uninstalls to an empty prefix.

BINDIR      ?= $(PREFIX)/bin
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
SHAREDIR    := $(PREFIX)/share/mcpdesc
RULESDIR    := $(SHAREDIR)/rules
SCHEMADIR   := $(SHAREDIR)/schema
INSTALL     ?= install

# The objects that compile in MCPDESC_DATADIR (from PREFIX) are rebuilt when PREFIX
# changes, so `make install PREFIX=/opt/x` never installs a binary or library that
# looks for its rules under another prefix. The stamp's time changes only with its text.
PREFIX_STAMP := $(BUILD)/.prefix
.PHONY: install-prefix-force
$(PREFIX_STAMP): install-prefix-force | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@echo '$(PREFIX)' | cmp -s - $@ 2>/dev/null || echo '$(PREFIX)' > $@
$(BUILD)/src/cli/cmd_common.o $(BUILD)/src/judge/mcpdesc.o $(BUILD)/src/rules/release.o: $(PREFIX_STAMP)

# Requires: every pkg-config module the library is built with (LIB_PKGS: the library
# holds no capture client, so an embedding program does not link curl).
$(BUILD)/mcpdesc.pc: tools/mcpdesc.pc.in $(PREFIX_STAMP) Makefile $(wildcard mk/*.mk)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	    -e 's|@DATADIR@|$(DATADIR)|' -e 's|@RULESDIR@|$(RULESDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    -e 's|@REQUIRES@|$(LIB_PKGS)|' $< > $@

install: $(BUILD)/mcpdesc $(BUILD)/libmcpdesc.a $(BUILD)/mcpdesc.pc
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 755 $(BUILD)/mcpdesc $(DESTDIR)$(BINDIR)/mcpdesc
	$(INSTALL) -m 644 $(BUILD)/libmcpdesc.a $(DESTDIR)$(LIBDIR)/libmcpdesc.a
	$(INSTALL) -m 644 src/judge/mcpdesc.h $(DESTDIR)$(INCLUDEDIR)/mcpdesc.h
	$(INSTALL) -m 644 $(BUILD)/mcpdesc.pc $(DESTDIR)$(PKGCONFIGDIR)/mcpdesc.pc
	$(INSTALL) -m 644 docs/mcpdesc.1 $(DESTDIR)$(MANDIR)/man1/mcpdesc.1
	$(INSTALL) -m 644 tools/mcpdesc.bash-completion $(DESTDIR)$(BASHCOMPDIR)/mcpdesc
	sh tools/install-rules.sh $(BUILD)/mcpdesc $(DESTDIR)$(SHAREDIR)
	rm -rf $(DESTDIR)$(SCHEMADIR)
	cd schema && find . -type f -name '*.json' | \
	    while read -r f; do \
	        $(INSTALL) -D -m 644 "$$f" "$(DESTDIR)$(SCHEMADIR)/$${f#./}" || exit 1; \
	    done

.PHONY: uninstall test-install
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/mcpdesc $(DESTDIR)$(LIBDIR)/libmcpdesc.a \
	    $(DESTDIR)$(INCLUDEDIR)/mcpdesc.h $(DESTDIR)$(PKGCONFIGDIR)/mcpdesc.pc \
	    $(DESTDIR)$(MANDIR)/man1/mcpdesc.1 $(DESTDIR)$(BASHCOMPDIR)/mcpdesc
	rm -rf $(DESTDIR)$(RULESDIR) $(DESTDIR)$(SHAREDIR)/releases $(DESTDIR)$(SHAREDIR)/unreleased \
	    $(DESTDIR)$(SCHEMADIR)
	@# the directories install made, deepest first, each only when nothing else is left in it
	for d in $(SHAREDIR) $(MANDIR)/man1 $(MANDIR) $(BASHCOMPDIR) $(patsubst %/,%,$(dir $(BASHCOMPDIR))) \
	         $(DATADIR) $(PREFIX)/share $(PKGCONFIGDIR) $(LIBDIR) $(INCLUDEDIR) $(BINDIR); do \
	    rmdir "$(DESTDIR)$$d" 2>/dev/null || :; \
	done

# A fresh build tree ($(BUILD)/install-test) installed into a temporary prefix, so the
# test exercises `make install PREFIX=...` from scratch without touching this tree.
test-install: | $(TEST_DEPS_STAMP)
	MAKE='$(MAKE)' BUILD='$(BUILD)' EMBED_CC='$(CC)' EMBED_CFLAGS='$(CFLAGS)' EMBED_LDFLAGS='$(LDFLAGS)' \
	    sh tests/embed/test-install.sh

EXTRA_CHECKS += test-install

# mk/deb.mk - the Debian packages (debian/). `make deb` installs what packaging needs
# (tools/install-deps.sh deb: dpkg-dev, debhelper, lintian and every Build-Depends of
# debian/control, read from it; `make test-install-deps` checks that list against
# dpkg-checkbuilddeps, tests/install-deps.sh) and builds mcpdesc and
# libmcpdesc-dev with `dpkg-buildpackage -us -uc -b` in a copy of the tree under
# build/deb/src (dpkg-buildpackage writes to the parent directory and debian/rules
# cleans the tree: the checkout is left alone), then runs lintian on them. The .debs,
# .buildinfo, .changes and lintian.log end up in build/deb/. `make test-deb` installs
# them in a new Debian 12 root made with debootstrap for each run (tests/deb-install.sh;
# only the tarball of the base system's packages is kept, in build/deb-root). `make
# check` runs check-deb in its plain half: test-deb as root when the mirror can be
# reached, else a counted skip (tests/skip.sh: a failure under MCPDESC_REQUIRE=all).

DEB_OUT := build/deb
DEB_DEPS_STAMP := build/.deb-deps-ok
DEB_TEST_DEPS_STAMP := build/.deb-test-deps-ok

.PHONY: deb test-deb deb-deps check-deb test-install-deps test-fresh-root check-fresh-root
deb-deps: $(DEB_DEPS_STAMP)
$(DEB_DEPS_STAMP): tools/install-deps.sh debian/control
	@sh tools/install-deps.sh build deb
	@mkdir -p build && touch $@
$(DEB_TEST_DEPS_STAMP): tools/install-deps.sh
	@sh tools/install-deps.sh deb-test
	@mkdir -p build && touch $@

deb: $(DEB_DEPS_STAMP)
	sh tools/build-deb.sh $(DEB_OUT)

test-deb: deb $(DEB_TEST_DEPS_STAMP)
	sh tests/deb-install.sh $(DEB_OUT)

# root and the mirror first (exit 3: skipped, counted), so that a machine without them
# does not try to install the packaging tools
check-deb:
	@st=0; sh tests/deb-install.sh --ready || st=$$?; \
	    if [ $$st = 0 ]; then $(MAKE) --no-print-directory test-deb; \
	    elif [ $$st != 3 ]; then exit 1; fi

# what `make deb` installs meets debian/control's Build-Depends (no root, no network)
test-install-deps:
	sh tests/install-deps.sh
EXTRA_CHECKS += test-install-deps

# The README's set-up in a fresh Debian 12 root (debootstrap: make, gcc, git), the
# checkout cloned to /project: make deb, make test-deps, make, make test-cli, make demo
# (tests/fresh-root.sh; about 7 minutes, most of it apt downloading). `make check` runs
# check-fresh-root in its plain half: as root with the mirror reachable, else a counted
# skip, as check-deb.
test-fresh-root: $(DEB_TEST_DEPS_STAMP)
	sh tests/fresh-root.sh
check-fresh-root:
	@st=0; sh tests/fresh-root.sh --ready || st=$$?; \
	    if [ $$st = 0 ]; then $(MAKE) --no-print-directory test-fresh-root; \
	    elif [ $$st != 3 ]; then exit 1; fi

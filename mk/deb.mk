# mk/deb.mk - the Debian packages (debian/). `make deb` installs what packaging needs
# (tools/install-deps.sh deb: dpkg-dev, debhelper, lintian) and builds mcpdesc and
# libmcpdesc-dev with `dpkg-buildpackage -us -uc -b` in a copy of the tree under
# build/deb/src (dpkg-buildpackage writes to the parent directory and debian/rules
# cleans the tree: the checkout is left alone), then runs lintian on them. The .debs,
# .buildinfo, .changes and lintian.log end up in build/deb/. `make test-deb` installs
# them in a clean Debian 12 root made with debootstrap (tests/deb-install.sh; the root
# is cached under build/deb-root). Neither is part of `make check`.

DEB_OUT := build/deb
DEB_DEPS_STAMP := build/.deb-deps-ok
DEB_TEST_DEPS_STAMP := build/.deb-test-deps-ok

.PHONY: deb test-deb deb-deps
deb-deps: $(DEB_DEPS_STAMP)
$(DEB_DEPS_STAMP): tools/install-deps.sh
	@sh tools/install-deps.sh build deb
	@mkdir -p build && touch $@
$(DEB_TEST_DEPS_STAMP): tools/install-deps.sh
	@sh tools/install-deps.sh deb-test
	@mkdir -p build && touch $@

deb: $(DEB_DEPS_STAMP)
	sh tools/build-deb.sh $(DEB_OUT)

test-deb: deb $(DEB_TEST_DEPS_STAMP)
	sh tests/deb-install.sh $(DEB_OUT)

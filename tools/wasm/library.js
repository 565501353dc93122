// library.js - functions of emscripten's C library replaced for the node CLI (mk/wasm.mk
// links it with --js-library; docs/wasm.md).
//   - geteuid and getuid: the process's, not emscripten's 0. The doc cache keeps its
//     entries only in a folder of the user's own (src/doc/doc_cache.c compares the
//     folder's owner, which NODEFS reports as the host's, with geteuid), and `fix`
//     writes a read-only file only as root (src/cli/cmd_fix.c), as natively.
/* global mergeInto, LibraryManager */
mergeInto(LibraryManager.library, {
  __syscall_geteuid32__sig: 'i',
  __syscall_geteuid32: function () {
    return typeof process !== 'undefined' && process.geteuid ? process.geteuid() : 0;
  },
  __syscall_getuid32__sig: 'i',
  __syscall_getuid32: function () {
    return typeof process !== 'undefined' && process.getuid ? process.getuid() : 0;
  }
});

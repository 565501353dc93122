// pre.js - the node CLI's start (mk/wasm.mk links it with --pre-js; docs/wasm.md): make
// the WebAssembly program see what the native one sees before its main runs.
//   - the process's environment (emscripten's node glue passes none: MCPDESC_RULES,
//     MCPDESC_RULES_PATH, XDG_CACHE_HOME, HOME, NO_COLOR ... must reach getenv), and no
//     default of emscripten's (HOME=/home/web_user, PATH=/) that the host does not have;
//   - the host's files at the same absolute paths (each top directory mounted with
//     NODEFS), and the same working directory: paths in messages and reports,
//     file:line:col included, are the native ones. The embedded rule sets stay in
//     memory under /mcpdesc-embedded, a name no host directory should have;
//   - standard input, output and error as the host's descriptors, byte for byte
//     (emscripten's terminal device decodes output as UTF-8 and writes it line by line),
//     and a terminal only where the host's descriptor is one (--color auto).
/* global Module, ENV, FS, NODEFS, PATH */

Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  var nodeFs = require('fs');
  var nodeTty = require('tty');
  ['USER', 'LOGNAME', 'PATH', 'PWD', 'HOME', 'LANG', '_'].forEach(function (k) {
    if (!(k in process.env)) ENV[k] = undefined;
  });
  Object.keys(process.env).forEach(function (k) {
    ENV[k] = process.env[k];
  });

  // a symbolic link's target as the host has it: 3.1.6's NODEFS makes it relative to
  // the mount's root as if it were relative to node's working directory, which breaks
  // every relative link (rules-yaml/diff/conformance -> ../../conformance/diff)
  NODEFS.node_ops.readlink = function (node) {
    try {
      return nodeFs.readlinkSync(NODEFS.realPath(node));
    } catch (e) {
      if (!e.code) throw e;
      throw new FS.ErrnoError(NODEFS.convertNodeCode(e));
    }
  };

  // mkdir of ".", ".." or "/" is EEXIST on Linux; 3.1.6 says EINVAL, which a caller
  // making every folder of a path ("./a/b": ".", then "./a") takes for a failure
  var mkdir = FS.mkdir;
  FS.mkdir = function (path, mode) {
    var name = PATH.basename(PATH.normalize(path));
    if ((name === '' || name === '.' || name === '..' || name === '/') && FS.analyzePath(path).exists)
      throw new FS.ErrnoError(20); // EEXIST
    return mkdir(path, mode);
  };

  var own = { dev: true, proc: true, 'mcpdesc-embedded': true };
  nodeFs.readdirSync('/').forEach(function (name) {
    if (own[name]) return;
    var st;
    try {
      st = nodeFs.statSync('/' + name);
    } catch (e) {
      return;
    }
    if (!st.isDirectory()) return;
    try {
      FS.mkdir('/' + name);
    } catch (e) {
      // it exists in emscripten's tree (/tmp, /home): the host's is mounted over it
    }
    FS.mount(NODEFS, { root: '/' + name }, '/' + name);
  });
  // A working directory whose path the process may not walk (a folder below a mode-700
  // one of another user: the kernel lets the process use it, NODEFS must reach it by its
  // absolute path): an empty in-memory folder instead, so that a relative name fails as
  // not found rather than resolving somewhere else. Absolute names work as natively.
  try {
    FS.chdir(process.cwd());
  } catch (e) {
    FS.mkdirTree('/mcpdesc-unreachable-cwd');
    FS.chdir('/mcpdesc-unreachable-cwd');
  }
  // the default rule set, as `make install` links PREFIX/share/mcpdesc/rules. Its
  // schema/ and conformance/ are linked too: emscripten resolves ".." before symbolic
  // links, so rules/../schema must be there as well. (The embedded files are created by
  // a preRun of their own, in whatever order: the folder may not be there yet.)
  if (Module['mcpdescDefaultRelease']) {
    FS.mkdirTree('/mcpdesc-embedded');
    Module['mcpdescDefaultEntries'].forEach(function (name) {
      FS.symlink(Module['mcpdescDefaultRelease'] + '/' + name, '/mcpdesc-embedded/' + name);
    });
  }

  FS.init();
  [0, 1, 2].forEach(function (fd) {
    var stream = FS.getStream(fd);
    if (!stream) return;
    var ops = Object.assign({}, stream.stream_ops);
    ops.read = function (s, buffer, offset, length) {
      for (;;) {
        try {
          return nodeFs.readSync(fd, buffer, offset, length, null);
        } catch (e) {
          if (e.code === 'EOF') return 0;
          if (e.code === 'EAGAIN') continue; // a non-blocking pipe: wait for its bytes
          throw new FS.ErrnoError(29); // EIO
        }
      }
    };
    ops.write = function (s, buffer, offset, length) {
      var done = 0;
      while (done < length) {
        try {
          done += nodeFs.writeSync(fd, buffer, offset + done, length - done);
        } catch (e) {
          if (e.code === 'EAGAIN') continue;
          if (e.code === 'EPIPE') throw new FS.ErrnoError(32); // EPIPE
          throw new FS.ErrnoError(29); // EIO
        }
      }
      return length;
    };
    // the terminal device's close and fsync flush its line buffer, which is not used
    ops.close = ops.fsync = ops.flush = function () {};
    stream.stream_ops = ops;
    if (!nodeTty.isatty(fd)) stream.tty = undefined;
  });
});

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

// V8 runs the module's functions compiled by Liftoff, its quick compiler, and compiles
// again with TurboFan, on other threads, each that has used up a budget (about 1.8
// million bytes of code executed). Those compiles are most of a short run's CPU time,
// thrown away with the process, and on two shared cores they take time from the run
// itself. Measured (node 20, CPU time): 1 tool 0.65 s by default, 0.23 s with 55 times
// the budget, 0.21 s with Liftoff alone; 1,000 tools 0.94 s, 0.63 s, 0.41 s; 10,000
// tools 2.2 s, 1.8 s, 2.0 s. So: Liftoff alone when the files named on the command
// line are small (under 8 MiB: the 1,000 tools' description is 1.9 MiB, the 10,000
// tools' 19 MiB), else the larger budget, which leaves TurboFan the functions a large
// description keeps busy. Set before the module is compiled (the code after this file
// in mcpdesc.js). V8 prints an error for a flag it does not know: only a V8 of 10 or
// later (node 18 and later) is given one.
(function () {
  if (parseInt(process.versions.v8, 10) < 10) return;
  var bytes = 0;
  process.argv.slice(2).forEach(function (arg) {
    try {
      var st = require('fs').statSync(arg);
      if (st.isFile()) bytes += st.size;
    } catch (e) {
      // not a file: an option, a command, a folder
    }
  });
  require('v8').setFlagsFromString(bytes < 8 * 1048576 ? '--liftoff-only' : '--wasm-tiering-budget=100000000');
})();
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
  FS.chdir(process.cwd());
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

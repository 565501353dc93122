// api-pre.js - the npm API module's calls (mk/npm.mk links it after tools/wasm/pre.js,
// which mounts the host's files at their own paths, as for the command line; docs/npm.md).
// Module.mcpdescCall(ARGS, {input, cwd, env}) runs `mcpdesc ARGS...` in this instance
// (src/cli/wasm_api.c) and returns {status, stdout, stderr}: the arguments, working
// directory, environment and standard input are the call's own, and what it writes to
// descriptors 1 and 2 is kept in memory, never the host process's descriptors. One
// instance serves every call (node runs them one at a time: a call is synchronous); after
// a call that trapped, Module.mcpdescBroken says to make a new one.
/* global Module, FS, HEAPU32, lengthBytesUTF8, stringToUTF8, _malloc, _free */
Module['mcpdescCall'] = function (args, opts) {
  var io = { input: opts.input, at: 0, out: [], err: [] };
  var sink = { 1: io.out, 2: io.err };
  // the standard descriptors of this call: not terminals (--color auto prints no colour)
  [0, 1, 2].forEach(function (fd) {
    var stream = FS.getStream(fd);
    var ops = Object.assign({}, stream.stream_ops);
    ops.read = function (s, buffer, offset, length) {
      var input = io.input;
      if (fd !== 0 || !input) return 0;
      var n = Math.min(length, input.length - io.at);
      if (n <= 0) return 0;
      buffer.set(input.subarray(io.at, io.at + n), offset);
      io.at += n;
      return n;
    };
    ops.write = function (s, buffer, offset, length) {
      if (fd === 0) throw new FS.ErrnoError(8); // EBADF
      // a copy: the bytes are the C library's buffer, written over by the next write
      sink[fd].push(Buffer.from(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length)));
      return length;
    };
    ops.close = ops.fsync = ops.flush = function () {};
    stream.stream_ops = ops;
    stream.tty = undefined;
  });

  var strings = [];
  function cString(s) {
    var n = lengthBytesUTF8(s) + 1;
    var p = _malloc(n);
    stringToUTF8(s, p, n);
    strings.push(p);
    return p;
  }
  try {
    var env = opts.env;
    Module['_mcpdesc_wasm_env_clear']();
    Object.keys(env).forEach(function (k) {
      if (env[k] !== undefined && k !== '' && k.indexOf('=') < 0)
        Module['_mcpdesc_wasm_env_set'](cString(k), cString(String(env[k])));
    });
    try {
      FS.chdir(opts.cwd);
    } catch (e) {
      var err = new Error('mcpdesc: cannot change to the working directory ' + opts.cwd);
      err.code = 'ENOENT';
      throw err;
    }
    var argv = ['mcpdesc'].concat(args);
    var argvp = _malloc(4 * (argv.length + 1));
    strings.push(argvp);
    argv.forEach(function (a, i) {
      HEAPU32[(argvp >> 2) + i] = cString(a);
    });
    HEAPU32[(argvp >> 2) + argv.length] = 0;
    var status;
    try {
      status = Module['_mcpdesc_wasm_run'](argv.length, argvp);
    } catch (e) {
      // a trap or an abort (out of memory): this instance's state is not to be trusted
      Module['mcpdescBroken'] = true;
      throw e;
    }
    return {
      status: status,
      stdout: Buffer.concat(io.out).toString('utf8'),
      stderr: Buffer.concat(io.err).toString('utf8'),
    };
  } finally {
    strings.forEach(function (p) {
      _free(p);
    });
  }
};

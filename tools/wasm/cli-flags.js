// cli-flags.js - V8's compiler flags for the command line's process (mk/wasm.mk links it
// with --pre-js before pre.js, into build/wasm/mcpdesc.js only). Never into the npm
// package's API module: that runs inside the caller's node process, whose flags are the
// caller's own (v8.setFlagsFromString is process-wide).
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

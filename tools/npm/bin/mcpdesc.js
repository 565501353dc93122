#!/usr/bin/env node
// bin/mcpdesc.js - the `mcpdesc` command of the npm package (docs/npm.md): the
// WebAssembly command line (make wasm) run in this process. It reads process.argv,
// the environment and the descriptors 0, 1 and 2 itself (tools/wasm/pre.js) and ends
// the process with the native program's exit status, so nothing is passed by hand.
'use strict';
require('../wasm/mcpdesc.js');

// Preloaded into the CLI (NODE_OPTIONS=--require): at the first HTTP request, writes the built-in modules the process
// has loaded so far to $AGENTCLI_PROBE_OUT, one per line. Loads nothing but node:http and node:fs itself.
const fs = require('node:fs');
const http = require('node:http');
const request = http.request;
let written = false;
http.request = function probedRequest(...args) {
  if (!written) {
    written = true;
    fs.writeFileSync(process.env.AGENTCLI_PROBE_OUT, process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)).join('\n'));
  }
  return request.apply(this, args);
};

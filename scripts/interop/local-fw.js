// fw (bin/fw.js of this checkout) run as a user runs it against the local cloud on `port`: any
// credentials, no colour. Resolves with its exit code, stdout and stderr.
'use strict';

const { spawn } = require('child_process');
const path = require('path');

const FW = path.join(__dirname, '..', '..', 'bin', 'fw.js');

function runLocalFw(args, cwd, port) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [FW, ...args], {
      cwd,
      env: { ...process.env, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', FW_LOCAL_PORT: String(port), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

module.exports = { runLocalFw };

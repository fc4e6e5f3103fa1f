#!/usr/bin/env node
// `npm run demo`: deploys examples/node-http-api into fw's local cloud and calls its endpoint.
// No AWS account needed. The local cloud keeps its state in a temporary folder and stops at the end.
'use strict';
const { cpSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { spawn } = require('node:child_process');

(async () => {
  const root = join(__dirname, '..');
  const { startLocalCloud } = require(join(root, 'dist', 'src', 'local'));
  const work = mkdtempSync(join(tmpdir(), 'fw-demo-'));
  const service = join(work, 'service');
  cpSync(join(root, 'examples', 'node-http-api'), service, { recursive: true });
  const cloud = await startLocalCloud({ port: 0, dataDir: join(work, 'cloud'), quiet: true });
  try {
    console.log(`$ fw deploy   (into the local cloud at ${cloud.url})`);
    // Asynchronous: the local cloud answers from this very process while fw deploys.
    const child = spawn(process.execPath, [join(root, 'bin', 'fw.js'), 'deploy', '--endpoint-url', cloud.url], {
      cwd: service,
      env: { ...process.env, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', chunk => {
      output += chunk;
      process.stdout.write(chunk);
    });
    const status = await new Promise(resolve => child.on('close', resolve));
    if (status !== 0) process.exit(status ?? 1);
    const match = /GET - (\S+\/items)\/\{id\}/.exec(output);
    if (!match) throw new Error('the deploy printed no endpoint');
    const url = `${match[1]}/1`;
    console.log(`\n$ curl ${url}`);
    const response = await fetch(url);
    console.log(`${response.status} ${await response.text()}`);
  } finally {
    await cloud.stop();
    rmSync(work, { recursive: true, force: true });
  }
})().catch(error => {
  console.error(error.message);
  process.exit(1);
});

// Starts the servers the local-cloud benchmarks and the interop script talk to, each as its own
// process on a free port: `fw local start` (from dist/) and, when python3 has it, moto's server.
'use strict';

const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const REPO = path.resolve(__dirname, '..', '..');
const START_TIMEOUT_MS = 30_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Polls a URL until it answers (any HTTP status), or the process exits, or the time-out passes. */
async function waitForHttp(url, child, name) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${name} exited before it answered`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  child.kill();
  throw new Error(`${name} did not answer at ${url} within ${START_TIMEOUT_MS / 1000} s`);
}

function stopper(child, dir) {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }
    }).then(() => dir && fs.rmSync(dir, { recursive: true, force: true }));
}

/** `fw local start` on a free port with a temporary data folder (and more options, if given). */
async function startFwLocal(options = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-bench-local-'));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(REPO, 'bin', 'fw.js'), 'local', 'start', '--port', String(port), '--data', dir, ...options], { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/_fw/health`, child, 'fw local start');
  return { name: 'fw local', url, pid: child.pid, stop: stopper(child, dir) };
}

/** A Node.js server whose code listens on PORT (replaced by a free port). */
async function startServer(name, code) {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', code.replace('PORT', String(port))], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(url, child, name);
  return { name, url, pid: child.pid, stop: stopper(child) };
}

function hasPython(modules) {
  const check = spawnSync('python3', ['-c', modules.map((name) => `import ${name}`).join('; ')], { stdio: 'ignore' });
  return check.status === 0;
}

/** moto's server (`python3 -m moto.server`) on a free port, or undefined when python3 has no moto. */
async function startMoto() {
  if (!hasPython(['moto.server'])) return undefined;
  const port = await freePort();
  const child = spawn('python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/moto-api/`, child, 'moto');
  return { name: 'moto', url, stop: stopper(child) };
}

/**
 * A server that answers every request with `{}` at once: what the client alone costs, so the
 * other servers' figures can be read as client cost plus server cost.
 */
async function startFloor() {
  const port = await freePort();
  const code = `require('http').createServer((q, s) => { q.resume(); q.on('end', () => { s.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }); s.end('{}'); }); }).listen(${port}, '127.0.0.1');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(url, child, 'the floor server');
  return { name: 'floor', url, stop: stopper(child) };
}

module.exports = { startFwLocal, startServer, startMoto, startFloor, hasPython, freePort };

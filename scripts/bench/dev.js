// The inner loop (issue 18): time from a one-file code change to the changed function answering
// over HTTP, on a 20-function service with a node_modules of more than 5,000 files deployed into
// the local cloud, for `fw deploy` (full), `fw deploy --hotswap` and `fw dev`; and the AWS API
// requests each makes.
//
// Requests are counted by a proxy between fw and the local cloud (fw's --endpoint-url points at
// it): each request's start and end are logged. "Sequential" round trips are the longest chain
// of requests in which each starts after the previous one has answered (the most requests no two
// of which overlap in time, found greedily by earliest end): requests sent in parallel count once,
// so sequential x the round-trip latency to AWS estimates the time a change spends on the network.
// The local cloud answers in about a millisecond, so requests fw sends together would seem to
// come one after another: the counting round (one more per mode, after the timed ones) adds
// 50 ms to every request, as a far region would, which makes parallel requests overlap.
// The bench's own polling of the endpoint goes to the local cloud directly and is not counted;
// neither is fw dev's reading of the logs (Live Tail, or FilterLogEvents polling where the endpoint
// does not serve it, as here), which runs beside the loop, not in it.
'use strict';

const fs = require('fs');
const http = require('http');
const path = require('path');
const { spawn } = require('child_process');
const { functionsService, nodeModulesService } = require('./generate');
const { median } = require('./measure');

// FW_BENCH_BUILD: another checkout's built fw (its folder) to measure, to compare two builds in one sitting.
const REPO = process.env.FW_BENCH_BUILD ? path.resolve(process.env.FW_BENCH_BUILD) : path.resolve(__dirname, '..', '..');
const FW = path.join(REPO, 'bin', 'fw.js');
const FUNCTIONS = 20;
const COUNTING_LATENCY_MS = 50;
const ENV = { ...process.env, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', NO_COLOR: '1' };

/** A proxy that forwards to `target` and logs every request's operation, start and end. */
async function countingProxy(target) {
  const upstream = new URL(target);
  const log = [];
  const proxy = { url: '', log, latencyMs: 0, close: () => new Promise((resolve) => server.close(resolve)) };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const start = performance.now();
      setTimeout(() => send(body, start), proxy.latencyMs);
    });
    const send = (body, start) => {
      const forward = http.request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode, answer.headers);
          answer.pipe(res);
          const operation = operationOf(req, body);
          if (!operation.startsWith('Logs_')) answer.on('end', () => log.push({ operation, start, end: performance.now() }));
        },
      );
      forward.on('error', (error) => {
        res.writeHead(502);
        res.end(String(error));
      });
      forward.end(body);
    };
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${server.address().port}`;
  return proxy;
}

/** `CloudFormation.DescribeStacks`, `Lambda GET /2015-03-31/functions/x`, `S3 PUT /bucket/key`, … */
function operationOf(req, body) {
  const target = req.headers['x-amz-target'];
  if (target) return String(target);
  const scope = /Credential=[^/]+\/[^/]+\/[^/]+\/([^/]+)\//.exec(String(req.headers.authorization ?? ''))?.[1] ?? '?';
  const action = /(?:^|&)Action=([^&]+)/.exec(body.toString('utf8'))?.[1] ?? new URL(req.url, 'http://x').searchParams.get('Action');
  if (action) return `${scope}.${action}`;
  const where = req.url.split('?')[0].replace(/\/[^/]*(\d{10,}|\.zip|\.json)[^/]*/g, '/…');
  return `${scope} ${req.method} ${where}`;
}

/** The most requests no two of which overlap: each starts after the previous one ended. */
function sequential(requests) {
  const chain = [];
  let end = -Infinity;
  for (const request of [...requests].sort((a, b) => a.end - b.end)) {
    if (request.start >= end) {
      chain.push(request);
      end = request.end;
    }
  }
  return chain;
}

/**
 * The local cloud in a process of its own: in this one, its work would hold up the proxy's event
 * loop and make requests that fw sends together look as if they came one after another.
 */
function cloudProcess(dataDir) {
  const script = `require(${JSON.stringify(path.join(REPO, 'dist', 'src', 'local'))}).startLocalCloud({ port: 0, dataDir: ${JSON.stringify(dataDir)}, quiet: true })
    .then((cloud) => { process.stdout.write(cloud.url + '\\n'); process.once('SIGTERM', () => cloud.stop().then(() => process.exit(0))); });`;
  const child = spawn(process.execPath, ['-e', script], { env: ENV, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /^(http:\S+)\n/.exec(output)?.[1];
      if (url) resolve({ url, stop: () => new Promise((done) => (child.once('close', done), child.kill('SIGTERM'))) });
    });
    child.on('close', (code) => reject(new Error(`the local cloud exited (${code})`)));
  });
}

function run(args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FW, ...args], { cwd, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`fw ${args.join(' ')} failed:\n${output}`))));
  });
}

const handler = (marker) => `'use strict';\nexports.handler = async () => ({ statusCode: 200, body: ${JSON.stringify(marker)} });\n`;

/** Resolves once `url` answers 200 with `body` (polled every 5 ms, for at most 60 s). */
async function answers(url, body) {
  const until = Date.now() + 60_000;
  for (;;) {
    const response = await fetch(url).catch(() => undefined);
    if (response && response.status === 200 && (await response.text()) === body) return;
    if (Date.now() > until) throw new Error(`${url} did not answer ${body} within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Per phase of fw dev's `Timings:` lines (FW_DEV_TIMINGS=1), the median over the rounds, in the order of the first round. */
function medianPhases(lines) {
  const rounds = lines.map((line) =>
    Object.fromEntries(
      line
        .replace(/^Timings: /, '')
        .replace(/ = (\d+) ms$/, ', total $1 ms')
        .split(', ')
        .map((part) => /^(.*) (\d+) ms$/.exec(part))
        .filter(Boolean)
        .map((match) => [match[1], Number(match[2])]),
    ),
  );
  const names = [...new Set(rounds.flatMap((round) => Object.keys(round)))];
  return Object.fromEntries(names.map((name) => [name, median(rounds.map((round) => round[name] ?? 0))]));
}

/** `modes`: which of full, hotswap and dev to time (all by default; the first deploy is always made). */
async function devBench(root, runs = 7, modes = ['full', 'hotswap', 'dev']) {
  const dir = path.join(root, 'dev-service');
  functionsService(dir, FUNCTIONS);
  const modules = path.join(root, 'dev-modules');
  nodeModulesService(modules);
  fs.renameSync(path.join(modules, 'node_modules'), path.join(dir, 'node_modules'));
  fs.copyFileSync(path.join(modules, 'package.json'), path.join(dir, 'package.json'));
  fs.rmSync(modules, { recursive: true, force: true });
  const cloud = await cloudProcess(path.join(root, 'dev-cloud'));
  const proxy = await countingProxy(cloud.url);
  const results = {};
  let dev;
  try {
    const first = await run(['deploy', '--endpoint-url', proxy.url], dir);
    const endpoint = /GET - (\S+)\/f0\b/.exec(first)?.[1];
    if (!endpoint) throw new Error(`no endpoint for f0 in:\n${first}`);
    // The bench polls the local cloud directly, so its own requests are not counted.
    const url = `${endpoint.replace(proxy.url, cloud.url)}/f0`;
    const file = path.join(dir, 'src', 'f0.js');

    const measureRounds = async (mode, change) => {
      const round = async (i) => {
        const marker = `${mode} ${i}`;
        proxy.log.length = 0;
        const started = performance.now();
        // The requests of a round: those logged by the time fw reports it (fw dev prunes old folders after that).
        const done = change(marker).then(() => [...proxy.log]);
        await answers(url, marker);
        const ms = performance.now() - started;
        return { ms, requests: await done };
      };
      const samples = [];
      for (let i = 0; i < runs; i++) samples.push(await round(i));
      proxy.latencyMs = COUNTING_LATENCY_MS;
      const counted = await round(runs).finally(() => (proxy.latencyMs = 0));
      const chain = sequential(counted.requests);
      results[mode] = {
        ms: median(samples.map((sample) => sample.ms)),
        requests: counted.requests.length,
        sequential: chain.length,
        chain: chain.map((request) => request.operation),
      };
    };

    if (modes.includes('full')) {
      await measureRounds('full', (marker) => {
        fs.writeFileSync(file, handler(marker));
        return run(['deploy', '--endpoint-url', proxy.url], dir);
      });
    }
    if (modes.includes('hotswap')) {
      await measureRounds('hotswap', (marker) => {
        fs.writeFileSync(file, handler(marker));
        return run(['deploy', '--hotswap', '--endpoint-url', proxy.url], dir);
      });
    }
    if (!modes.includes('dev')) return { functions: FUNCTIONS, runs, ...results };

    // FW_DEV_TIMINGS: fw dev prints where each round's time went (`Timings: …`).
    dev = spawn(process.execPath, [FW, 'dev', '--endpoint-url', proxy.url], { cwd: dir, env: { ...ENV, FW_DEV_TIMINGS: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    dev.stdout.on('data', (chunk) => (output += chunk));
    dev.stderr.on('data', (chunk) => (output += chunk));
    // Checked as output arrives, so that a round's requests are taken the moment fw reports it.
    const printed = (text, count) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (output.split(text).length - 1 < count) return;
          clearTimeout(timer);
          dev.stdout.off('data', check);
          resolve();
        };
        const timer = setTimeout(() => {
          dev.stdout.off('data', check);
          reject(new Error(`fw dev did not print ${JSON.stringify(text)}:\n${output}`));
        }, 60_000);
        dev.stdout.on('data', check);
        check();
      });
    await printed('Watching ', 1);
    let rounds = 0;
    await measureRounds('dev', (marker) => {
      fs.writeFileSync(file, handler(marker));
      rounds++;
      // The round is over when fw dev says so: its last requests (state, pruning) come after the answer.
      return printed('✔ Hotswapped', rounds);
    });
    // The timed rounds only (the counting round's requests wait 50 ms each); none from a build without them.
    results.dev.phases = medianPhases((output.match(/^Timings: .*$/gm) ?? []).slice(0, runs));
  } finally {
    if (dev && dev.exitCode === null) {
      dev.kill('SIGINT');
      await new Promise((resolve) => dev.once('close', resolve));
    }
    await proxy.close();
    await cloud.stop();
  }
  return { functions: FUNCTIONS, runs, ...results };
}

module.exports = { devBench, sequential };

// DynamoDB PutItem and GetItem against `fw local start`, and, when python3 has it, moto's server
// (`python3 -m moto.server`), side by side: latency (p50, p99) and throughput for 10,000 items, from
// one client in sequence and from 16 concurrent clients. Goals (issue 15): at least 5x moto's
// throughput, p50 under 2 ms (from one client: with 16 requests in flight, a request's latency is
// mostly its wait behind the others). A "floor" server that answers `{}` at once shows what the
// client itself costs on this machine.
//
// Two clients (dynamodb-client.js), each run in client processes of their own: the AWS SDK v3
// client, and a lean client (node:http keep-alive, a SigV4 Authorization header computed per
// request) that measures the servers rather than the SDK. The 16 concurrent clients are 16
// connections spread over FW_BENCH_DYNAMODB_PROCESSES client processes (default 2: one Node
// process cannot keep 16 SDK clients busy). Every server is started anew for every client mode and
// run; figures are medians over FW_BENCH_DYNAMODB_RUNS runs (default 3). FW_BENCH_DYNAMODB_ITEMS
// sets the item count.
'use strict';

const os = require('os');
const path = require('path');
const { fork } = require('child_process');
const { startFloor, startFwLocal, startMoto } = require('./servers');
const { median } = require('./measure');

const ITEMS = Number(process.env.FW_BENCH_DYNAMODB_ITEMS || 10_000);
const RUNS = Math.max(1, Number(process.env.FW_BENCH_DYNAMODB_RUNS || 3));
const PROCESSES = Math.max(1, Number(process.env.FW_BENCH_DYNAMODB_PROCESSES || 2));
const CONCURRENT_CLIENTS = 16;
const MODES = (process.env.FW_BENCH_DYNAMODB_MODES || 'lean,sdk').split(',');
const CLIENT = path.join(__dirname, 'dynamodb-client.js');

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

/** A client process: send it messages, await its answers in order. */
function clientProcess(setup) {
  const child = fork(CLIENT, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = [];
  child.on('message', (message) => waiting.shift()?.(message));
  child.on('exit', (code) => {
    for (const resolve of waiting.splice(0)) resolve({ error: `client process exited (${code})` });
  });
  const ask = (message) =>
    new Promise((resolve, reject) => {
      waiting.push((answer) => (answer.error ? reject(new Error(answer.error)) : resolve(answer)));
      child.send(message);
    });
  return { ready: ask({ setup }), ask, exit: () => child.connected && child.send({ phase: 'exit' }) };
}

/** One phase over several client processes at once: latencies of all, throughput over the whole span. */
async function phase(clients, name) {
  const answers = await Promise.all(clients.map((client) => client.ask({ phase: name })));
  const latencies = answers.flatMap(({ result }) => result.latencies).sort((a, b) => a - b);
  if (latencies.length !== ITEMS) throw new Error(`${name}: ${latencies.length} answers for ${ITEMS} items`);
  const started = answers.reduce((min, { result }) => (BigInt(result.started) < min ? BigInt(result.started) : min), BigInt(answers[0].result.started));
  const ended = answers.reduce((max, { result }) => (BigInt(result.ended) > max ? BigInt(result.ended) : max), 0n);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), perSecond: ITEMS / (Number(ended - started) / 1e9) };
}

async function measureServer(server, mode) {
  const check = server.name !== 'floor';
  const one = clientProcess({ url: server.url, mode, connections: 1, worker: 0, workers: 1, items: ITEMS, check });
  const many = Array.from({ length: PROCESSES }, (_, worker) =>
    clientProcess({ url: server.url, mode, connections: CONCURRENT_CLIENTS / PROCESSES, worker, workers: PROCESSES, items: ITEMS, check }),
  );
  try {
    await Promise.all([one, ...many].map((client) => client.ready));
    await one.ask({ phase: 'create' });
    await Promise.all([one, ...many].map((client) => client.ask({ phase: 'warmup' })));
    return {
      putSequential: await phase([one], 'put'),
      getSequential: await phase([one], 'get'),
      putConcurrent: await phase(many, 'put'),
      getConcurrent: await phase(many, 'get'),
    };
  } finally {
    for (const client of [one, ...many]) client.exit();
  }
}

const PHASES = [
  ['putSequential', 'PutItem, 1 client'],
  ['getSequential', 'GetItem, 1 client'],
  ['putConcurrent', `PutItem, ${CONCURRENT_CLIENTS} clients`],
  ['getConcurrent', `GetItem, ${CONCURRENT_CLIENTS} clients`],
];

/** The median of each figure over the runs. */
function medians(runs) {
  return Object.fromEntries(PHASES.map(([key]) => [key, Object.fromEntries(['p50', 'p99', 'perSecond'].map((figure) => [figure, median(runs.map((run) => run[key][figure]))]))]));
}

async function dynamodbBench() {
  const results = [];
  const uptime = os.loadavg().map((load) => load.toFixed(2)).join(', ');
  for (const mode of MODES) {
    for (const start of [startFloor, startFwLocal, startMoto]) {
      const runs = [];
      let name;
      for (let run = 0; run < RUNS; run++) {
        const server = await start();
        if (!server) break;
        name = server.name;
        process.stderr.write(` ${mode}/${server.name}…`);
        try {
          runs.push(await measureServer(server, mode));
        } finally {
          await server.stop();
        }
      }
      if (runs.length > 0) results.push({ mode, name, ...medians(runs) });
    }
  }
  return { items: ITEMS, clients: CONCURRENT_CLIENTS, processes: PROCESSES, runs: RUNS, loadBefore: uptime, loadAfter: os.loadavg().map((load) => load.toFixed(2)).join(', '), results };
}

const MODE_NAMES = { sdk: 'AWS SDK v3 client', lean: 'lean client' };

/** Table rows and PASS/FAIL lines for bench.js. */
function dynamodbReport({ items, processes, runs, loadBefore, loadAfter, results }) {
  const ms = (value) => `${value.toFixed(2)} ms`;
  const rate = (value) => `${Math.round(value)}/s`;
  const rows = [[`DynamoDB (${items} items, medians of ${runs}, 16 clients in ${processes} processes; load ${loadBefore} → ${loadAfter})`, 'fw p50', 'fw p99', 'fw ops', 'moto p50', 'moto p99', 'moto ops', 'fw/moto', 'floor p50', 'floor ops']];
  const verdicts = [];
  for (const mode of MODES) {
    const of = (name) => results.find((result) => result.mode === mode && result.name === name);
    const fw = of('fw local');
    const moto = of('moto');
    const floor = of('floor');
    if (!fw) continue;
    for (const [key, label] of PHASES) {
      const row = [`${MODE_NAMES[mode]}: ${label}`, ms(fw[key].p50), ms(fw[key].p99), rate(fw[key].perSecond)];
      if (moto) {
        const ratio = fw[key].perSecond / moto[key].perSecond;
        row.push(ms(moto[key].p50), ms(moto[key].p99), rate(moto[key].perSecond), `${ratio.toFixed(1)}x`);
        verdicts.push(`${ratio >= 5 ? 'PASS' : 'FAIL'}  DynamoDB, ${MODE_NAMES[mode]}, ${label}: ${ratio.toFixed(1)}x moto's throughput (target at least 5x)`);
      } else row.push('', '', '', '');
      if (key.endsWith('Sequential')) verdicts.push(`${fw[key].p50 < 2 ? 'PASS' : 'FAIL'}  DynamoDB, ${MODE_NAMES[mode]}, ${label}: p50 ${ms(fw[key].p50)} (target under 2 ms)`);
      row.push(floor ? ms(floor[key].p50) : '', floor ? rate(floor[key].perSecond) : '');
      rows.push(row);
    }
  }
  if (!results.some((result) => result.name === 'moto')) verdicts.push('SKIP  DynamoDB vs moto: python3 has no moto (pip install "moto[server]")');
  return { rows, verdicts };
}

module.exports = { dynamodbBench, dynamodbReport };

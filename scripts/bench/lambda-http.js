// A trivial function behind an HTTP API in `fw local start`, against a do-nothing Node.js server, in
// the same run: requests per second and latency (p50, p99) from 1, 10 and 100 clients (keep-alive
// connections of autocannon, on loopback) and the CPU time each request cost the server process and,
// for the local cloud, the function processes under it (Linux /proc), then the local cloud's memory
// (its process and every function process under it) once the burst's environments were retired for
// being idle.
// Goals (issue 28): at least 5,000 requests/s at 10 clients with p99 under 20 ms, no errors, and the
// memory back under 200 MB after the idle time.
//
// FW_BENCH_HTTP_SECONDS: seconds per measurement (default 5); FW_BENCH_HTTP_RUNS: runs per client
// count, medians reported (default 3); FW_BENCH_HTTP_CLIENTS: client counts (default 1,10,100).
// The local cloud is started with --function-idle-timeout 5 so the memory is read 7 s after the load.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const autocannon = require('autocannon');
const { startFwLocal, startServer } = require('./servers');
const { median } = require('./measure');

const SECONDS = Number(process.env.FW_BENCH_HTTP_SECONDS || 5);
const RUNS = Math.max(1, Number(process.env.FW_BENCH_HTTP_RUNS || 3));
const CLIENTS = (process.env.FW_BENCH_HTTP_CLIENTS || '1,10,100').split(',').map(Number);
const IDLE_SECONDS = 5;

const HANDLER = `exports.handler = async () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });`;

/** The stack Serverless v3 writes for one function with one `httpApi: GET /hello` event (the parts the local cloud reads). */
function template() {
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Resources: {
      HelloLambdaFunction: {
        Type: 'AWS::Lambda::Function',
        Properties: { Code: { S3Bucket: 'bench', S3Key: 'hello.zip' }, Handler: 'index.handler', Runtime: 'nodejs20.x', FunctionName: 'bench-dev-hello', MemorySize: 1024, Timeout: 6, Role: 'arn:aws:iam::000000000000:role/bench' },
      },
      HttpApi: { Type: 'AWS::ApiGatewayV2::Api', Properties: { Name: 'dev-bench', ProtocolType: 'HTTP' } },
      HttpApiStage: { Type: 'AWS::ApiGatewayV2::Stage', Properties: { ApiId: { Ref: 'HttpApi' }, StageName: '$default', AutoDeploy: true } },
      HttpApiIntegrationHello: {
        Type: 'AWS::ApiGatewayV2::Integration',
        Properties: { ApiId: { Ref: 'HttpApi' }, IntegrationType: 'AWS_PROXY', IntegrationUri: { 'Fn::GetAtt': ['HelloLambdaFunction', 'Arn'] }, PayloadFormatVersion: '2.0' },
      },
      HttpApiRouteGetHello: {
        Type: 'AWS::ApiGatewayV2::Route',
        Properties: { ApiId: { Ref: 'HttpApi' }, RouteKey: 'GET /hello', Target: { 'Fn::Join': ['/', ['integrations', { Ref: 'HttpApiIntegrationHello' }]] } },
      },
    },
    Outputs: { HttpApiUrl: { Value: { 'Fn::Join': ['', ['https://', { Ref: 'HttpApi' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] } } },
  };
}

function zipOf(name, text) {
  const { ZipFile } = require('yazl');
  const archive = new ZipFile();
  archive.addBuffer(Buffer.from(text), name);
  archive.end();
  const chunks = [];
  return new Promise((resolve, reject) => {
    archive.outputStream.on('data', (chunk) => chunks.push(chunk));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.on('error', reject);
  });
}

/** Deploys the stack into the local cloud and returns the route's URL. */
async function deployHello(url) {
  const { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } = require('@aws-sdk/client-cloudformation');
  const { S3Client, CreateBucketCommand, PutObjectCommand } = require('@aws-sdk/client-s3');
  const config = { endpoint: url, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const s3 = new S3Client({ ...config, forcePathStyle: true });
  const cfn = new CloudFormationClient(config);
  try {
    await s3.send(new CreateBucketCommand({ Bucket: 'bench' }));
    await s3.send(new PutObjectCommand({ Bucket: 'bench', Key: 'hello.zip', Body: await zipOf('index.js', HANDLER) }));
    await cfn.send(new CreateStackCommand({ StackName: 'bench-dev', TemplateBody: JSON.stringify(template()) }));
    for (;;) {
      const stack = (await cfn.send(new DescribeStacksCommand({ StackName: 'bench-dev' }))).Stacks[0];
      if (stack.StackStatus === 'CREATE_COMPLETE') return `${stack.Outputs.find((output) => output.OutputKey === 'HttpApiUrl').OutputValue}/hello`;
      if (!stack.StackStatus.endsWith('_IN_PROGRESS')) throw new Error(`bench stack: ${stack.StackStatus} ${stack.StackStatusReason ?? ''}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    s3.destroy();
    cfn.destroy();
  }
}

function load(url, connections, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, pipelining: 1 }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Resident memory of a process and its descendants (Linux), in MB. */
function treeRssMb(pid) {
  let kb = 0;
  const pending = [pid];
  while (pending.length) {
    const current = pending.pop();
    try {
      kb += Number(/^VmRSS:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${current}/status`, 'utf8'))?.[1] ?? 0);
      pending.push(...fs.readFileSync(`/proc/${current}/task/${current}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

/** The processes under a process (Linux /proc), itself excluded. */
function descendants(pid) {
  const found = [];
  const pending = [pid];
  while (pending.length) {
    const current = pending.pop();
    try {
      const children = fs.readFileSync(`/proc/${current}/task/${current}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      found.push(...children);
      pending.push(...children);
    } catch {
      // gone
    }
  }
  return found;
}

/** CPU time (user + system) a process has used so far, in µs (Linux /proc; 0 once it is gone). */
function cpuMicros(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = 100;

/**
 * One load's requests per second, latency and errors, and the CPU time per request of the server
 * process and, apart, of the processes under it (a function's environments), those alive at the
 * start and the end of the load.
 */
async function measuredLoad(url, connections, seconds, pid) {
  const before = new Map([pid, ...descendants(pid)].map((id) => [id, cpuMicros(id)]));
  const result = await load(url, connections, seconds);
  const after = new Map([pid, ...descendants(pid)].map((id) => [id, cpuMicros(id)]));
  let functions = 0;
  for (const [id, micros] of after) if (id !== pid) functions += micros - (before.get(id) ?? 0);
  const requests = Math.max(1, result.requests.total);
  return {
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    serverCpu: (after.get(pid) - before.get(pid)) / requests,
    functionsCpu: functions / requests,
  };
}

async function measureTarget(name, url, pid) {
  const rows = [];
  await load(url, 10, 1); // warm-up: environments started, JIT warm
  for (const connections of CLIENTS) {
    const runs = [];
    for (let run = 0; run < RUNS; run++) runs.push(await measuredLoad(url, connections, SECONDS, pid));
    rows.push({
      name,
      connections,
      perSecond: median(runs.map((r) => r.perSecond)),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
      serverCpu: median(runs.map((r) => r.serverCpu)),
      functionsCpu: median(runs.map((r) => r.functionsCpu)),
    });
  }
  return rows;
}

async function lambdaHttpBench() {
  const load1 = os.loadavg()[0];
  const floor = await startServer('do-nothing server', `require('http').createServer((q, s) => { s.writeHead(200, { 'content-type': 'application/json' }); s.end('{"ok":true}'); }).listen(PORT, '127.0.0.1');`);
  const local = await startFwLocal(['--function-idle-timeout', String(IDLE_SECONDS)]);
  try {
    const url = await deployHello(local.url);
    const idleBefore = treeRssMb(local.pid);
    const rows = [...(await measureTarget('do-nothing server', floor.url, floor.pid)), ...(await measureTarget('fw local, HTTP API → function', url, local.pid))];
    const afterLoad = treeRssMb(local.pid);
    await new Promise((resolve) => setTimeout(resolve, (IDLE_SECONDS + 2) * 1000));
    const afterIdle = treeRssMb(local.pid);
    return { rows, memory: { idleBefore, afterLoad, afterIdle }, load: [load1, os.loadavg()[0]] };
  } finally {
    await local.stop();
    await floor.stop();
  }
}

function lambdaHttpReport({ rows, memory, load }) {
  const table = [['server', 'clients', 'req/s', 'p50', 'p99', 'errors', 'server CPU/req', 'functions CPU/req']];
  const micros = (value) => `${Math.round(value)} µs`;
  for (const row of rows) {
    table.push([row.name, String(row.connections), String(Math.round(row.perSecond)), `${row.p50} ms`, `${row.p99} ms`, String(row.errors), micros(row.serverCpu), row.name.startsWith('fw') ? micros(row.functionsCpu) : '-']);
  }
  const ten = rows.find((row) => row.name.startsWith('fw') && row.connections === 10);
  const verdicts = [];
  if (ten) {
    verdicts.push(`${ten.perSecond >= 5000 && ten.p99 < 20 ? 'PASS' : 'FAIL'}  HTTP API → function at 10 clients: ${Math.round(ten.perSecond)} req/s, p99 ${ten.p99} ms (target 5,000 req/s, p99 under 20 ms)`);
  }
  const errors = rows.filter((row) => row.name.startsWith('fw')).reduce((sum, row) => sum + row.errors, 0);
  verdicts.push(`${errors === 0 ? 'PASS' : 'FAIL'}  HTTP API → function: ${errors} errors`);
  verdicts.push(`${memory.afterIdle < 200 ? 'PASS' : 'FAIL'}  memory of fw local start and its functions: ${Math.round(memory.idleBefore)} MB idle, ${Math.round(memory.afterLoad)} MB after the load, ${Math.round(memory.afterIdle)} MB ${IDLE_SECONDS + 2} s later (target under 200 MB)`);
  return { table, verdicts, note: `load average ${load[0].toFixed(2)} at the start, ${load[1].toFixed(2)} at the end (${os.cpus().length} cores); medians of ${RUNS} runs of ${SECONDS} s` };
}

module.exports = { lambdaHttpBench, lambdaHttpReport, deployHello, load };

if (require.main === module) {
  lambdaHttpBench()
    .then((result) => {
      const report = lambdaHttpReport(result);
      const widths = report.table[0].map((_, column) => Math.max(...report.table.map((row) => row[column].length)));
      console.log(report.table.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ')).join('\n'));
      console.log(report.note);
      for (const verdict of report.verdicts) console.log(verdict);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}

// A function that ships an old boto3 — Debian bookworm's python3-boto3 1.26.27 with botocore
// 1.29.27, from the Debian archive, which read no AWS_ENDPOINT_URL — deployed into the local cloud:
// its clients, made when the handler loads as most apps make them, must reach the local cloud and
// not AWS. The packages are fetched with `apt-get download` into a cache outside the repository
// (~/.cache/fw-test-apps/debian-bookworm-boto3, or $FW_TEST_APPS_DIR) and vendored into the function
// folder as a requirements plugin would. Skipped, and said so, without python3, apt-get or dpkg-deb.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { hasPython } = require('../bench/servers');
const { runLocalFw } = require('./local-fw');

const PACKAGES = ['python3-boto3', 'python3-botocore', 'python3-s3transfer', 'python3-jmespath', 'python3-urllib3'];

function has(command, args) {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** The folder holding Debian's boto3, botocore and what they need (a dist-packages tree), fetched once. */
function debianBoto3() {
  const root = path.join(process.env.FW_TEST_APPS_DIR || path.join(os.homedir(), '.cache', 'fw-test-apps'), 'debian-bookworm-boto3');
  const tree = path.join(root, 'root', 'usr', 'lib', 'python3', 'dist-packages');
  if (fs.existsSync(path.join(root, '.fw-installed'))) return tree;
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  const download = spawnSync('apt-get', ['download', ...PACKAGES], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  if (download.status !== 0) throw new Error(`apt-get download failed: ${download.stderr.trim()}`);
  for (const file of fs.readdirSync(root).filter((name) => name.endsWith('.deb'))) {
    const unpack = spawnSync('dpkg-deb', ['-x', file, 'root'], { cwd: root, encoding: 'utf8' });
    if (unpack.status !== 0) throw new Error(`dpkg-deb -x ${file} failed: ${unpack.stderr.trim()}`);
  }
  fs.writeFileSync(path.join(root, '.fw-installed'), '');
  return tree;
}

const SERVICE = `service: old-boto3
provider:
  name: aws
  runtime: python3.11
functions:
  roundTrip:
    handler: handler.round_trip
`;

const HANDLER = `import boto3, botocore

s3 = boto3.client('s3', region_name='us-east-1')

def round_trip(event, context):
    s3.create_bucket(Bucket='old-boto3-bucket')
    s3.put_object(Bucket='old-boto3-bucket', Key='greeting.txt', Body=b'hello from botocore ' + botocore.__version__.encode())
    body = s3.get_object(Bucket='old-boto3-bucket', Key='greeting.txt')['Body'].read().decode()
    return {'botocore': botocore.__version__, 'endpoint': s3.meta.endpoint_url, 'body': body}
`;

/** PASS/FAIL/SKIP lines, against the local cloud at `url`. */
async function oldBoto3Checks(url) {
  const name = "a function vendoring Debian's boto3 1.26 (botocore 1.29, which reads no AWS_ENDPOINT_URL) reaches the local cloud";
  if (!hasPython([])) return [`SKIP  ${name}: no python3`];
  if (!has('apt-get', ['--version']) || !has('dpkg-deb', ['--version'])) return [`SKIP  ${name}: no apt-get or dpkg-deb to fetch Debian's packages`];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-old-boto3-'));
  try {
    fs.cpSync(debianBoto3(), dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'serverless.yml'), SERVICE);
    fs.writeFileSync(path.join(dir, 'handler.py'), HANDLER);
    const port = new URL(url).port;
    const deployed = await runLocalFw(['deploy', '--local'], dir, port);
    if (deployed.code !== 0) throw new Error(`fw deploy --local failed: ${deployed.stderr.trim()}`);
    const invoked = await runLocalFw(['invoke', '--local', '-f', 'roundTrip'], dir, port);
    const answer = invoked.code === 0 ? JSON.parse(invoked.stdout) : undefined;
    if (!answer) throw new Error(`fw invoke failed: ${invoked.stderr.trim()}`);
    if (answer.botocore !== '1.29.27') throw new Error(`the function ran botocore ${answer.botocore}, not Debian's 1.29.27`);
    if (new URL(answer.endpoint).port !== new URL(url).port) throw new Error(`the client's endpoint is ${answer.endpoint}`);
    if (answer.body !== 'hello from botocore 1.29.27') throw new Error(`the object read back is ${JSON.stringify(answer.body)}`);
    return [`PASS  ${name}`];
  } catch (error) {
    return [`FAIL  ${name}: ${error.message}`];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { oldBoto3Checks };

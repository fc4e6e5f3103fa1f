import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chooseCredentials } from '../../src/aws/credentials';
import { childEnv } from '../helpers/env';

const FW = join(__dirname, '..', '..', '..', 'bin', 'fw.js');

/** One signed request as the endpoint saw it: the access key id of its SigV4 credential scope, its session token, its operation. */
interface Seen {
  key: string | undefined;
  token: string | undefined;
  operation: string;
}

interface Context {
  work: string;
  home: string;
  server: Server;
  url: string;
  seen: Seen[];
}

const CREDENTIALS_FILE = ['default', 'p1', 'p2', 'p3', 'p4']
  .map(name => `[${name}]\naws_access_key_id = AKID${name.toUpperCase()}\naws_secret_access_key = secret-of-${name}\n`)
  .join('');
// A profile only in the config file, as `aws configure` writes them: fw reads both files.
// p6 has settings but no credentials.
const CONFIG_FILE = '[profile p5]\naws_access_key_id = AKIDP5\naws_secret_access_key = secret-of-p5\nregion = eu-west-1\n[profile p6]\nregion = eu-west-1\n';

const ENV_KEYS = { AWS_ACCESS_KEY_ID: 'AKIDENV', AWS_SECRET_ACCESS_KEY: 'secret-of-env' };

const credentials = suite<Context>('Credentials, picked as Serverless v3 picks them');

credentials.before(async context => {
  context.work = mkdtempSync(join(tmpdir(), 'fw-credentials-'));
  context.home = join(context.work, 'home');
  mkdirSync(join(context.home, '.aws'), { recursive: true });
  writeFileSync(join(context.home, '.aws', 'credentials'), CREDENTIALS_FILE);
  writeFileSync(join(context.home, '.aws', 'config'), CONFIG_FILE);
  context.seen = [];
  // Answers every call with AccessDenied after noting who signed it: the command stops at its first call.
  context.server = createServer((request, response) => {
    let body = '';
    request.on('data', chunk => (body += chunk));
    request.on('end', () => {
      const target = request.headers['x-amz-target'];
      context.seen.push({
        key: /Credential=([^/]+)\//.exec(request.headers.authorization ?? '')?.[1],
        token: request.headers['x-amz-security-token'] as string | undefined,
        operation: typeof target === 'string' ? target.split('.').pop()! : (/Action=(\w+)/.exec(body)?.[1] ?? `${request.method} ${request.url}`),
      });
      if (typeof target === 'string') {
        response.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        response.end(JSON.stringify({ __type: 'AccessDeniedException', message: 'recorded' }));
      } else {
        response.writeHead(403, { 'content-type': 'text/xml' });
        response.end('<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>recorded</Message></Error><RequestId>1</RequestId></ErrorResponse>');
      }
    });
  });
  await new Promise<void>(resolve => context.server.listen(0, '127.0.0.1', resolve));
  context.url = `http://127.0.0.1:${(context.server.address() as AddressInfo).port}`;
});

credentials.after(async context => {
  await new Promise(resolve => context.server.close(resolve));
  rmSync(context.work, { recursive: true, force: true });
});

interface Case {
  /** `provider.profile` */
  providerProfile?: string;
  stage?: string;
  env?: Record<string, string>;
  args?: string[];
  /** Service file lines after `provider.runtime` (variables, plugins). */
  extra?: string;
  /** Other files of the service folder. */
  files?: Record<string, string>;
}

/** The built CLI in its own process (so the SDK's own warnings would show on its stderr), in a HOME with the profile files and no other AWS setting. */
async function fw(context: Context, command: string[], given: Case): Promise<{ code: number | null; stdout: string; stderr: string; seen: Seen[] }> {
  const dir = mkdtempSync(join(context.work, 'service-'));
  const profile = given.providerProfile ? `  profile: ${given.providerProfile}\n` : '';
  writeFileSync(join(dir, 'serverless.yml'), `service: probe\nprovider:\n  name: aws\n  runtime: nodejs20.x\n${profile}${given.extra ?? ''}functions:\n  hello:\n    handler: handler.hello\n`);
  writeFileSync(join(dir, 'handler.js'), 'exports.hello = async () => ({ statusCode: 200 });\n');
  for (const [file, text] of Object.entries(given.files ?? {})) writeFileSync(join(dir, file), text);
  const env = childEnv({ HOME: context.home, AWS_EC2_METADATA_DISABLED: 'true', ...given.env });
  for (const name of Object.keys(env)) if (/^AWS_/.test(name) && !(name in (given.env ?? {})) && name !== 'AWS_EC2_METADATA_DISABLED') delete env[name];
  context.seen = [];
  const child = spawn(process.execPath, [FW, ...command, ...(given.stage ? ['--stage', given.stage] : []), ...(given.args ?? [])], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', chunk => (stdout += chunk));
  child.stderr.on('data', chunk => (stderr += chunk));
  const code = await new Promise<number | null>(resolve => child.on('close', resolve));
  return { code, stdout, stderr, seen: context.seen };
}

/** `fw deploy --verbose` against the recording endpoint: the keys that reached it, and the line naming where they came from. */
async function deployWith(context: Context, given: Case): Promise<{ keys: string[]; tokens: Array<string | undefined>; said: string | undefined; output: string }> {
  const run = await fw(context, ['deploy', '--verbose', '--endpoint-url', context.url], given);
  const output = run.stdout + run.stderr;
  assert.is(run.code, 1, output);
  for (const secret of ['secret-of-', 'stage-secret']) assert.not.ok(output.includes(secret), `a secret was printed:\n${output}`);
  // No AWS SDK warning (multiple credential sources, AWS_PROFILE, …) about what the user did or did not set.
  assert.not.match(output, /WARNING|@aws-sdk/, output);
  return { keys: [...new Set(run.seen.map(seen => seen.key!))], tokens: [...new Set(run.seen.map(seen => seen.token))], said: /^credentials: (.*)$/m.exec(run.stdout)?.[1], output };
}

const PRECEDENCE: Array<[string, Case, string, string]> = [
  ['nothing named: the default profile', {}, 'AKIDDEFAULT', "the AWS SDK's default chain"],
  ['provider.profile', { providerProfile: 'p2' }, 'AKIDP2', 'provider.profile p2'],
  ['environment keys over provider.profile', { providerProfile: 'p2', env: ENV_KEYS }, 'AKIDENV', 'environment (AWS_ACCESS_KEY_ID)'],
  ['AWS_PROFILE over the environment keys and provider.profile', { providerProfile: 'p2', env: { ...ENV_KEYS, AWS_PROFILE: 'p1' } }, 'AKIDP1', 'AWS_PROFILE=p1'],
  [
    "the stage's keys over AWS_PROFILE",
    { providerProfile: 'p2', env: { ...ENV_KEYS, AWS_PROFILE: 'p1', AWS_DEV_ACCESS_KEY_ID: 'AKIDSTAGE', AWS_DEV_SECRET_ACCESS_KEY: 'stage-secret' } },
    'AKIDSTAGE',
    'environment (AWS_DEV_ACCESS_KEY_ID)',
  ],
  [
    "the stage's profile over the stage's keys",
    { providerProfile: 'p2', env: { ...ENV_KEYS, AWS_PROFILE: 'p1', AWS_DEV_ACCESS_KEY_ID: 'AKIDSTAGE', AWS_DEV_SECRET_ACCESS_KEY: 'stage-secret', AWS_DEV_PROFILE: 'p3' } },
    'AKIDP3',
    'AWS_DEV_PROFILE=p3',
  ],
  [
    '--aws-profile over everything',
    { providerProfile: 'p2', env: { ...ENV_KEYS, AWS_PROFILE: 'p1', AWS_DEV_PROFILE: 'p3' }, args: ['--aws-profile', 'p4'] },
    'AKIDP4',
    '--aws-profile p4',
  ],
  ['the stage upper-cased, its dash kept', { stage: 'my-stage', env: { 'AWS_MY-STAGE_PROFILE': 'p3', AWS_MY_STAGE_PROFILE: 'p1' } }, 'AKIDP3', 'AWS_MY-STAGE_PROFILE=p3'],
  ['a key without its secret is ignored', { providerProfile: 'p2', env: { AWS_ACCESS_KEY_ID: 'AKIDHALF' } }, 'AKIDP2', 'provider.profile p2'],
  ['a profile of the config file', { env: { AWS_PROFILE: 'p5' } }, 'AKIDP5', 'AWS_PROFILE=p5'],
];

for (const [name, given, key, from] of PRECEDENCE) {
  credentials(`${name}: ${key} signs every call, and deploy --verbose says "credentials: ${from}"`, async context => {
    const { keys, said } = await deployWith(context, given);
    assert.equal(keys, [key]);
    assert.is(said, from);
  });
}

credentials('the session token of the environment goes with its keys', async context => {
  const { keys, tokens } = await deployWith(context, { providerProfile: 'p2', env: { ...ENV_KEYS, AWS_SESSION_TOKEN: 'token-of-env' } });
  assert.equal(keys, ['AKIDENV']);
  assert.equal(tokens, ['token-of-env']);
});

credentials('the shared files named by AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE are read instead of ~/.aws', async context => {
  const elsewhere = join(context.work, 'elsewhere');
  mkdirSync(elsewhere, { recursive: true });
  writeFileSync(join(elsewhere, 'credentials'), '[p1]\naws_access_key_id = AKIDELSEWHERE\naws_secret_access_key = secret-of-elsewhere\n');
  writeFileSync(join(elsewhere, 'config'), '');
  const { keys } = await deployWith(context, { env: { AWS_PROFILE: 'p1', AWS_SHARED_CREDENTIALS_FILE: join(elsewhere, 'credentials'), AWS_CONFIG_FILE: join(elsewhere, 'config') } });
  assert.equal(keys, ['AKIDELSEWHERE']);
});

credentials('a profile that is not configured stops the command in one line, even below a source that wins (as v3 does)', async context => {
  const run = await fw(context, ['info', '--endpoint-url', context.url], { providerProfile: 'prod', env: ENV_KEYS });
  assert.is(run.code, 1);
  const files = `${join(context.home, '.aws', 'credentials')} and no [profile prod] in ${join(context.home, '.aws', 'config')}`;
  assert.is(run.stderr, `Error: AWS profile "prod" (provider.profile) is not configured: no [prod] in ${files}\n`);
  assert.equal(run.seen, []);
});

credentials('a profile without credentials is named with where it came from, in one line', async context => {
  const run = await fw(context, ['info', '--endpoint-url', context.url], { env: { AWS_PROFILE: 'p6' } });
  assert.is(run.code, 1);
  assert.is(run.stderr, 'Error: Cannot load the AWS credentials of AWS_PROFILE=p6 for describing probe-dev: Could not resolve credentials using profile: [p6] in configuration/credentials file(s).\n');
  assert.equal(run.seen, []);
});

credentials('--aws-profile names the profile to use: another one missing below it does not matter (v3 stops on a missing AWS_PROFILE)', async context => {
  const { keys, said } = await deployWith(context, { providerProfile: 'prod', env: { AWS_PROFILE: 'nobody' }, args: ['--aws-profile', 'p1'] });
  assert.equal(keys, ['AKIDP1']);
  assert.is(said, '--aws-profile p1');
});

credentials('${ssm:} reads with the same credentials as the deploy', async context => {
  const run = await fw(context, ['print'], {
    providerProfile: 'p2',
    env: { ...ENV_KEYS, AWS_PROFILE: 'p1', AWS_ENDPOINT_URL: context.url },
    extra: "  environment:\n    TOKEN: ${ssm:/probe/token, 'none'}\n",
  });
  assert.equal(
    run.seen.map(seen => [seen.operation, seen.key]),
    [['GetParameter', 'AKIDP1']],
    run.stderr,
  );
});

credentials("a plugin's provider.request signs with the command's credentials", async context => {
  const plugin = `module.exports = class {
  constructor(serverless) {
    this.hooks = { 'before:package:initialize': () => serverless.getProvider('aws').request('STS', 'getCallerIdentity', {}).catch(() => undefined) };
  }
};
`;
  const run = await fw(context, ['package'], {
    providerProfile: 'p2',
    stage: 'qa',
    env: { AWS_ENDPOINT_URL: context.url, AWS_QA_PROFILE: 'p3' },
    extra: '  stage: qa\nplugins:\n  - ./caller-plugin\n',
    files: { 'caller-plugin.js': plugin },
  });
  assert.equal(run.seen.map(seen => [seen.operation, seen.key]), [['GetCallerIdentity', 'AKIDP3']], run.stdout + run.stderr);
});

credentials('the choice, without reading a file: every source named once, highest first', () => {
  const env = { AWS_PROFILE: 'p1', AWS_ACCESS_KEY_ID: 'A', AWS_SECRET_ACCESS_KEY: 'S', AWS_PROD_PROFILE: 'p3' };
  assert.equal(chooseCredentials({ stage: 'prod', providerProfile: 'p2', env }), { profile: 'p3', from: 'AWS_PROD_PROFILE=p3' });
  assert.equal(chooseCredentials({ stage: 'dev', providerProfile: 'p2', env }), { profile: 'p1', from: 'AWS_PROFILE=p1' });
  assert.equal(chooseCredentials({ stage: 'dev', providerProfile: 'p2', env: { AWS_ACCESS_KEY_ID: 'A', AWS_SECRET_ACCESS_KEY: 'S' } }), {
    keys: { accessKeyId: 'A', secretAccessKey: 'S' },
    from: 'environment (AWS_ACCESS_KEY_ID)',
  });
});

credentials.run();

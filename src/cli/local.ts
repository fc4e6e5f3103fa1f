import { Command, Option } from 'clipanion';
import { FwCommand } from './base';
import { ConfigError } from '../errors';
import { OriginAllowList } from '../local/access/origins';
import { localDataDir } from '../local/state/data-dir';

export class LocalStartCommand extends FwCommand {
  static override paths = [['local', 'start']];
  static override usage = Command.Usage({
    description: 'Run the local cloud (CloudFormation, S3, Lambda, API Gateway, … on localhost) until interrupted',
    details: `
      State (stacks, buckets, objects, functions) persists under --data, so a later run sees earlier deploys.
      Point the AWS CLI or an SDK at the printed URL: requests must be signed (SigV4), with any credentials
      unless --require-credentials (or $FW_LOCAL_CREDENTIALS) names the only ones accepted. A presigned URL
      counts only for S3 objects. Functions' SDKs (v3, v2, boto3) reach the local cloud by themselves;
      $FW_LOCAL_NODE_MODULES names folders the Node.js runtime provides (aws-sdk v2 for nodejs16.x-era apps).

      Web pages cannot call the management APIs unless their origin is given with --allow-origin;
      deployed HTTP APIs and function URLs answer browsers with their own CORS settings.
      Only loopback is served unless --host names another address: whoever reaches the local cloud can run code on this machine.
    `,
    examples: [
      ['Start on the default port 4566', '$0 local start'],
      ['Start on another port with state in ./.local-cloud', '$0 local start --port 5000 --data .local-cloud'],
      ['Let a web app on localhost:3000 call S3 and the other APIs', '$0 local start --allow-origin http://localhost:3000'],
      ['Take 5% of the typical AWS time to create each resource (to measure what runs in parallel)', '$0 local start --provisioning-delay 0.05'],
      ['Accept only requests signed with one key', 'FW_LOCAL_CREDENTIALS=AKIDLOCAL:my-secret $0 local start'],
      ['Throttle past 50 concurrent invocations; retire function environments after 30 idle seconds', '$0 local start --concurrency-limit 50 --function-idle-timeout 30'],
    ],
  });

  port = Option.String('--port,-p', '4566', { description: 'Port to listen on (0 picks a free one)' });
  host = Option.String('--host', '127.0.0.1', { description: 'Address to listen on; anything but loopback exposes the local cloud to the network' });
  data = Option.String('--data', { description: 'State folder (default: $FW_LOCAL_DATA or ~/.fw/local)' });
  allowOrigin = Option.Array('--allow-origin', [], { description: 'A web origin (http://localhost:3000) allowed to call the management APIs; repeatable; * allows any page' });
  provisioningDelay = Option.String('--provisioning-delay', {
    description: 'Make each resource create, update and delete take this fraction of its typical AWS time (0.05: 5%), independent resources side by side as CloudFormation does (default $FW_LOCAL_PROVISIONING_DELAY, else 0)',
  });
  concurrencyLimit = Option.String('--concurrency-limit', {
    description: "Lambda's account concurrency limit: invocations running at once over all functions, each in an environment of its own; more are throttled (default $FW_LOCAL_CONCURRENCY_LIMIT, else 1000, as on AWS)",
  });
  functionIdleTimeout = Option.String('--function-idle-timeout', {
    description: 'Seconds a function environment may stay idle before it is retired, its processes ended (default $FW_LOCAL_FUNCTION_IDLE_SECONDS, else 120)',
  });
  requireCredentials = Option.String('--require-credentials', {
    description: 'KEY:SECRET: verify every signature against this secret (default $FW_LOCAL_CREDENTIALS; the variable keeps the secret out of the process list)',
  });

  async run(): Promise<number> {
    const port = Number(this.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`Invalid --port: expected a number from 0 to 65535, got ${JSON.stringify(this.port)}`);
    if (this.host.trim() === '') throw new ConfigError(`Invalid --host: expected an address such as 127.0.0.1, got ""`);
    const dataDir = localDataDir(this.data);
    // Loaded here, not at startup: other commands never pay for the local cloud's code.
    const local = require('../local/index') as typeof import('../local/index');
    const allowOrigins = OriginAllowList.parse(this.allowOrigin);
    const env = this.context.env;
    const credentialsText = this.requireCredentials ?? env[local.CREDENTIALS_ENV];
    const credentials =
      credentialsText === undefined ? undefined : local.parseLocalCredentials(credentialsText, this.requireCredentials !== undefined ? '--require-credentials' : `$${local.CREDENTIALS_ENV}`);
    const { provisioningDelayFrom, PROVISIONING_DELAY_ENV } = require('../local/cloudformation/provisioning-clock') as typeof import('../local/cloudformation/provisioning-clock');
    const provisioningDelay =
      this.provisioningDelay !== undefined ? provisioningDelayFrom(this.provisioningDelay, '--provisioning-delay') : provisioningDelayFrom(env[PROVISIONING_DELAY_ENV], `$${PROVISIONING_DELAY_ENV}`);
    const functions = {
      concurrencyLimit: local.concurrencyLimitFrom(this.concurrencyLimit ?? env[local.CONCURRENCY_LIMIT_ENV], this.concurrencyLimit !== undefined ? '--concurrency-limit' : `$${local.CONCURRENCY_LIMIT_ENV}`),
      idleSeconds: local.idleSecondsFrom(this.functionIdleTimeout ?? env[local.IDLE_SECONDS_ENV], this.functionIdleTimeout !== undefined ? '--function-idle-timeout' : `$${local.IDLE_SECONDS_ENV}`),
    };
    let cloud;
    try {
      // The same entry a program or a test suite uses (`fw-deploy/local`), with the CLI's defaults.
      const { startLocalCloud } = require('../api/local-cloud') as typeof import('../api/local-cloud');
      cloud = await startLocalCloud({ port, host: this.host, dataDir, allowOrigins, credentials, provisioningDelay, functions, verbose: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new ConfigError(`Port ${port} is in use; pick another with --port`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') throw new ConfigError(`Invalid --host: ${JSON.stringify(this.host)} is not an address of this machine`);
      throw error;
    }
    // `--local` finds this cloud by the record, on whatever port it listens; removed when it stops.
    const { recordEndpoint } = require('../local/state/running-endpoint') as typeof import('../local/state/running-endpoint');
    const forget = recordEndpoint(dataDir, { url: cloud.url, port: cloud.port });
    const out = this.context.stdout;
    if (cloud.exposed) {
      out.write(`Local cloud listening on ${cloud.boundUrl} (state in ${dataDir})\n`);
      if (cloud.networkUrls.length > 0) out.write(`Reachable from other machines at ${cloud.networkUrls.join(', ')}\n`);
      this.context.stderr.write(
        `Warning: the local cloud is reachable from the network (--host ${this.host}): whoever reaches it can deploy stacks and run code as this user on this machine. ` +
          `${credentials ? 'Only requests signed with the required credentials are served.' : 'Any signature is accepted: add --require-credentials, or listen on 127.0.0.1.'}\n`,
      );
    } else {
      out.write(`Local cloud listening on ${cloud.url} (state in ${dataDir})\n`);
    }
    if (provisioningDelay > 0) out.write(`Each resource takes ${provisioningDelay} × its typical AWS provisioning time\n`);
    if (allowOrigins.length > 0) out.write(`Web pages allowed to call its APIs: ${allowOrigins.join(', ')}\n`);
    out.write(`Use it with the AWS CLI${cloud.exposed ? ' (on this machine)' : ''}:\n`);
    out.write(
      credentials
        ? `  export AWS_ACCESS_KEY_ID=${credentials.accessKeyId} AWS_SECRET_ACCESS_KEY=<the secret given> AWS_DEFAULT_REGION=us-east-1  (signatures are verified)\n`
        : `  export AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_DEFAULT_REGION=us-east-1\n`,
    );
    out.write(`  aws --endpoint-url ${cloud.url} cloudformation describe-stacks\n`);
    out.write(`  aws --endpoint-url ${cloud.url} s3 ls\n`);
    const dataEnv = dataDir === localDataDir(undefined, env) ? '' : `FW_LOCAL_DATA=${dataDir} `;
    out.write(`Deploy to it with: ${dataEnv}fw deploy --local${credentials ? ` (with $${local.CREDENTIALS_ENV} set to the same KEY:SECRET)` : ''}\n`);
    out.write(`Press Ctrl+C to stop.\n`);
    // Stopped by a signal, as a shell reports it: 130 for Ctrl-C (SIGINT), 143 for SIGTERM.
    const signal = await new Promise<NodeJS.Signals>((done) => {
      const stop = (received: NodeJS.Signals) => {
        process.off('SIGINT', interrupted);
        process.off('SIGTERM', terminated);
        done(received);
      };
      const interrupted = () => stop('SIGINT');
      const terminated = () => stop('SIGTERM');
      process.on('SIGINT', interrupted);
      process.on('SIGTERM', terminated);
    });
    out.write('Stopping the local cloud…\n');
    await cloud.stop();
    forget();
    return signal === 'SIGINT' ? 130 : 143;
  }
}

export class LocalResetCommand extends FwCommand {
  static override paths = [['local', 'reset']];
  static override usage = Command.Usage({
    description: 'Delete everything the local cloud stored (stacks, buckets, objects, functions, logs)',
    details: `
      Removes only what the local cloud made: a folder without its .fw-local-cloud marker is refused, files that were
      there before the local cloud first used the folder stay, and a folder a local cloud is running on is left alone.
    `,
    examples: [
      ['Wipe the default state folder', '$0 local reset'],
      ['Wipe the state of a local cloud started with --data .local-cloud', '$0 local reset --data .local-cloud'],
    ],
  });

  data = Option.String('--data', { description: 'State folder (default: $FW_LOCAL_DATA or ~/.fw/local)' });

  async run(): Promise<number> {
    const dataDir = localDataDir(this.data);
    const { planReset, resetDataFolder } = require('../local/state/data-folder') as typeof import('../local/state/data-folder');
    const plan = planReset(dataDir);
    if ('refused' in plan) throw new ConfigError(`Refusing to reset ${dataDir}: ${plan.refused}`);
    const out = this.context.stdout;
    if (plan.remove.length === 0) {
      out.write(`Nothing to remove: ${dataDir} holds no local cloud state\n`);
      return 0;
    }
    resetDataFolder(dataDir, plan);
    out.write(`Removed the local cloud state in ${dataDir}:\n`);
    for (const entry of plan.remove) out.write(`  ${entry}\n`);
    if (plan.removeFolder) out.write(`and the folder itself, which the local cloud had made\n`);
    return 0;
  }
}

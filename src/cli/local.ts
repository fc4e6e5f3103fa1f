import { rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, Option } from 'clipanion';
import { FwCommand } from './base';
import { ConfigError } from '../errors';

/** `--data`, else $FW_LOCAL_DATA, else ~/.fw/local: one place for the local cloud's state. */
export function localDataDir(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (option) return resolve(option);
  if (env.FW_LOCAL_DATA) return resolve(env.FW_LOCAL_DATA);
  return join(homedir(), '.fw', 'local');
}

export class LocalStartCommand extends FwCommand {
  static override paths = [['local', 'start']];
  static override usage = Command.Usage({
    description: 'Run the local cloud (CloudFormation, S3, Lambda, API Gateway, … on localhost) until interrupted',
    details: `
      State (stacks, buckets, objects, functions) persists under --data, so a later run sees earlier deploys.
      Point the AWS CLI or an SDK at the printed URL with any credentials.
    `,
    examples: [
      ['Start on the default port 4566', '$0 local start'],
      ['Start on another port with state in ./.local-cloud', '$0 local start --port 5000 --data .local-cloud'],
    ],
  });

  port = Option.String('--port,-p', '4566', { description: 'Port to listen on (0 picks a free one)' });
  host = Option.String('--host', '127.0.0.1', { description: 'Address to listen on' });
  data = Option.String('--data', { description: 'State folder (default: $FW_LOCAL_DATA or ~/.fw/local)' });

  async run(): Promise<number> {
    const port = Number(this.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`Invalid --port: expected a number from 0 to 65535, got ${JSON.stringify(this.port)}`);
    const dataDir = localDataDir(this.data);
    let cloud;
    try {
      // Loaded here, not at startup: other commands never pay for the local cloud's code.
      const { startLocalCloud } = require('../local/index') as typeof import('../local/index');
      cloud = await startLocalCloud({ port, host: this.host, dataDir });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new ConfigError(`Port ${port} is in use; pick another with --port`);
      throw error;
    }
    const out = this.context.stdout;
    out.write(`Local cloud listening on ${cloud.url} (state in ${dataDir})\n`);
    out.write(`Use it with the AWS CLI:\n`);
    out.write(`  export AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local AWS_DEFAULT_REGION=us-east-1\n`);
    out.write(`  aws --endpoint-url ${cloud.url} cloudformation describe-stacks\n`);
    out.write(`  aws --endpoint-url ${cloud.url} s3 ls\n`);
    out.write(`Deploy to it with: fw deploy --local\n`);
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
    return signal === 'SIGINT' ? 130 : 143;
  }
}

export class LocalResetCommand extends FwCommand {
  static override paths = [['local', 'reset']];
  static override usage = Command.Usage({
    description: 'Delete everything the local cloud stored (stacks, buckets, objects, functions, logs)',
    examples: [['Wipe the default state folder', '$0 local reset']],
  });

  data = Option.String('--data', { description: 'State folder (default: $FW_LOCAL_DATA or ~/.fw/local)' });

  async run(): Promise<number> {
    const dataDir = localDataDir(this.data);
    if (dataDir === resolve('/') || dataDir === homedir()) throw new ConfigError(`Refusing to delete ${dataDir}`);
    rmSync(dataDir, { recursive: true, force: true });
    this.context.stdout.write(`Removed the local cloud state in ${dataDir}\n`);
    return 0;
  }
}

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import type { LoadedService } from '../package/load';
import { CloudCommand } from './cloud-command';
import { ServiceCommand } from './base';

/** `functionOf`, loaded when a command runs (the package modules are not needed at start-up). */
export function lazyFunctionOf(loaded: LoadedService, key: string) {
  return (require('../package/load') as typeof import('../package/load')).functionOf(loaded, key);
}

/** The event to invoke with: `--data` (JSON, or a plain string) or `--path` (a JSON file); `{}` by default. */
export function readEvent(data: string | undefined, path: string | undefined): unknown {
  if (data !== undefined && path !== undefined) throw new ConfigError('Give the event with --data or with --path, not both');
  if (path !== undefined) {
    let text: string;
    try {
      text = readFileSync(resolve(path), 'utf8');
    } catch {
      throw new ConfigError(`Cannot read the event file "${path}" (--path)`);
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ConfigError(`The event file "${path}" (--path) is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (data === undefined) return {};
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}


export class InvokeCommand extends CloudCommand {
  static override paths = [['invoke']];
  static override usage = CloudCommand.Usage({
    description: 'Invoke a deployed function and print what it returned',
    examples: [
      ['Invoke hello in the local cloud with an event', `$0 invoke --local -f hello --data '{"name":"Ada"}'`],
      ['Invoke with an event from a file and show the log tail', '$0 invoke -f hello --path event.json --log'],
    ],
  });

  function = Option.String('--function,-f', { required: true, description: 'The function key under functions:' });
  data = Option.String('--data,-d', { description: 'The event, as JSON (or a plain string)' });
  eventPath = Option.String('--path,-p', { description: 'A JSON file holding the event' });
  log = Option.Boolean('--log,-l', false, { description: 'Print the end of the invocation log' });

  async run(): Promise<number> {
    const { InvokeCommand: Invoke } = require('@aws-sdk/client-lambda') as typeof import('@aws-sdk/client-lambda');
    const { lambdaClient, describeAwsError } = require('../deploy/aws') as typeof import('../deploy/aws');
    const event = readEvent(this.data, this.eventPath);
    const loaded = await this.loadService();
    const { physicalName } = lazyFunctionOf(loaded, this.function);
    const connection = await this.connect(loaded);
    try {
      const lambda = lambdaClient(connection.clients.target);
      const result = await lambda
        .send(new Invoke({ FunctionName: physicalName, Payload: Buffer.from(JSON.stringify(event)), LogType: this.log ? 'Tail' : 'None' }))
        .catch(error => {
          throw describeAwsError(error, `invoking ${physicalName}`, connection.clients.target);
        });
      const payload = result.Payload ? Buffer.from(result.Payload).toString('utf8') : '';
      if (this.log && result.LogResult) this.context.stderr.write(Buffer.from(result.LogResult, 'base64').toString('utf8'));
      const pretty = prettyJson(payload);
      if (result.FunctionError) {
        this.context.stderr.write(`${pretty}\n`);
        return 1;
      }
      this.context.stdout.write(`${pretty}\n`);
      return 0;
    } finally {
      await connection.close();
    }
  }
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export class InvokeLocalCommand extends ServiceCommand {
  static override paths = [['invoke', 'local']];
  static override usage = ServiceCommand.Usage({
    description: "Run a function's handler in this process, with the event shapes the cloud sends",
    examples: [['Run hello locally with an event', `$0 invoke local -f hello --data '{"name":"Ada"}'`]],
  });

  function = Option.String('--function,-f', { required: true, description: 'The function key under functions:' });
  data = Option.String('--data,-d', { description: 'The event, as JSON (or a plain string)' });
  eventPath = Option.String('--path,-p', { description: 'A JSON file holding the event' });

  async run(): Promise<number> {
    const { loadServiceConfig } = require('../package/load') as typeof import('../package/load');
    const { invokeHandler } = require('../deploy/invoke-local') as typeof import('../deploy/invoke-local');
    const event = readEvent(this.data, this.eventPath);
    const loaded = await loadServiceConfig(process.cwd(), this.cliOptions());
    const { fn, physicalName } = lazyFunctionOf(loaded, this.function);
    const outcome = await invokeHandler({ loaded, key: this.function, fn, physicalName, event, log: line => this.context.stderr.write(line) });
    if ('error' in outcome) {
      this.context.stderr.write(`${JSON.stringify(outcome.error, null, 2)}\n`);
      return 1;
    }
    this.context.stdout.write(`${JSON.stringify(outcome.result, null, 2) ?? 'null'}\n`);
    return 0;
  }
}

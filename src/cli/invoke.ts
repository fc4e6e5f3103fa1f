import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import type { LoadedService } from '../service/load';
import { CloudCommand } from './cloud-command';
import { ServiceCommand } from './base';

/** `functionOf`, loaded when a command runs (the package modules are not needed at start-up). */
export function lazyFunctionOf(loaded: LoadedService, key: string) {
  return (require('../service/load') as typeof import('../service/load')).functionOf(loaded, key);
}

/** A JSON file given with an option (`--path`, `--contextPath`): its value, or a one-line error naming the file and option. */
function readJsonFile(path: string, what: string, option: string): unknown {
  let text: string;
  try {
    text = readFileSync(resolve(path), 'utf8');
  } catch {
    throw new ConfigError(`Cannot read the ${what} file "${path}" (${option})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`The ${what} file "${path}" (${option}) is not valid JSON: ${(error as Error).message}`);
  }
}

/** JSON, or the plain string when it is not JSON. */
function jsonOrString(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The event to invoke with: `--data` (JSON, or a plain string) or `--path` (a JSON file); `{}` by default.
 * With `raw` (`--raw`) the data is passed as the string it is, JSON or not.
 */
export function readEvent(data: string | undefined, path: string | undefined, raw = false): unknown {
  if (data !== undefined && path !== undefined) throw new ConfigError('Give the event with --data or with --path, not both');
  if (path !== undefined) return readJsonFile(path, 'event', '--path');
  if (data === undefined) return {};
  return raw ? data : jsonOrString(data);
}

/** The client context: `--contextPath` (a JSON file) over `--context` (JSON, or a plain string), as v3. */
export function readContext(context: string | undefined, contextPath: string | undefined): unknown {
  if (contextPath !== undefined) return readJsonFile(contextPath, 'context', '--contextPath');
  return context === undefined ? undefined : jsonOrString(context);
}

const INVOCATION_TYPES = ['RequestResponse', 'Event', 'DryRun'] as const;

export class InvokeCommand extends CloudCommand {
  static override paths = [['invoke']];
  static override usage = CloudCommand.Usage({
    description: 'Invoke a deployed function and print what it returned',
    examples: [
      ['Invoke hello in the local cloud with an event', `$0 invoke --local -f hello --data '{"name":"Ada"}'`],
      ['Invoke with an event from a file and show the log tail', '$0 invoke -f hello --path event.json --log'],
      ['Invoke version 3 asynchronously', '$0 invoke -f hello --qualifier 3 --type Event'],
    ],
  });

  function = Option.String('--function,-f', { required: true, description: 'The function key under functions:' });
  data = Option.String('--data,-d', { description: 'The event, as JSON (or a plain string)' });
  eventPath = Option.String('--path,-p', { description: 'A JSON file holding the event' });
  log = Option.Boolean('--log,-l', false, { description: 'Print the end of the invocation log' });
  type = Option.String('--type,-t', 'RequestResponse', { description: 'RequestResponse (wait for the result), Event (asynchronous) or DryRun (only check)' });
  qualifier = Option.String('--qualifier,-q', { description: 'The version (or alias) to invoke; default $LATEST' });
  raw = Option.Boolean('--raw', false, { description: 'Pass --data as a string, even when it is JSON' });
  clientContext = Option.String('--context', { description: 'The client context, as JSON (or a plain string)' });
  contextPath = Option.String('--contextPath', { description: 'A JSON file holding the client context (wins over --context)' });

  async run(): Promise<number> {
    const { InvokeCommand: Invoke } = require('@aws-sdk/client-lambda') as typeof import('@aws-sdk/client-lambda');
    const { lambdaClient, describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
    const type = INVOCATION_TYPES.find(candidate => candidate === this.type);
    if (!type) throw new ConfigError(`Invalid --type "${this.type}": expected ${INVOCATION_TYPES.join(', ')}`);
    const event = readEvent(this.data, this.eventPath, this.raw);
    const context = readContext(this.clientContext, this.contextPath);
    const loaded = await this.loadService();
    const { physicalName } = lazyFunctionOf(loaded, this.function);
    const connection = await this.connect(loaded);
    try {
      const lambda = lambdaClient(connection.clients.target);
      const result = await lambda
        .send(
          new Invoke({
            FunctionName: physicalName,
            Qualifier: this.qualifier,
            InvocationType: type,
            Payload: Buffer.from(JSON.stringify(event)),
            LogType: this.log && type === 'RequestResponse' ? 'Tail' : 'None',
            ...(context !== undefined ? { ClientContext: Buffer.from(JSON.stringify(context)).toString('base64') } : {}),
          }),
        )
        .catch(error => {
          throw describeAwsError(error, `invoking ${physicalName}`, connection.clients.target);
        });
      if (type !== 'RequestResponse') {
        this.context.stdout.write(
          type === 'Event'
            ? `Invoked ${this.function} asynchronously (Event): Lambda accepted it (status ${result.StatusCode})\n`
            : `Dry run: ${this.function} can be invoked (status ${result.StatusCode})\n`,
        );
        return 0;
      }
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
  raw = Option.Boolean('--raw', false, { description: 'Pass --data as a string, even when it is JSON' });
  env = Option.Array('--env,-e', { description: 'An environment variable for the handler, as KEY=VALUE; repeatable' });
  clientContext = Option.String('--context', { description: 'The client context, as JSON (or a plain string)' });
  contextPath = Option.String('--contextPath,-x', { description: 'A JSON file holding the client context (wins over --context)' });
  docker = Option.Boolean('--docker', false, { description: 'Refused: fw runs handlers without Docker' });
  dockerArg = Option.String('--docker-arg', { description: 'Refused with --docker' });

  async run(): Promise<number> {
    if (this.docker) {
      throw new ConfigError('--docker is not supported: fw invoke local runs Node.js handlers in this process and Python handlers with python3, without Docker');
    }
    if (this.dockerArg !== undefined) this.context.stderr.write('--docker-arg: ignored, fw invoke local does not use Docker\n');
    const { loadServiceConfig } = require('../service/load') as typeof import('../service/load');
    const { invokeHandler, parseEnvOptions } = require('../deploy/invoke-local') as typeof import('../deploy/invoke-local');
    const event = readEvent(this.data, this.eventPath, this.raw);
    const clientContext = readContext(this.clientContext, this.contextPath);
    const environment = parseEnvOptions(this.env ?? []);
    const loaded = await loadServiceConfig(process.cwd(), this.cliOptions());
    const { fn, physicalName } = lazyFunctionOf(loaded, this.function);
    const outcome = await invokeHandler({ loaded, key: this.function, fn, physicalName, event, clientContext, environment, log: line => this.context.stderr.write(line) });
    if ('error' in outcome) {
      this.context.stderr.write(`${JSON.stringify(outcome.error, null, 2)}\n`);
      return 1;
    }
    this.context.stdout.write(`${JSON.stringify(outcome.result, null, 2) ?? 'null'}\n`);
    return 0;
  }
}

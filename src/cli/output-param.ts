import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import { ServiceCommand } from './base';
import { CloudCommand } from './cloud-command';
import { outputsTable } from './outputs';

/**
 * Serverless v3's `output get/list` and `param get/list` without the Serverless Dashboard: the
 * outputs are the deployed stack's (as `fw outputs`), the parameters the service file's `params:`
 * for the stage (`default` under it) with `--param` on top, as `${param:…}` resolves them.
 */

export class OutputListCommand extends CloudCommand {
  static override paths = [['output', 'list']];
  static override usage = CloudCommand.Usage({
    description: "List the deployed stack's outputs (Serverless v3's output list, without a dashboard)",
    examples: [['The outputs of the prod stage', '$0 output list --stage prod']],
  });

  async run(): Promise<number> {
    const { info } = require('../api/info') as typeof import('../api/info');
    const { outputs } = await info(this.cloudRequest());
    this.context.stdout.write(outputsTable(['output', 'value'], Object.entries(outputs)));
    return 0;
  }
}

export class OutputGetCommand extends CloudCommand {
  static override paths = [['output', 'get']];
  static override usage = CloudCommand.Usage({
    description: "Print one output of the deployed stack (Serverless v3's output get, without a dashboard)",
    examples: [['The endpoint, for a script', '$0 output get --name ServiceEndpoint']],
  });

  name = Option.String('--name', { description: 'The output key (required)' });

  async run(): Promise<number> {
    if (this.name === undefined) throw new ConfigError('Missing --name NAME: the output to print (fw output list shows them)');
    const { info } = require('../api/info') as typeof import('../api/info');
    const { outputs, stackName } = await info(this.cloudRequest());
    if (!Object.hasOwn(outputs, this.name)) {
      throw new ConfigError(`Stack ${stackName} has no output "${this.name}" (it has: ${Object.keys(outputs).join(', ') || 'none'})`);
    }
    this.context.stdout.write(`${outputs[this.name]}\n`);
    return 0;
  }
}

abstract class ParamCommand extends ServiceCommand {
  cliOptionsForParams(): Record<string, unknown> {
    return this.cliOptions();
  }
  serviceFolder(): string {
    return this.serviceDir;
  }
}

/** `params.default`, then `params.<stage>`, then `--param`: later ones win, as `${param:…}` reads them. */
async function stageParams(command: ParamCommand): Promise<{ stage: string; params: Record<string, unknown> }> {
  const { loadServiceConfig } = require('../service/load') as typeof import('../service/load');
  const { cliParams } = require('../variables/sources/param') as typeof import('../variables/sources/param');
  const options = command.cliOptionsForParams();
  const loaded = await loadServiceConfig(command.serviceFolder(), options);
  const params = ((loaded.config as { params?: Record<string, Record<string, unknown> | undefined> }).params ?? {});
  return { stage: loaded.stage, params: { ...params.default, ...params[loaded.stage], ...cliParams(options.param) } };
}

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export class ParamListCommand extends ParamCommand {
  static override paths = [['param', 'list']];
  static override usage = ServiceCommand.Usage({
    description: "List the stage's parameters: params.<stage>, params.default and --param (Serverless v3's param list, without a dashboard)",
    examples: [['The parameters of the prod stage', '$0 param list --stage prod']],
  });

  async run(): Promise<number> {
    const { params } = await stageParams(this);
    this.context.stdout.write(outputsTable(['param', 'value'], Object.entries(params).map(([name, value]) => [name, shown(value)])));
    return 0;
  }
}

export class ParamGetCommand extends ParamCommand {
  static override paths = [['param', 'get']];
  static override usage = ServiceCommand.Usage({
    description: "Print one of the stage's parameters (Serverless v3's param get, without a dashboard)",
    examples: [['The domain of the prod stage', '$0 param get --name domain --stage prod']],
  });

  name = Option.String('--name', { description: 'The parameter (required)' });

  async run(): Promise<number> {
    if (this.name === undefined) throw new ConfigError('Missing --name NAME: the parameter to print (fw param list shows them)');
    const { stage, params } = await stageParams(this);
    if (!Object.hasOwn(params, this.name)) {
      throw new ConfigError(`Parameter "${this.name}" is not defined for stage ${stage} (no --param "${this.name}=…", params.${stage}.${this.name} or params.default.${this.name})`);
    }
    this.context.stdout.write(`${shown(params[this.name])}\n`);
    return 0;
  }
}

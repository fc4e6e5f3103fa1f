import { Option } from 'clipanion';
import { ConfigError } from '../errors';
import { CloudCommand } from './cloud-command';

/** `fw deploy` and `fw deploy function`: both update one function with `-f`. */
abstract class FunctionDeployingCommand extends CloudCommand {
  /** `fw deploy function -f KEY` (and `fw deploy -f KEY`): one function's code and settings through the Lambda API. */
  protected async deployOneFunction(key: string, options: { configOnly: boolean }): Promise<number> {
    const { packageService } = require('../package/service') as typeof import('../package/service');
    const { deployFunction } = require('../deploy/deploy-function') as typeof import('../deploy/deploy-function');
    const { describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
    // Container images go where the function goes: the connection is opened when packaging needs it.
    let opened: import('../deploy/connect').Connection | undefined;
    const imageTarget = async (loaded: import('../service/load').LoadedService) => (opened ??= await this.connect(loaded)).clients.target;
    const packaged = await packageService({ cwd: process.cwd(), options: this.cliOptions(), imageTarget }).catch(async error => {
      await opened?.close();
      throw error;
    });
    const connection = opened ?? (await this.connect(packaged));
    const reporter = this.reporter();
    try {
      const updates = await deployFunction(packaged, key, connection.clients, reporter, options).catch(error => {
        throw describeAwsError(error, `updating function ${key}`, connection.clients.target);
      });
      reporter.done();
      this.context.stdout.write(
        updates.length > 0
          ? `${this.out.green('✔')} Function ${key} updated (${updates.join(' and ')})\n`
          : `Function ${key} is already up to date\n`,
      );
      return 0;
    } finally {
      reporter.done();
      await connection.close();
    }
  }
}

export class DeployCommand extends FunctionDeployingCommand {
  static override paths = [['deploy']];
  static override usage = CloudCommand.Usage({
    description: 'Package the service and deploy it as one CloudFormation stack ({service}-{stage})',
    details: `
      Creates the stack on the first deploy, skips the update when neither the template nor the code changed
      (\`--force\` deploys anyway), uploads the artifacts, updates the stack through a change set
      (\`provider.deploymentMethod: direct\` updates it directly) and prints the endpoints.
      With \`--local\` the stack goes into fw's embedded local cloud: no AWS account needed.

      A change that would remove or replace a resource holding data (a DynamoDB table, an S3 bucket, a
      database, a queue, a user pool, a log group you declared, …) stops the deploy before anything
      changes, naming each one; \`--allow-data-loss\` goes ahead, and a resource with
      \`DeletionPolicy: Retain\` (\`UpdateReplacePolicy: Retain\` for a replacement) is kept, so it passes.
      Ctrl-C exits with 130: while packaging the staging folder is removed; on AWS CloudFormation
      goes on with a running stack operation; a local cloud running inside the command rolls it back.

      \`--hotswap\` updates functions in place through the Lambda API when only their code or plain
      settings (environment, memory, timeout, handler, runtime, description) changed: seconds instead of a
      stack update. Anything else says why and deploys through CloudFormation. The stack is then marked
      as drifted, so the next \`fw deploy\` updates it through CloudFormation. Refused on stages named like
      production (prod, production, prd, live) unless \`--hotswap-production\`.
    `,
    examples: [
      ['Deploy into the local cloud', '$0 deploy --local'],
      ['Deploy the prod stage to AWS in eu-west-1', '$0 deploy --stage prod --region eu-west-1'],
      ['Deploy with a named AWS profile, showing every stack event', '$0 deploy --aws-profile work --verbose'],
      ['Deploy a folder packaged earlier with fw package', '$0 deploy --package .serverless'],
      ['Show what a deploy would change without changing anything (exit 2 when something would)', '$0 deploy --dry-run'],
      ['Deploy to another AWS-compatible endpoint', '$0 deploy --endpoint-url http://localhost:4566'],
      ['Update changed function code in seconds, skipping CloudFormation when it can', '$0 deploy --hotswap'],
      ['Deploy although a table or bucket is removed or replaced with its data', '$0 deploy --allow-data-loss'],
      ['In a folder with fw-compose.yml or serverless-compose.yml: deploy one service of the application', '$0 deploy --service api'],
    ],
  });

  force = Option.Boolean('--force', false, { description: 'Deploy even when nothing changed' });
  packageDir = Option.String('--package,-p', { description: 'Deploy a folder packaged earlier instead of packaging now' });
  function = Option.String('--function,-f', { description: 'Only update this function, as "fw deploy function -f" (not with --package)' });
  conceal = Option.Boolean('--conceal', false, { description: 'Hide the values of stack outputs and API keys in what is printed' });
  s3Accelerate = Option.Boolean('--aws-s3-accelerate', { description: 'Upload through S3 Transfer Acceleration (on AWS; --no-aws-s3-accelerate suspends it)' });
  enforceHashUpdate = Option.Boolean('--enforce-hash-update', false, { description: "Accepted for Serverless v3 scripts: fw's version hashes already change with the code and configuration" });
  minifyTemplate = Option.Boolean('--minify-template', false, { description: 'Upload the template without whitespace' });
  allowDataLoss = Option.Boolean('--allow-data-loss', false, { description: 'Go ahead when the deploy removes or replaces a resource holding data' });
  hotswap = Option.Boolean('--hotswap', false, { description: 'Update only changed function code and settings in place, when nothing else changed' });
  hotswapProduction = Option.Boolean('--hotswap-production', false, { description: 'Allow --hotswap on a stage named like production' });
  dryRun = Option.Boolean('--dry-run', false, { description: 'Only print what the deploy would change (exit 0: nothing, 2: changes), like fw diff' });

  protected override cliOptions(): Record<string, unknown> {
    const options = super.cliOptions();
    // On a local or custom endpoint the option means nothing (said once, in run): the template stays as without it.
    if (this.s3Accelerate !== undefined && !this.local && !this.endpointUrl && !process.env.AWS_ENDPOINT_URL) options['aws-s3-accelerate'] = this.s3Accelerate;
    return options;
  }

  async run(): Promise<number> {
    if (this.function !== undefined) {
      if (this.packageDir !== undefined) throw new ConfigError('--function cannot be used with --package: "fw deploy -f" packages and updates one function');
      return this.deployOneFunction(this.function, { configOnly: false });
    }
    const { openDeployment } = require('../api/deploy') as typeof import('../api/deploy');
    const { formatSummary } = require('../deploy/summary') as typeof import('../deploy/summary');
    const notes = require('./deploy-v3-options') as typeof import('./deploy-v3-options');
    const started = Date.now();
    if (this.enforceHashUpdate) this.context.stderr.write(`${notes.ENFORCE_HASH_UPDATE}\n`);
    const reporter = this.reporter();
    const deployment = await openDeployment({ ...this.cloudRequest(), packageDir: this.packageDir, reporter }).finally(() => reporter.done());
    const { packaged, connection } = deployment;
    if (this.s3Accelerate !== undefined) await notes.useS3Acceleration(connection, packaged.stackName, this.s3Accelerate, (line: string) => this.context.stderr.write(`${line}\n`));
    if (this.minifyTemplate) notes.minifyTemplates(packaged);
    if (this.dryRun) {
      const { printPreview } = require('./diff') as typeof import('./diff');
      return printPreview(this, packaged, connection);
    }
    const { interruptDeploy } = require('../deploy/interruption') as typeof import('../deploy/interruption');
    let interrupting = false;
    const interrupted = () => {
      // A second Ctrl-C leaves at once; a local cloud's state journal lets its next start recover.
      if (interrupting) process.exit(130);
      interrupting = true;
      reporter.done();
      void interruptDeploy(packaged.stackName, connection)
        .then(text => this.context.stderr.write(text))
        .finally(async () => {
          await connection.close().catch(() => undefined);
          process.exit(130);
        });
    };
    process.on('SIGINT', interrupted);
    process.on('SIGTERM', interrupted);
    // The interruption handler says what happened and exits; a failure it caused is not news.
    const unlessInterrupted = <T>(error: unknown): Promise<T> => (interrupting ? new Promise<T>(() => undefined) : Promise.reject(error));
    try {
      const result = await deployment
        .deploy({ force: this.force, allowDataLoss: this.allowDataLoss, hotswap: this.hotswap, hotswapProduction: this.hotswapProduction, reporter })
        .catch(unlessInterrupted<never>);
      if (interrupting) return new Promise<number>(() => undefined);
      reporter.done();
      if (result.outcome === 'hotswapped') {
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        const what = result.hotswapped?.length ? `Hotswapped ${result.hotswapped.join(', ')}` : 'Hotswap: every function already runs this code and these settings';
        this.context.stdout.write(`${this.out.green('✔')} ${what} in stack ${packaged.stackName} (${seconds} s); the next fw deploy updates the stack through CloudFormation\n\n`);
      }
      if (result.outcome === 'deployed') this.context.stdout.write(`${this.out.green('✔')} Service deployed to stack ${packaged.stackName} (${((Date.now() - started) / 1000).toFixed(1)} s)\n\n`);
      this.context.stdout.write(formatSummary(this.conceal ? notes.concealed(result.summary) : result.summary, this.verbose));
      const { localDeployReport } = require('../deploy/local-report') as typeof import('../deploy/local-report');
      this.context.stdout.write(await localDeployReport(connection.clients.target.endpoint, packaged.stackName));
      if (result.startedLocalCloud) {
        this.context.stdout.write(
          `\nThe local cloud ran inside this command and has stopped; its state is kept. Run "fw local start" to serve these endpoints.\n`,
        );
      }
      return 0;
    } finally {
      process.off('SIGINT', interrupted);
      process.off('SIGTERM', interrupted);
      reporter.done();
      await deployment.close();
    }
  }
}

export class DeployFunctionCommand extends FunctionDeployingCommand {
  static override paths = [['deploy', 'function']];
  static override usage = CloudCommand.Usage({
    description: "Update one deployed function's code and configuration directly, without a stack update",
    details: `
      Faster than a full deploy while you work on one function: the code is uploaded and set with
      the Lambda API, and changed settings (handler, runtime, memory, timeout, description, plain
      environment values) are applied. Anything else (events, permissions, resources) needs \`fw deploy\`.
    `,
    examples: [
      ['Update hello in the local cloud', '$0 deploy function -f hello --local'],
      ['Update hello on AWS, prod stage', '$0 deploy function -f hello --stage prod'],
    ],
  });

  function = Option.String('--function,-f', { required: true, description: 'The function key under functions:' });
  force = Option.Boolean('--force', false, { description: 'Accepted for Serverless v3 scripts: fw compares the code hash and settings, and updates what differs' });
  updateConfig = Option.Boolean('--update-config,-u', false, { description: 'Update only the configuration (handler, runtime, memory, timeout, description, environment), not the code' });

  async run(): Promise<number> {
    return this.deployOneFunction(this.function, { configOnly: this.updateConfig });
  }
}


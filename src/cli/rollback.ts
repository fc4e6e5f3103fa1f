import { Option } from 'clipanion';
import { CloudCommand } from './cloud-command';

export class RollbackCommand extends CloudCommand {
  static override paths = [['rollback']];
  static override usage = CloudCommand.Usage({
    description: 'Redeploy a stored deployment (its template and artifacts); without --timestamp, list them',
    details: `
      Updates the stack with the template the deployment of that timestamp stored in the deployment
      bucket, whose artifacts are still there. That deployment then counts as the newest, so the next
      \`fw deploy\` deploys the files as they are now. \`fw deploy list\` shows the timestamps.
    `,
    examples: [
      ['List the deployments to roll back to', '$0 rollback --local'],
      ['Roll the dev stage back to a deployment', '$0 rollback --timestamp 1764073200000'],
    ],
  });

  timestamp = Option.String('--timestamp,-t', { description: 'The deployment to redeploy (a timestamp from "fw deploy list")' });

  async run(): Promise<number> {
    const deployments = require('../deploy/deployments') as typeof import('../deploy/deployments');
    const { describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
    const loaded = await this.loadService();
    const connection = await this.connect(loaded);
    const reporter = this.reporter();
    try {
      if (this.timestamp === undefined) {
        const stored = await deployments.storedDeployments(connection.clients, loaded).catch(error => {
          throw describeAwsError(error, `listing the deployments of ${loaded.stackName}`, connection.clients.target);
        });
        this.context.stdout.write(
          `Use a timestamp from the deploy list below to roll back to a specific version.\nRun "fw rollback -t YourTimeStampHere"\n\n${deployments.formatDeployments(stored)}`,
        );
        return 0;
      }
      const outcome = await deployments.rollbackService(connection.clients, loaded, this.timestamp, reporter).catch(error => {
        throw describeAwsError(error, `rolling back ${loaded.stackName}`, connection.clients.target);
      });
      reporter.done();
      this.context.stdout.write(
        outcome === 'rolled-back'
          ? `${this.out.green('✔')} Stack ${loaded.stackName} rolled back to the deployment ${this.timestamp}\n`
          : `Stack ${loaded.stackName} already runs the deployment ${this.timestamp}\n`,
      );
      return 0;
    } finally {
      reporter.done();
      await connection.close();
    }
  }
}

export class RollbackFunctionCommand extends CloudCommand {
  static override paths = [['rollback', 'function']];
  static override usage = CloudCommand.Usage({
    description: "Set a function's code back to the code of one of its published versions",
    details: 'As Serverless v3: the code of that version is read and uploaded as the function\'s code; its configuration stays. `fw deploy list functions` lists the versions.',
    examples: [['Roll hello back to version 3', '$0 rollback function -f hello --function-version 3']],
  });

  function = Option.String('--function,-f', { required: true, description: 'The function key under functions:' });
  functionVersion = Option.String('--function-version', { required: true, description: 'The published version whose code to restore' });

  async run(): Promise<number> {
    const { rollbackFunctionCode } = require('../deploy/function-versions') as typeof import('../deploy/function-versions');
    const { lambdaClient, describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
    const { lazyFunctionOf } = require('./invoke') as typeof import('./invoke');
    const loaded = await this.loadService();
    const { physicalName } = lazyFunctionOf(loaded, this.function);
    const connection = await this.connect(loaded);
    try {
      await rollbackFunctionCode(connection.clients, lambdaClient(connection.clients.target), physicalName, this.functionVersion).catch(error => {
        throw describeAwsError(error, `rolling back ${physicalName}`, connection.clients.target);
      });
      this.context.stdout.write(`${this.out.green('✔')} Function ${this.function} rolled back to version ${this.functionVersion}\n`);
      return 0;
    } finally {
      await connection.close();
    }
  }
}

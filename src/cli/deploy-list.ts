import { CloudCommand } from './cloud-command';

export class DeployListCommand extends CloudCommand {
  static override paths = [['deploy', 'list']];
  static override usage = CloudCommand.Usage({
    description: 'List the deployments stored in the deployment bucket: timestamp and files of each',
    details: 'The timestamps are what `fw rollback --timestamp` takes. An artifact a deployment did not upload again (its code was unchanged) is shown where an earlier deployment stored it.',
    examples: [['List the deployments of the dev stage in the local cloud', '$0 deploy list --local']],
  });

  async run(): Promise<number> {
    const { storedDeployments, formatDeployments } = require('../deploy/deployments') as typeof import('../deploy/deployments');
    const { describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
    const loaded = await this.loadService();
    const connection = await this.connect(loaded);
    try {
      const deployments = await storedDeployments(connection.clients, loaded).catch(error => {
        throw describeAwsError(error, `listing the deployments of ${loaded.stackName}`, connection.clients.target);
      });
      this.context.stdout.write(formatDeployments(deployments));
      return 0;
    } finally {
      await connection.close();
    }
  }
}

export class DeployListFunctionsCommand extends CloudCommand {
  static override paths = [['deploy', 'list', 'functions']];
  static override usage = CloudCommand.Usage({
    description: 'List the deployed functions and their published versions',
    details: 'A version number is what `fw rollback function --function-version` and `fw invoke --qualifier` take.',
    examples: [['List the functions of the dev stage in the local cloud', '$0 deploy list functions --local']],
  });

  async run(): Promise<number> {
    const { publishedVersions } = require('../deploy/function-versions') as typeof import('../deploy/function-versions');
    const { lambdaClient, describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
    const { functionOf } = require('../service/load') as typeof import('../service/load');
    const loaded = await this.loadService();
    const connection = await this.connect(loaded);
    try {
      const lambda = lambdaClient(connection.clients.target);
      const lines: string[] = [];
      for (const key of Object.keys(loaded.config.functions ?? {})) {
        const { physicalName } = functionOf(loaded, key);
        const versions = await publishedVersions(lambda, physicalName).catch(error => {
          if ((error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
          throw describeAwsError(error, `listing the versions of ${physicalName}`, connection.clients.target);
        });
        lines.push(`${key} (${physicalName}): ${versions === undefined ? 'not deployed' : versions.length > 0 ? versions.join(', ') : 'no published versions'}`);
      }
      this.context.stdout.write(lines.length > 0 ? `${lines.join('\n')}\n` : 'The service has no functions\n');
      return 0;
    } finally {
      await connection.close();
    }
  }
}

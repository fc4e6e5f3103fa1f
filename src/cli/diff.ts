import type { BaseContext } from 'clipanion';
import type { Connection } from '../deploy/connect';
import type { PackagedService } from '../package/service';
import { CloudCommand } from './cloud-command';

export class DiffCommand extends CloudCommand {
  static override paths = [['diff']];
  static override usage = CloudCommand.Usage({
    description: 'Show what deploying the service would change, resource by resource, without changing anything',
    details: `
      Packages the service, creates a CloudFormation change set without executing it, prints each resource
      that would be added (\`+\`), modified (\`~\`, with the properties that change and whether the resource is
      replaced) or removed (\`-\`), then deletes the change set. For a stack that does not exist yet it lists
      what would be created. A removal or replacement that deletes a resource holding data (a table, a
      bucket, …) is marked \`[DATA LOSS: deleted with its data]\`, or \`[kept by DeletionPolicy: Retain]\`
      when a policy keeps it; \`fw deploy\` refuses those without \`--allow-data-loss\`.
      Exits 0 when nothing would change and 2 when something would, so CI can gate
      on it. \`fw deploy --dry-run\` does the same.
    `,
    examples: [
      ['Preview a deploy into the local cloud', '$0 diff --local'],
      ['Preview a deploy of the prod stage', '$0 diff --stage prod'],
      ['Fail a CI step when the stack would change', '$0 diff || test $? -ne 2'],
      ['In a folder with fw-compose.yml: every service of the application (exit 2 when any would change)', '$0 diff --stage prod'],
    ],
  });

  async run(): Promise<number> {
    const { packageService } = require('../package/service') as typeof import('../package/service');
    const packaged = await packageService({ cwd: process.cwd(), options: this.cliOptions() });
    const connection = await this.connect(packaged);
    return printPreview(this, packaged, connection);
  }
}

/** The preview of `fw diff` and `fw deploy --dry-run`: printed, the connection closed, and the exit code (0 or 2). */
export async function printPreview(command: { context: BaseContext }, packaged: PackagedService, connection: Connection): Promise<number> {
  const { previewDeployment, formatPreview, exitCodeOf } = require('../deploy/preview') as typeof import('../deploy/preview');
  const { describeAwsError } = require('../aws/clients') as typeof import('../aws/clients');
  try {
    const preview = await previewDeployment(packaged, connection.clients).catch(error => {
      throw describeAwsError(error, `previewing ${packaged.stackName}`, connection.clients.target);
    });
    command.context.stdout.write(formatPreview(preview));
    return exitCodeOf(preview);
  } finally {
    await connection.close();
  }
}

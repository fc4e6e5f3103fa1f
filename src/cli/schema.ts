import { FwCommand } from './base';

export class SchemaCommand extends FwCommand {
  static override paths = [['schema']];
  static override usage = FwCommand.Usage({
    description: 'Print the JSON Schema of the service file, for editor completion and checks',
    details: `
      The schema covers every key of fw.yml / serverless.yml and each event type with its fields; it
      accepts \${…} variables wherever a value goes and CloudFormation intrinsics where fw takes them.
      The package also ships it as dist/schema/service.schema.json.
    `,
    examples: [
      ['Save the schema next to the service file', '$0 schema > schema.json'],
      ['Then point yaml-language-server at it, first line of fw.yml', '# yaml-language-server: $schema=./schema.json'],
    ],
  });

  async run(): Promise<number> {
    const { serviceJsonSchema } = require('../config/service-json-schema') as typeof import('../config/service-json-schema');
    const stdout = this.context.stdout;
    // `fw schema | head` closes the pipe early: the reader has what it wanted, not an error.
    stdout.on('error', error => {
      if ((error as NodeJS.ErrnoException).code !== 'EPIPE') throw error;
    });
    stdout.write(`${JSON.stringify(serviceJsonSchema(), null, 2)}\n`);
    return 0;
  }
}

import { Option } from 'clipanion';
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
      ["Include what the service's plugins add (keys, event types)", '$0 schema --plugins > schema.json'],
      ['Then point yaml-language-server at it, first line of fw.yml', '# yaml-language-server: $schema=./schema.json'],
    ],
  });

  plugins = Option.Boolean('--plugins', false, { description: 'Add the keys and event types the plugins of the service in this folder declare' });
  config = Option.String('--config,-c', { description: 'Path to the service file, with --plugins' });

  async run(): Promise<number> {
    const { serviceJsonSchema } = require('../service/json-schema') as typeof import('../service/json-schema');
    let extensions = {};
    if (this.plugins) {
      const { loadPlugins } = require('../plugins') as typeof import('../plugins');
      const manager = await loadPlugins({ cwd: process.cwd(), options: this.config === undefined ? {} : { config: this.config } });
      extensions = { ...manager.schemaExtensions(), eventTypes: manager.eventTypes.map(eventType => eventType.value.type) };
    }
    const stdout = this.context.stdout;
    stdout.write(`${JSON.stringify(serviceJsonSchema(extensions), null, 2)}\n`);
    return 0;
  }
}

import { builtInEventTypes } from '../constructs/events/registry';
import { INTRINSIC_DEFINITION, VARIABLE_DEFINITION, allowVariables, jsonSchemaOf, type JsonSchema } from '../config/json-schema';
import { any, documented, serviceSchema, type Schema, type SchemaExtensions } from '../config/schema';

/**
 * The JSON Schema (draft-07, which yaml-language-server and VS Code read) of a service file,
 * assembled from the typanion schemas that validate it: the file's own (src/config/schema.ts)
 * and each built-in event type's static schema. `fw schema` prints it; the build writes it to
 * dist/schema/service.schema.json.
 */
export function serviceJsonSchema(plugins: SchemaExtensions & { eventTypes?: string[] } = {}): JsonSchema {
  const eventSchemas: Record<string, Schema> = {};
  for (const eventType of builtInEventTypes()) {
    const schema = (eventType.schema as Schema | undefined) ?? any;
    eventSchemas[eventType.type] = eventType.description ? documented(eventType.description, schema) : schema;
  }
  // Event types plugins add take any value unless the plugin gave their schema.
  for (const type of plugins.eventTypes ?? []) eventSchemas[type] = any;
  Object.assign(eventSchemas, plugins.eventSchemas);
  const { type, ...file } = allowVariables(jsonSchemaOf(serviceSchema({ eventSchemas, extend: plugins.extend })));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'fw service file',
    description: 'fw.yml, fw.json or serverless.yml (Serverless Framework v3 syntax): one service deployed as one CloudFormation stack',
    type,
    ...file,
    definitions: { intrinsic: INTRINSIC_DEFINITION, variable: VARIABLE_DEFINITION },
  };
}

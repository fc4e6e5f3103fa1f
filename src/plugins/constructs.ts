import type { Service } from '../constructs/service';
import { ConfigError } from '../errors';
import type { Template } from '../synth/template';

/**
 * What a `fw.ts`/`fw.js` service file exports under `addConstructs`: called with the Service
 * construct once the tree is built from the configuration, before plugins' compile steps and
 * synthesis. The constructs it adds land in the same template, so `resources`, `Ref`/`Fn::GetAtt`
 * and `${construct:…}` variables can name their logical ids.
 */
export type AddConstructs = (service: Service, context: { stage: string; region: string }) => void | Promise<void>;

/** `export default withConstructs(defineConfig({ … }), (service) => { new JobQueue(service, 'Jobs') })` */
export function withConstructs<T extends object>(config: T, addConstructs: AddConstructs): T & { addConstructs: AddConstructs } {
  return Object.assign(config, { addConstructs });
}

/** What `${construct:jobs.queueUrl}` resolves to until the tree exists; replaced in the synthesized template. */
const MARKER = 'Fn::FwConstruct';
/** Markers handed out in this process: with none, no template needs searching (a search serializes it whole). */
let markersIssued = 0;

/** The variable source `construct:` (service files with `addConstructs`): `${construct:<construct id>.<property>}`. */
export async function constructSource(ref: { address: string | undefined }): Promise<{ value: unknown } | { missing: string }> {
  const address = ref.address ?? '';
  if (!/^[^.]+\.[^.]+$/.test(address)) return { missing: `is not "<construct id>.<property>" (like construct:jobs.queueUrl)` };
  markersIssued += 1;
  return { value: { [MARKER]: address } };
}

/** Makes `${construct:…}` known to the resolver for the rest of the run (a `fw` command on a fw.ts/fw.js service). */
export function installConstructSource(): void {
  const { sources } = require('../variables/sources') as typeof import('../variables/sources');
  sources.construct ??= constructSource;
}

/**
 * Replaces every `${construct:id.property}` in the template by the property of the construct
 * `addConstructs` added with that id (an intrinsic such as `{ Ref: 'JobsQueue' }`, or a value).
 */
export function resolveConstructReferences(template: Template, service: Service): void {
  if (markersIssued === 0 || !JSON.stringify(template).includes(MARKER)) return;
  const replace = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(replace);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0][0] === MARKER) return constructProperty(service, String(entries[0][1]));
    return Object.fromEntries(entries.map(([key, child]) => [key, replace(child)]));
  };
  for (const section of ['Resources', 'Outputs', 'Conditions'] as const) {
    if (template[section]) (template as unknown as Record<string, unknown>)[section] = replace(template[section]);
  }
}

function constructProperty(service: Service, address: string): unknown {
  const [id, property] = address.split('.');
  const construct = service.node.tryFindChild(id) as Record<string, unknown> | undefined;
  if (!construct) {
    const ids = service.node.children.map((child) => child.node.id).filter((child) => !service.function(child));
    throw new ConfigError(`Cannot resolve \${construct:${address}}: the service has no construct "${id}" (constructs: ${ids.join(', ')})`);
  }
  const value = construct[property];
  if (value === undefined || typeof value === 'function') {
    throw new ConfigError(`Cannot resolve \${construct:${address}}: construct "${id}" has no property "${property}"`);
  }
  return value;
}

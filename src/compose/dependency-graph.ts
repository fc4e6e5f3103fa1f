import { ConfigError, show } from '../errors';
import type { Application, ComposeService } from './compose-file';

/** `${queue.QueueUrl}` (Serverless Compose) or `${service:queue.QueueUrl}` (Serverless v4). */
const OUTPUT_REFERENCE = /\$\{(?:service:)?([A-Za-z0-9][A-Za-z0-9_-]*)\.([A-Za-z0-9_-]+)\}/g;
/** Any other `${…}` left in a param once the output references are read. */
const OTHER_VARIABLE = /\$\{([^}]*)\}/;

export interface OutputReference {
  service: string;
  output: string;
  /** Where it is written: `services.api.params.queueUrl`. */
  path: string;
}

/** Every `${service.Output}` in the service's params, with the path of the param. */
export function outputReferences(service: ComposeService): OutputReference[] {
  const references: OutputReference[] = [];
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      for (const match of value.matchAll(OUTPUT_REFERENCE)) references.push({ service: match[1], output: match[2], path });
    } else if (Array.isArray(value)) value.forEach((item, index) => visit(item, `${path}[${index}]`));
    else if (value !== null && typeof value === 'object') for (const [key, child] of Object.entries(value)) visit(child, `${path}.${key}`);
  };
  for (const [key, value] of Object.entries(service.params)) visit(value, `services.${service.name}.params.${key}`);
  return references;
}

/**
 * Each service's dependencies (its `dependsOn` and the services its params read outputs of), in the
 * compose file's order. Throws a ConfigError for an unknown service and for a cycle, naming it.
 */
export function dependencyGraph(application: Application): Map<string, string[]> {
  const names = application.services.map(service => service.name);
  const graph = new Map<string, string[]>();
  for (const service of application.services) {
    const named = [
      ...service.dependsOn.map((name, index) => ({ name, path: `services.${service.name}.dependsOn${service.dependsOn.length > 1 ? `[${index}]` : ''}` })),
      ...outputReferences(service).map(reference => ({ name: reference.service, path: reference.path })),
    ];
    for (const { name, path } of named) {
      if (!names.includes(name)) throw new ConfigError(`Invalid configuration in '${path}': unknown service ${show(name)} (services: ${names.join(', ')})`);
    }
    graph.set(service.name, names.filter(name => named.some(dependency => dependency.name === name)));
  }
  const cycle = findCycle(graph);
  if (cycle) throw new ConfigError(`services ${cycle.join(' → ')} depend on each other`);
  return graph;
}

/** A path that comes back to where it started (`a → b → a`), if the graph has one. */
function findCycle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const visit = (name: string, path: string[]): string[] | undefined => {
    const seen = path.indexOf(name);
    if (seen !== -1) return [...path.slice(seen), name];
    if (done.has(name)) return undefined;
    for (const dependency of graph.get(name) ?? []) {
      const cycle = visit(dependency, [...path, name]);
      if (cycle) return cycle;
    }
    done.add(name);
    return undefined;
  };
  for (const name of graph.keys()) {
    const cycle = visit(name, []);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The graph with its edges turned round: each service's dependents (what `fw remove` waits for). */
export function reversed(graph: Map<string, string[]>): Map<string, string[]> {
  return new Map([...graph.keys()].map(name => [name, [...graph.keys()].filter(other => graph.get(other)!.includes(name))]));
}

/**
 * The service's params as `--param key=value` pairs, with each `${service.Output}` replaced by the
 * output and `${sls:stage}` by the stage. `outputsOf` gives a dependency's outputs.
 */
export function resolveParams(service: ComposeService, stage: string, outputsOf: (name: string) => Record<string, string>): string[] {
  const resolve = (value: string, path: string): string => {
    const replaced = value
      .replace(OUTPUT_REFERENCE, (_, name: string, output: string) => {
        const outputs = outputsOf(name);
        if (!Object.hasOwn(outputs, output)) {
          const known = Object.keys(outputs).sort();
          throw new ConfigError(`Invalid configuration in '${path}': service ${name} has no output ${show(output)} (${known.length > 0 ? `its outputs: ${known.join(', ')}` : 'it has none'})`);
        }
        return outputs[output];
      })
      .replace(/\$\{sls:stage\}/g, stage);
    const other = OTHER_VARIABLE.exec(replaced);
    if (other) {
      throw new ConfigError(`Invalid configuration in '${path}': ${show(`\${${other[1]}}`)} is not supported in a compose file (only \${<service>.<output>}, \${service:<service>.<output>} and \${sls:stage})`);
    }
    return replaced;
  };
  const deep = (value: unknown, path: string): unknown => {
    if (typeof value === 'string') return resolve(value, path);
    if (Array.isArray(value)) return value.map((item, index) => deep(item, `${path}[${index}]`));
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, deep(child, `${path}.${key}`)]));
    return value;
  };
  return Object.entries(service.params).map(([key, value]) => {
    const resolved = deep(value, `services.${service.name}.params.${key}`);
    return `${key}=${typeof resolved === 'string' ? resolved : JSON.stringify(resolved)}`;
  });
}

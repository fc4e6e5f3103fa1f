/**
 * The shape of a service file (fw.yml, fw.ts, serverless.yml …), as the user
 * writes it. Published from the package so `fw.ts` gets completion and checks:
 *
 *   import { defineConfig } from 'fw-deploy';
 *   export default defineConfig({ service: 'app', provider: { name: 'aws' } });
 *
 * Every type here is derived (`t.InferType`) from the typanion schemas fw validates the
 * file with (src/config/schema.ts and each event type's static schema), so the types, the
 * validation and the JSON Schema of `fw schema` cannot drift apart. Wherever CloudFormation
 * takes a value, an intrinsic function (`{ Ref }`, `{ 'Fn::GetAtt' }`, …) is typed too.
 */
import type * as t from 'typanion';
import type { BuiltInEventTypes } from '../constructs/events/registry';
import type { Service } from '../constructs/service';
import type { functionSchema, layerSchema, packageSchema, providerSchema, resourcesSection, topLevelSchema } from '../config/schema';

export type { Intrinsic, Runtime } from '../config/schema';

/**
 * An event's object form as the editor should check it: typanion lets unknown fields through
 * (`Record<string, unknown>` in its types) as Serverless v3 does, but a field that is not
 * one of the event's is a typo in a `fw.ts`, so the index signature is dropped where an
 * object also names its fields. Plain maps (filter patterns, inputs) keep theirs.
 */
export type EventFields<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends ReadonlyArray<infer Item>
    ? Array<EventFields<Item>>
    : T extends object
      ? [NamedKeys<T>] extends [never]
        ? T
        : { [K in keyof T as string extends K ? never : number extends K ? never : K]: EventFields<T[K]> }
      : T;

type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: true };

/** One entry of a function's `events`: one key naming the event type, with that type's settings. */
export type FunctionEvent = {
  [type in keyof BuiltInEventTypes]: { [key in type]: EventFields<t.InferType<BuiltInEventTypes[type]['schema']>> };
}[keyof BuiltInEventTypes];

export type ProviderConfig = t.InferType<typeof providerSchema>;
export type PackageConfig = t.InferType<typeof packageSchema>;
export type LayerConfig = t.InferType<typeof layerSchema>;
export type ResourcesConfig = t.InferType<typeof resourcesSection>;

export type FunctionConfig = t.InferType<typeof functionSchema> & {
  events?: FunctionEvent[];
};

export type ServiceConfig = Omit<t.InferType<typeof topLevelSchema>, 'addConstructs'> & {
  provider: ProviderConfig;
  functions?: Record<string, FunctionConfig>;
  custom?: Record<string, unknown>;
  /** fw.ts / fw.js only: adds constructs to the tree before synthesis (see `withConstructs`). */
  addConstructs?: (service: Service, context: { stage: string; region: string }) => void | Promise<void>;
};

/** What a JS/TS service file may export: the configuration, a promise of it, or a function returning either. */
export type ServiceConfigExport =
  | ServiceConfig
  | Promise<ServiceConfig>
  | ServiceConfigFunction;

export type ServiceConfigFunction = (api: { options: Record<string, unknown> }) => ServiceConfig | Promise<ServiceConfig>;

/**
 * Identity at run time; gives a `fw.ts` editor completion and type checks (misspelled keys
 * included). One signature, not overloads: a mistake is then reported where it is
 * (TS2353 "'batchsize' does not exist in type …") rather than as "No overload matches this call".
 */
export function defineConfig(config: ServiceConfigExport): ServiceConfigExport {
  return config;
}

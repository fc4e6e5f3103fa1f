/** The public API of the fw package: what a `fw.ts` service file imports. */
export { defineConfig } from './config/types';
export type {
  FunctionConfig,
  FunctionEvent,
  Intrinsic,
  LayerConfig,
  PackageConfig,
  ProviderConfig,
  ResourcesConfig,
  ServiceConfig,
  ServiceConfigExport,
  ServiceConfigFunction,
} from './config/types';

/** The public API of the fw package: what a `fw.ts` service file imports, and the commands as functions. */

// As the CLI does (src/cli/main.ts): fw pins its SDK and tests it on every Node.js `engines` allows, so
// the SDK's notice that its own future releases drop Node.js 20 is noise to a program using fw.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export { defineConfig } from './service/types';
export type {
  FunctionConfig,
  FunctionEvent,
  Intrinsic,
  LayerConfig,
  PackageConfig,
  ProviderConfig,
  ResourcesConfig,
  Runtime,
  ServiceConfig,
  ServiceConfigExport,
  ServiceConfigFunction,
} from './service/types';

// Constructs a service file adds with `addConstructs` (issue 9): the same classes fw synthesizes.
export { Construct } from 'constructs';
export { CfnOutput, CfnResource, Element, Resource, accountId, getAtt, join, partition, ref, region, sub } from './constructs/resource';
export type { CfnResourceProps, Fragment, OutputProps } from './constructs/resource';
export type { Service } from './constructs/service';
export type { FunctionConstruct } from './constructs/function';
export type { Template } from './synth/template';
export { withConstructs, type AddConstructs } from './plugins/constructs';

// The plugin API (issue 9).
export { definePlugin } from './plugins/types';
export type {
  CommandDefinition,
  CommandOption,
  ConfigSchema,
  DeployStep,
  Hook,
  HookContext,
  LifecycleEvent,
  LifecycleStep,
  PackageStep,
  PluginApi,
  PluginDeclarations,
  PluginEventType,
  PluginFactory,
  PluginLog,
  PluginProgress,
  PluginUtils,
  RemoveStep,
  SchemaExtension,
  VariableSource,
} from './plugins/types';

// The commands as functions (the CLI wraps them): structured results, typed errors.
export { packageService, type PackageResult } from './api/package';
export { deploy, type DeployRequest, type DeployResult } from './api/deploy';
export { remove, type RemoveResult } from './api/remove';
export { info } from './api/info';
export type { ServiceInfo } from './api/service-info';
export type { CloudRequest, ServiceRequest } from './api/request';
export { runApplication, type ComposeAction, type ComposeRequest, type ComposeResult, type ServiceRun } from './compose/runner';
export { CloudError, ConfigError, StackError } from './errors';

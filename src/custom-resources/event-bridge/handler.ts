/**
 * `Custom::EventBridge` (`provider.eventBridge.useCloudFormation: false`): creates one rule
 * targeting a function, on the default bus, on an existing bus (by ARN), or on a bus it creates
 * by name, and lets EventBridge invoke the function. Deleting removes the rule, the permission
 * and a created bus (kept while other rules still use it).
 */
import { arnParts, respond, type CustomResourceEvent, type LambdaContext } from '../response';

export interface RuleConfig {
  RuleName: string;
  State?: string;
  EventBus?: string;
  Pattern?: unknown;
  Schedule?: string;
  Input?: unknown;
  InputPath?: string;
  InputTransformer?: { InputPathsMap?: Record<string, string>; InputTemplate: string };
}

export interface Properties {
  FunctionName: string;
  EventBridgeConfig: RuleConfig;
}

/** What the handler needs from EventBridge and Lambda (tests pass fakes; Lambda's runtime ships the SDK). */
export interface Apis {
  events(command: string, input: Record<string, unknown>): Promise<void>;
  lambda(command: string, input: Record<string, unknown>): Promise<void>;
}

/** The bus name a rule is put on: none for the default bus, the name from an ARN, or the name itself. */
export function busName(eventBus: string | undefined): string | undefined {
  if (eventBus === undefined) return undefined;
  const name = eventBus.startsWith('arn:') ? eventBus.split('/').pop()! : eventBus;
  return name === 'default' ? undefined : name;
}

/** A bus given by name (not ARN, not default) is created, and deleted, by the rule. */
const ownsBus = (eventBus: string | undefined) => eventBus !== undefined && !eventBus.startsWith('arn:') && eventBus !== 'default';

export const statementId = (ruleName: string) => `fw-eventbridge-${ruleName.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 100);

export function makeHandler(apis: Apis) {
  return async (event: CustomResourceEvent<Properties>, context: LambdaContext): Promise<void> => {
    const { FunctionName, EventBridgeConfig: config } = event.ResourceProperties;
    await respond(event, context, `${FunctionName}-${config.RuleName}`, async () => {
      const { partition, region, account } = arnParts(context.invokedFunctionArn);
      const functionArn = `arn:${partition}:lambda:${region}:${account}:function:${FunctionName}`;
      const old = event.OldResourceProperties;
      if (event.RequestType === 'Delete') {
        await remove(apis, old?.FunctionName ?? FunctionName, config);
        return;
      }
      if (old && (old.EventBridgeConfig.RuleName !== config.RuleName || busName(old.EventBridgeConfig.EventBus) !== busName(config.EventBus))) {
        await remove(apis, old.FunctionName, old.EventBridgeConfig);
      }
      const bus = busName(config.EventBus);
      if (ownsBus(config.EventBus)) await ignoring('ResourceAlreadyExistsException', () => apis.events('CreateEventBus', { Name: bus }));
      await apis.events('PutRule', {
        Name: config.RuleName,
        EventBusName: bus,
        EventPattern: config.Pattern === undefined ? undefined : JSON.stringify(config.Pattern),
        ScheduleExpression: config.Schedule,
        State: config.State ?? 'ENABLED',
      });
      const target: Record<string, unknown> = { Id: `${config.RuleName}-target`.slice(0, 64), Arn: functionArn };
      if (config.Input !== undefined) target.Input = JSON.stringify(config.Input);
      if (config.InputPath !== undefined) target.InputPath = config.InputPath;
      if (config.InputTransformer !== undefined) target.InputTransformer = config.InputTransformer;
      await apis.events('PutTargets', { Rule: config.RuleName, EventBusName: bus, Targets: [target] });
      const rulePath = bus === undefined ? config.RuleName : `${bus}/${config.RuleName}`;
      await ignoring('ResourceConflictException', () =>
        apis.lambda('AddPermission', {
          FunctionName,
          StatementId: statementId(config.RuleName),
          Action: 'lambda:InvokeFunction',
          Principal: 'events.amazonaws.com',
          SourceArn: `arn:${partition}:events:${region}:${account}:rule/${rulePath}`,
        }),
      );
    });
  };
}

async function remove(apis: Apis, functionName: string, config: RuleConfig): Promise<void> {
  const bus = busName(config.EventBus);
  await ignoring('ResourceNotFoundException', () =>
    apis.events('RemoveTargets', { Rule: config.RuleName, EventBusName: bus, Ids: [`${config.RuleName}-target`.slice(0, 64)] }),
  );
  await ignoring('ResourceNotFoundException', () => apis.events('DeleteRule', { Name: config.RuleName, EventBusName: bus }));
  await ignoring('ResourceNotFoundException', () => apis.lambda('RemovePermission', { FunctionName: functionName, StatementId: statementId(config.RuleName) }));
  // Another rule may still use the bus: then it stays.
  if (ownsBus(config.EventBus)) {
    await apis.events('DeleteEventBus', { Name: bus }).catch(error => console.warn(`Keeping event bus ${bus}: ${(error as Error).message}`));
  }
}

async function ignoring(name: string, call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if ((error as { name?: string }).name !== name) throw error;
  }
}

/** The SDK v3 clients of Lambda's Node.js runtime, loaded on first use (fw itself does not depend on them). */
function sdkApis(): Apis {
  type Loaded = { client: { send(command: unknown): Promise<unknown> }; sdk: Record<string, new (input: unknown) => unknown> };
  const cache = new Map<string, Loaded>();
  const call = async (module: string, clientName: string, command: string, input: Record<string, unknown>) => {
    let loaded = cache.get(module);
    if (!loaded) {
      const sdk = require(module);
      loaded = { client: new sdk[clientName]({}), sdk };
      cache.set(module, loaded);
    }
    await loaded.client.send(new loaded.sdk[`${command}Command`](input));
  };
  return {
    events: (command, input) => call('@aws-sdk/client-eventbridge', 'EventBridgeClient', command, input),
    lambda: (command, input) => call('@aws-sdk/client-lambda', 'LambdaClient', command, input),
  };
}

export const handler = makeHandler(sdkApis());

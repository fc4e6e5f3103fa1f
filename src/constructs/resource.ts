import { Construct } from 'constructs';

export type Json = unknown;
export type ResourcesSection = Record<string, Record<string, Json>>;

/** What one construct contributes to the template, section by section. */
export interface Fragment {
  Resources?: ResourcesSection;
  Outputs?: Record<string, Record<string, Json>>;
  Conditions?: Record<string, Json>;
}

/** A construct that contributes directly to the template. */
export abstract class Element extends Construct {
  abstract toCloudFormation(): Fragment;
}

/** One CloudFormation resource: it knows its logical id and returns its own fragment. */
export abstract class Resource extends Element {
  abstract readonly type: string;
  abstract get logicalId(): string;
  protected abstract properties(): Record<string, Json> | undefined;

  /** Attributes beside `Properties` (`DependsOn`, `DeletionPolicy`, …), in template order. */
  protected attributes(): { before?: Record<string, Json>; after?: Record<string, Json> } {
    return {};
  }

  toCloudFormation(): Fragment {
    const { before, after } = this.attributes();
    const properties = this.properties();
    const body: Record<string, Json> = { Type: this.type, ...before };
    if (properties !== undefined) body.Properties = properties;
    Object.assign(body, after);
    return { Resources: { [this.logicalId]: body } };
  }
}

export interface CfnResourceProps {
  logicalId: string;
  type: string;
  /** Evaluated at synthesis, so shared resources see everything added to them. */
  properties: () => Record<string, Json> | undefined;
  dependsOn?: () => string | string[] | undefined;
  deletionPolicy?: string;
}

/** A resource whose whole description fits in its props (most event wiring). */
export class CfnResource extends Resource {
  readonly type: string;
  private readonly props: CfnResourceProps;

  constructor(scope: Construct, id: string, props: CfnResourceProps) {
    super(scope, id);
    this.type = props.type;
    this.props = props;
  }

  get logicalId(): string {
    return this.props.logicalId;
  }

  protected properties() {
    return this.props.properties();
  }

  protected override attributes() {
    const dependsOn = this.props.dependsOn?.();
    return {
      before: this.props.deletionPolicy ? { DeletionPolicy: this.props.deletionPolicy } : undefined,
      after: dependsOn === undefined ? undefined : { DependsOn: dependsOn },
    };
  }
}

export interface OutputProps {
  key: string;
  /** A function when the value depends on what is known only at synthesis (a version's hash). */
  value: Json | (() => Json);
  description?: string;
  /** Exported as `sls-{service}-{stage}-{key}` (the default, as the reference does). */
  exported?: boolean;
  condition?: string;
}

/** A stack output; its export name is added at synthesis, where service and stage are known. */
export class CfnOutput extends Element {
  constructor(scope: Construct, id: string, readonly props: OutputProps) {
    super(scope, id);
  }

  toCloudFormation(): Fragment {
    const output: Record<string, Json> = {};
    if (this.props.description !== undefined) output.Description = this.props.description;
    output.Value = typeof this.props.value === 'function' ? (this.props.value as () => Json)() : this.props.value;
    if (this.props.condition !== undefined) output.Condition = this.props.condition;
    return { Outputs: { [this.props.key]: output } };
  }
}

// Small builders for the intrinsic functions the generated templates use everywhere.
export const ref = (logicalId: string) => ({ Ref: logicalId });
export const getAtt = (logicalId: string, attribute: string) => ({ 'Fn::GetAtt': [logicalId, attribute] });
export const join = (parts: Json[], separator = '') => ({ 'Fn::Join': [separator, parts] });
export const sub = (text: string) => ({ 'Fn::Sub': text });
export const partition = ref('AWS::Partition');
export const region = ref('AWS::Region');
export const accountId = ref('AWS::AccountId');

/** What API Gateway calls to invoke a function (integrations and authorizers). */
export const lambdaInvocationUri = (functionArn: Json) =>
  join(['arn:', partition, ':apigateway:', region, ':lambda:path/2015-03-31/functions/', functionArn, '/invocations']);

import type { Template } from '../template/types';

export interface ResourceRecord {
  logicalId: string;
  type: string;
  physicalId: string;
  status: string;
  statusReason?: string;
  timestamp: string;
  /** Properties with every intrinsic resolved, as the provider received them. */
  properties: Record<string, unknown>;
  /** What `Fn::GetAtt` returns, by attribute name. */
  attributes: Record<string, unknown>;
  /** What `Ref` returns when it is not the physical id. */
  ref?: string;
  /** False for types the local cloud only records. */
  emulated: boolean;
  deletionPolicy?: string;
}

export interface OutputRecord {
  OutputKey: string;
  OutputValue: string;
  Description?: string;
  ExportName?: string;
}

export interface StackEvent {
  EventId: string;
  StackId: string;
  StackName: string;
  LogicalResourceId: string;
  PhysicalResourceId: string;
  ResourceType: string;
  Timestamp: string;
  ResourceStatus: string;
  ResourceStatusReason?: string;
  ResourceProperties?: string;
}

export interface Change {
  action: 'Add' | 'Modify' | 'Remove';
  logicalId: string;
  physicalId?: string;
  type: string;
  replacement?: 'True' | 'False' | 'Conditional';
  scope: string[];
  details: { name: string; requiresRecreation: 'Never' | 'Always' }[];
}

export interface ChangeSetRecord {
  id: string;
  name: string;
  type: 'CREATE' | 'UPDATE';
  status: string;
  statusReason?: string;
  executionStatus: string;
  creationTime: string;
  description?: string;
  templateBody: string;
  parameters: Record<string, string>;
  capabilities: string[];
  tags: { Key: string; Value: string }[];
  changes: Change[];
  /** Applied to the stack when the change set runs. */
  settings?: StackSettings;
}

export interface StackRecord {
  stackId: string;
  stackName: string;
  region: string;
  status: string;
  statusReason?: string;
  creationTime: string;
  lastUpdatedTime?: string;
  deletionTime?: string;
  description?: string;
  templateBody: string;
  /** Parameter values the last successful operation used (user input, before defaults). */
  parameters: Record<string, string>;
  capabilities: string[];
  tags: { Key: string; Value: string }[];
  disableRollback: boolean;
  /** CreateStack's `OnFailure: DELETE`: a failed creation deletes the stack after rolling back. */
  deleteOnFailure?: boolean;
  terminationProtection: boolean;
  /** Recorded from the requests (see `stack-settings.ts`). */
  roleArn?: string;
  notificationArns?: string[];
  rollbackConfiguration?: RollbackConfigurationRecord;
  stackPolicyBody?: string;
  /** A nested stack: the stack whose `AWS::CloudFormation::Stack` resource made it, and the top of that tree. */
  parentId?: string;
  rootId?: string;
  /** UPDATE_ROLLBACK_FAILED: the changes still to reverse, newest last, for ContinueUpdateRollback. */
  pendingRollback?: PendingRollback;
  outputs: OutputRecord[];
  /** Export names this stack's template imports: they cannot be deleted while in use. */
  imports: string[];
  resources: Record<string, ResourceRecord>;
  events: StackEvent[];
  changeSets: ChangeSetRecord[];
}

export interface OperationInput {
  template: Template;
  templateBody: string;
  parameters: Record<string, string>;
  capabilities: string[];
  tags: { Key: string; Value: string }[];
  /** UpdateStack's StackPolicyDuringUpdateBody: the policy for this update only. */
  stackPolicyDuringUpdateBody?: string;
}

/** One change made to a resource, kept so that a failed operation can be reversed. */
export type Step =
  | { kind: 'created'; logicalId: string }
  | { kind: 'updated'; logicalId: string; previous: ResourceRecord }
  | { kind: 'replaced'; logicalId: string; previous: ResourceRecord; replacement?: ResourceRecord; retainPrevious?: boolean };

export interface PendingRollback {
  steps: Step[];
  /** New physical resources of replaced ones, deleted once the rollback is through. */
  replacements: ResourceRecord[];
}

/** What a stack looked like before an operation: what a rollback restores. */
export interface StackSnapshot {
  templateBody: string;
  parameters: Record<string, string>;
  tags: { Key: string; Value: string }[];
  outputs: OutputRecord[];
  imports: string[];
  description?: string;
  capabilities: string[];
  resources: Record<string, ResourceRecord>;
}

/**
 * The settings a stack operation carries besides its template, recorded on the stack so that
 * DescribeStacks and GetStackPolicy return them as CloudFormation does: the service role
 * (`RoleARN`), the notification topics, the rollback configuration and the stack policy. The
 * local cloud assumes no role, publishes no notification and watches no alarm; it keeps them.
 */
export interface StackSettings {
  roleArn?: string;
  notificationArns?: string[];
  rollbackConfiguration?: RollbackConfigurationRecord;
  stackPolicyBody?: string;
}

export interface RollbackConfigurationRecord {
  RollbackTriggers: { Arn: string; Type: string }[];
  MonitoringTimeInMinutes?: number;
}

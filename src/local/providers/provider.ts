import type { LocalServices } from '../service-interfaces';
import type { ResourceRecord } from '../cloudformation/model';

export interface ProviderContext {
  cloud: LocalServices;
  stackName: string;
  stackId: string;
  region: string;
  accountId: string;
  logicalId: string;
  type: string;
  /** Aborted when the operation is cancelled (CancelUpdateStack, the local cloud stopping): a provider that waits stops waiting. */
  signal?: AbortSignal;
}

/** What a provider reports about the physical resource it made or changed. */
export interface Provisioned {
  physicalId: string;
  attributes?: Record<string, unknown>;
  /** What `Ref` returns, when it is not the physical id (a topic's ARN, a queue's URL). */
  ref?: string;
  /** False when this resource, of a type the local cloud emulates, is only recorded (a custom resource backed by an SNS topic). */
  emulated?: boolean;
}

/** Makes, changes and removes one type of resource in the local cloud. */
export interface ResourceProvider {
  /** Properties whose change needs a new physical resource, as the AWS resource reference says. */
  replaceOn?: readonly string[];
  create(properties: Record<string, unknown>, context: ProviderContext): Promise<Provisioned> | Provisioned;
  /** Absent: the resource keeps its physical id and attributes and takes the new properties. */
  update?(properties: Record<string, unknown>, previous: ResourceRecord, context: ProviderContext): Promise<Provisioned> | Provisioned;
  delete?(record: ResourceRecord, context: ProviderContext): Promise<void> | void;
  /**
   * For a type whose name another resource cannot reuse (a bucket): the physical resource these
   * properties name, when it exists and was made at `since` or later (a creation a crash cut off).
   */
  leftoverOf?(properties: Record<string, unknown>, since: string, context: Pick<ProviderContext, 'cloud'>): string | undefined;
}

/**
 * DynamoDB's tagging: TagResource, UntagResource and ListTagsOfResource on a table's ARN, over the
 * tags its stack or CreateTable gave it (the API reference's shapes and errors).
 */
import { AwsError } from '../protocol/errors';
import type { LocalServices } from '../service-interfaces';
import { declaredTags, tagList, tagMap, type TagMap } from '../state/resource-tags';
import { validation } from './values';

/** The table an ARN names, refused as DynamoDB refuses it. */
function tableArn(cloud: LocalServices, arn: unknown): string {
  const name = typeof arn === 'string' ? /^arn:aws[a-z-]*:dynamodb:[^:]*:\d{12}:table\/([^/]+)$/.exec(arn)?.[1] : undefined;
  if (name === undefined) throw validation(`Invalid TableArn: Invalid ResourceArn provided as input ${String(arn)}`);
  if (cloud.dynamodb.get(name)?.definition.TableArn !== arn) throw new AwsError('ResourceNotFoundException', `Requested resource not found: ResourcArn: ${String(arn)} not found`);
  return arn as string;
}

function tagsOf(cloud: LocalServices, arn: string): TagMap {
  const deployed = cloud.resources('AWS::DynamoDB::Table').find(({ record }) => record.attributes.Arn === arn);
  return cloud.tags.of(arn, deployed ? declaredTags(deployed) : {});
}

/** The tagging operations' answers; undefined for any other operation. */
export function dynamoDbTagOperation(cloud: LocalServices, operation: string, input: Record<string, unknown>): Record<string, unknown> | undefined {
  switch (operation) {
    case 'TagResource':
      cloud.tags.tag(tableArn(cloud, input.ResourceArn), tagMap(input.Tags));
      return {};
    case 'UntagResource':
      cloud.tags.untag(tableArn(cloud, input.ResourceArn), Array.isArray(input.TagKeys) ? input.TagKeys.map(String) : []);
      return {};
    case 'ListTagsOfResource':
      return { Tags: tagList(tagsOf(cloud, tableArn(cloud, input.ResourceArn))) };
    default:
      return undefined;
  }
}

/** CreateTable's Tags are the new table's; a deleted table's go with it. */
export function afterTableOperation(cloud: LocalServices, operation: string, input: Record<string, unknown>, result: Record<string, unknown>): void {
  const arn = (result.TableDescription as { TableArn?: string } | undefined)?.TableArn;
  if (!arn) return;
  if (operation === 'CreateTable' && Array.isArray(input.Tags)) cloud.tags.tag(arn, tagMap(input.Tags));
  if (operation === 'DeleteTable') cloud.tags.forget(arn);
}

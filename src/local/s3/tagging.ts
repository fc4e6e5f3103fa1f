import { AwsError } from '../protocol/errors';
import { blocksOf, document, flat, textsOf } from '../protocol/xml';

export interface Tag {
  Key: string;
  Value: string;
}

/** What S3 allows: 10 tags on an object, 50 on a bucket; keys up to 128 characters, values up to 256. */
export const OBJECT_TAG_LIMIT = 10;
export const BUCKET_TAG_LIMIT = 50;

const invalidTag = (message: string) => new AwsError('InvalidTag', message, 400);

/** Refuses a tag set S3 refuses, with S3's codes and messages. */
export function checkTags(tags: Tag[], kind: 'object' | 'bucket'): Tag[] {
  if (kind === 'object' && tags.length > OBJECT_TAG_LIMIT) throw new AwsError('BadRequest', `Object tags cannot be greater than ${OBJECT_TAG_LIMIT}`, 400);
  if (kind === 'bucket' && tags.length > BUCKET_TAG_LIMIT) throw invalidTag(`Bucket tag count cannot be greater than ${BUCKET_TAG_LIMIT}`);
  const seen = new Set<string>();
  for (const { Key, Value } of tags) {
    if (Key.length === 0 || [...Key].length > 128) throw invalidTag('The TagKey you have provided is invalid');
    if ([...Value].length > 256) throw invalidTag('The TagValue you have provided is invalid');
    if (Key.toLowerCase().startsWith('aws:')) throw invalidTag('Your TagKey cannot be prefixed with aws:');
    if (seen.has(Key)) throw invalidTag('Cannot provide multiple Tags with the same key');
    seen.add(Key);
  }
  return tags;
}

/** The `<Tagging><TagSet><Tag>…` body of PutObjectTagging and PutBucketTagging. */
export function parseTagging(xml: string, kind: 'object' | 'bucket'): Tag[] {
  if (!/<Tagging[\s>]/.test(xml) || blocksOf(xml, 'TagSet').length !== 1) {
    throw new AwsError('MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema', 400);
  }
  const tags = blocksOf(xml, 'Tag').map((block) => {
    const [Key] = textsOf(block, 'Key');
    const [Value] = /<Value\s*\/>/.test(block) ? [''] : textsOf(block, 'Value');
    if (Key === undefined || Value === undefined) {
      throw new AwsError('MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema', 400);
    }
    return { Key, Value };
  });
  return checkTags(tags, kind);
}

/** The `x-amz-tagging` header of PutObject, CreateMultipartUpload and CopyObject: URL query form (`a=1&b=2`). */
export function parseTaggingHeader(value: string): Tag[] {
  const tags: Tag[] = [];
  for (const pair of value.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
    try {
      tags.push(equals === -1 ? { Key: decode(pair), Value: '' } : { Key: decode(pair.slice(0, equals)), Value: decode(pair.slice(equals + 1)) });
    } catch {
      throw new AwsError('InvalidArgument', 'The header \'x-amz-tagging\' shall be encoded as UTF-8 then URLEncoded URL query parameters without tag name duplicates.', 400);
    }
  }
  return checkTags(tags, 'object');
}

export function taggingXml(tags: Tag[], namespace: string): string {
  return document('Tagging', { TagSet: { Tag: flat(tags.map(({ Key, Value }) => ({ Key, Value }))) } }, namespace);
}

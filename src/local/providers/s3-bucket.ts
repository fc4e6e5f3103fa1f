import { AwsError } from '../protocol/errors';
import type { ResourceRecord } from '../cloudformation/model';
import { generatedName } from './names';
import type { ProviderContext, Provisioned, ResourceProvider } from './provider';

function attributes(name: string, region: string): Record<string, unknown> {
  return {
    Arn: `arn:aws:s3:::${name}`,
    DomainName: `${name}.s3.amazonaws.com`,
    RegionalDomainName: `${name}.s3.${region}.amazonaws.com`,
    DualStackDomainName: `${name}.s3.dualstack.${region}.amazonaws.com`,
    WebsiteURL: `http://${name}.s3-website-${region}.amazonaws.com`,
  };
}

/** A real bucket in the local S3; its NotificationConfiguration is read when objects arrive. */
export const s3BucketProvider: ResourceProvider = {
  replaceOn: ['BucketName'],
  leftoverOf(properties, since, { cloud }) {
    const name = properties.BucketName;
    return typeof name === 'string' && cloud.s3.hasBucket(name) && cloud.s3.bucket(name).created >= since ? name : undefined;
  },
  create(properties, context: ProviderContext): Provisioned {
    const name = typeof properties.BucketName === 'string' ? properties.BucketName : generatedName(context.stackName, context.logicalId, 63, true);
    if (context.cloud.s3.hasBucket(name)) throw new AwsError('AlreadyExists', `${name} already exists`);
    context.cloud.s3.createBucket(name, context.region);
    return { physicalId: name, attributes: attributes(name, context.region) };
  },
  delete(record: ResourceRecord, context) {
    if (!context.cloud.s3.hasBucket(record.physicalId)) return;
    const bucket = context.cloud.s3.bucket(record.physicalId);
    if (Object.keys(bucket.objects).length > 0) {
      throw new AwsError('BucketNotEmpty', `Resource handler returned message: "The bucket you tried to delete is not empty (Service: S3, Status Code: 409)"`);
    }
    context.cloud.s3.deleteBucket(record.physicalId);
  },
};

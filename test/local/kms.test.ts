import { createPublicKey, createVerify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CreateStackCommand, DeleteStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import {
  CancelKeyDeletionCommand,
  CreateAliasCommand,
  CreateKeyCommand,
  DecryptCommand,
  DeleteAliasCommand,
  DescribeKeyCommand,
  DisableKeyCommand,
  EnableKeyCommand,
  EncryptCommand,
  GenerateDataKeyCommand,
  GenerateDataKeyWithoutPlaintextCommand,
  GenerateRandomCommand,
  GetPublicKeyCommand,
  KMSClient,
  ListAliasesCommand,
  ListKeysCommand,
  ReEncryptCommand,
  ScheduleKeyDeletionCommand,
  SignCommand,
  UpdateAliasCommand,
  VerifyCommand,
} from '@aws-sdk/client-kms';
import { failure, outputsOf, settle, startTestCloud, type TestCloud } from './helpers';

const ARN = /^arn:aws:kms:us-east-1:000000000000:key\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const kms = suite<TestCloud & { client: KMSClient }>('the local KMS encrypts, decrypts, signs and manages keys as AWS does');

kms.before.each(async (context) => {
  Object.assign(context, await startTestCloud());
  context.client = new KMSClient({ ...context.config, maxAttempts: 1 });
});
kms.after.each(async (context) => {
  context.client.destroy();
  await context.stop();
});

/** An SDK failure as [name, message, status]. */
async function refusal(call: Promise<unknown>): Promise<[string, string, number | undefined]> {
  const error = await failure(call);
  if (!error) throw new Error('the call succeeded');
  return [error.name, error.message, error.$metadata?.httpStatusCode];
}

const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes!).toString('utf8');

kms('a key encrypts and decrypts with real cryptography; Decrypt needs no KeyId, the encryption context must match, and a changed byte fails', async ({ client }) => {
  const { KeyMetadata } = await client.send(new CreateKeyCommand({ Description: 'app secrets' }));
  const { KeyId, Arn, CreationDate, ...rest } = KeyMetadata!;
  assert.match(Arn!, ARN);
  assert.is(Arn!.endsWith(`key/${KeyId}`), true);
  assert.ok(CreationDate instanceof Date);
  assert.equal(rest, {
    AWSAccountId: '000000000000',
    Enabled: true,
    Description: 'app secrets',
    KeyUsage: 'ENCRYPT_DECRYPT',
    KeyState: 'Enabled',
    Origin: 'AWS_KMS',
    KeyManager: 'CUSTOMER',
    CustomerMasterKeySpec: 'SYMMETRIC_DEFAULT',
    KeySpec: 'SYMMETRIC_DEFAULT',
    EncryptionAlgorithms: ['SYMMETRIC_DEFAULT'],
    MultiRegion: false,
  });
  const context = { tenant: 'acme', purpose: 'db' };
  const encrypted = await client.send(new EncryptCommand({ KeyId, Plaintext: Buffer.from('s3cr3t'), EncryptionContext: context }));
  assert.equal([encrypted.KeyId, encrypted.EncryptionAlgorithm], [Arn, 'SYMMETRIC_DEFAULT']);
  assert.not.ok(Buffer.from(encrypted.CiphertextBlob!).includes(Buffer.from('s3cr3t')));
  // The context's order does not matter; its content does.
  const decrypted = await client.send(new DecryptCommand({ CiphertextBlob: encrypted.CiphertextBlob, EncryptionContext: { purpose: 'db', tenant: 'acme' } }));
  assert.equal([text(decrypted.Plaintext), decrypted.KeyId], ['s3cr3t', Arn]);
  assert.equal((await refusal(client.send(new DecryptCommand({ CiphertextBlob: encrypted.CiphertextBlob, EncryptionContext: { tenant: 'other', purpose: 'db' } }))))[0], 'InvalidCiphertextException');
  assert.equal((await refusal(client.send(new DecryptCommand({ CiphertextBlob: encrypted.CiphertextBlob }))))[0], 'InvalidCiphertextException');
  const tampered = Buffer.from(encrypted.CiphertextBlob!);
  tampered[tampered.length - 1] ^= 1;
  assert.equal((await refusal(client.send(new DecryptCommand({ CiphertextBlob: tampered, EncryptionContext: context }))))[0], 'InvalidCiphertextException');
  assert.equal((await refusal(client.send(new DecryptCommand({ CiphertextBlob: Buffer.from('not a kms blob at all, just some bytes'), EncryptionContext: context }))))[0], 'InvalidCiphertextException');
  const other = (await client.send(new CreateKeyCommand({}))).KeyMetadata!.KeyId;
  assert.equal(await refusal(client.send(new DecryptCommand({ CiphertextBlob: encrypted.CiphertextBlob, EncryptionContext: context, KeyId: other }))), [
    'IncorrectKeyException',
    'The key ID in the request does not identify a CMK that can perform this operation.',
    400,
  ]);
  assert.equal(await refusal(client.send(new EncryptCommand({ KeyId, Plaintext: Buffer.alloc(4097) }))), [
    'ValidationException',
    "1 validation error detected: Value at 'plaintext' failed to satisfy constraint: Member must have length less than or equal to 4096",
    400,
  ]);
  assert.equal(await refusal(client.send(new EncryptCommand({ KeyId: '11111111-2222-3333-4444-555555555555', Plaintext: Buffer.from('x') }))), [
    'NotFoundException',
    "Key 'arn:aws:kms:us-east-1:000000000000:key/11111111-2222-3333-4444-555555555555' does not exist",
    400,
  ]);
  // ReEncrypt moves a ciphertext to another key and context without revealing the plaintext.
  const moved = await client.send(new ReEncryptCommand({ CiphertextBlob: encrypted.CiphertextBlob, SourceEncryptionContext: context, DestinationKeyId: other, DestinationEncryptionContext: { v: '2' } }));
  assert.equal([moved.SourceKeyId, moved.KeyId!.endsWith(other!), moved.SourceEncryptionAlgorithm, moved.DestinationEncryptionAlgorithm], [Arn, true, 'SYMMETRIC_DEFAULT', 'SYMMETRIC_DEFAULT']);
  assert.is(text((await client.send(new DecryptCommand({ CiphertextBlob: moved.CiphertextBlob, EncryptionContext: { v: '2' } }))).Plaintext), 's3cr3t');
});

kms('data keys (KeySpec or NumberOfBytes) decrypt to their plaintext; GenerateRandom gives the bytes asked for', async ({ client }) => {
  const KeyId = (await client.send(new CreateKeyCommand({}))).KeyMetadata!.KeyId;
  const dataKey = await client.send(new GenerateDataKeyCommand({ KeyId, KeySpec: 'AES_256', EncryptionContext: { file: 'a.txt' } }));
  assert.is(dataKey.Plaintext!.length, 32);
  const opened = await client.send(new DecryptCommand({ CiphertextBlob: dataKey.CiphertextBlob, EncryptionContext: { file: 'a.txt' } }));
  assert.equal(Buffer.from(opened.Plaintext!), Buffer.from(dataKey.Plaintext!));
  assert.is((await client.send(new GenerateDataKeyCommand({ KeyId, KeySpec: 'AES_128' }))).Plaintext!.length, 16);
  assert.is((await client.send(new GenerateDataKeyCommand({ KeyId, NumberOfBytes: 64 }))).Plaintext!.length, 64);
  const sealed = await client.send(new GenerateDataKeyWithoutPlaintextCommand({ KeyId, KeySpec: 'AES_256' }));
  assert.equal(['Plaintext' in sealed, (await client.send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob }))).Plaintext!.length], [false, 32]);
  assert.equal(await refusal(client.send(new GenerateDataKeyCommand({ KeyId }))), ['ValidationException', 'Please specify either number of bytes or key spec.', 400]);
  assert.equal(await refusal(client.send(new GenerateDataKeyCommand({ KeyId, NumberOfBytes: 2000 }))), [
    'ValidationException',
    "1 validation error detected: Value '2000' at 'numberOfBytes' failed to satisfy constraint: Member must have value less than or equal to 1024",
    400,
  ]);
  const random = await client.send(new GenerateRandomCommand({ NumberOfBytes: 24 }));
  assert.is(random.Plaintext!.length, 24);
});

kms('aliases name keys (alias name or ARN), are listed, moved and deleted; alias/aws/… managed aliases resolve', async ({ client }) => {
  const first = (await client.send(new CreateKeyCommand({}))).KeyMetadata!;
  const second = (await client.send(new CreateKeyCommand({}))).KeyMetadata!;
  await client.send(new CreateAliasCommand({ AliasName: 'alias/app', TargetKeyId: first.KeyId }));
  assert.equal(await refusal(client.send(new CreateAliasCommand({ AliasName: 'alias/app', TargetKeyId: second.KeyId }))), [
    'AlreadyExistsException',
    'An alias with the name arn:aws:kms:us-east-1:000000000000:alias/app already exists',
    400,
  ]);
  assert.equal((await refusal(client.send(new CreateAliasCommand({ AliasName: 'alias/aws/mine', TargetKeyId: first.KeyId }))))[0], 'NotAuthorizedException');
  const sealed = await client.send(new EncryptCommand({ KeyId: 'alias/app', Plaintext: Buffer.from('via alias') }));
  assert.is(sealed.KeyId, first.Arn);
  assert.is((await client.send(new DescribeKeyCommand({ KeyId: 'arn:aws:kms:us-east-1:000000000000:alias/app' }))).KeyMetadata!.KeyId, first.KeyId);
  const aliases = (await client.send(new ListAliasesCommand({}))).Aliases!;
  assert.equal(aliases.map(({ AliasName, AliasArn, TargetKeyId }) => ({ AliasName, AliasArn, TargetKeyId })), [{ AliasName: 'alias/app', AliasArn: 'arn:aws:kms:us-east-1:000000000000:alias/app', TargetKeyId: first.KeyId }]);
  await client.send(new UpdateAliasCommand({ AliasName: 'alias/app', TargetKeyId: second.KeyId }));
  assert.is((await client.send(new EncryptCommand({ KeyId: 'alias/app', Plaintext: Buffer.from('x') }))).KeyId, second.Arn);
  // The first key still decrypts what it encrypted, whatever the alias points at now.
  assert.is(text((await client.send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob }))).Plaintext), 'via alias');
  await client.send(new DeleteAliasCommand({ AliasName: 'alias/app' }));
  assert.equal(await refusal(client.send(new EncryptCommand({ KeyId: 'alias/app', Plaintext: Buffer.from('x') }))), ['NotFoundException', 'Alias arn:aws:kms:us-east-1:000000000000:alias/app is not found.', 400]);
  assert.equal(await refusal(client.send(new DeleteAliasCommand({ AliasName: 'alias/app' }))), ['NotFoundException', 'Alias arn:aws:kms:us-east-1:000000000000:alias/app is not found.', 400]);
  const managed = await client.send(new EncryptCommand({ KeyId: 'alias/aws/ssm', Plaintext: Buffer.from('param') }));
  const described = (await client.send(new DescribeKeyCommand({ KeyId: 'alias/aws/ssm' }))).KeyMetadata!;
  assert.equal([managed.KeyId, described.KeyManager], [described.Arn, 'AWS']);
  assert.equal((await client.send(new ListKeysCommand({}))).Keys!.map(({ KeyId }) => KeyId), [first.KeyId, second.KeyId, described.KeyId]);
});

kms('disabled keys refuse crypto with DisabledException; keys pending deletion with KMSInvalidStateException until the deletion is cancelled', async ({ client }) => {
  const { KeyId, Arn } = (await client.send(new CreateKeyCommand({}))).KeyMetadata!;
  const sealed = await client.send(new EncryptCommand({ KeyId, Plaintext: Buffer.from('x') }));
  await client.send(new DisableKeyCommand({ KeyId }));
  assert.equal(await refusal(client.send(new EncryptCommand({ KeyId, Plaintext: Buffer.from('x') }))), ['DisabledException', `${Arn} is disabled.`, 400]);
  assert.equal(await refusal(client.send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob }))), ['DisabledException', `${Arn} is disabled.`, 400]);
  assert.equal((await client.send(new DescribeKeyCommand({ KeyId }))).KeyMetadata!.KeyState, 'Disabled');
  await client.send(new EnableKeyCommand({ KeyId }));
  const scheduled = await client.send(new ScheduleKeyDeletionCommand({ KeyId, PendingWindowInDays: 7 }));
  assert.equal([scheduled.KeyId, scheduled.KeyState, scheduled.PendingWindowInDays, Math.round((scheduled.DeletionDate!.getTime() - Date.now()) / 86_400_000)], [Arn, 'PendingDeletion', 7, 7]);
  assert.equal(await refusal(client.send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob }))), ['KMSInvalidStateException', `${Arn} is pending deletion.`, 400]);
  assert.equal(await refusal(client.send(new EnableKeyCommand({ KeyId }))), ['KMSInvalidStateException', `${Arn} is pending deletion.`, 400]);
  assert.equal(await refusal(client.send(new ScheduleKeyDeletionCommand({ KeyId, PendingWindowInDays: 3 }))), [
    'ValidationException',
    "1 validation error detected: Value '3' at 'pendingWindowInDays' failed to satisfy constraint: Member must have value greater than or equal to 7",
    400,
  ]);
  assert.is((await client.send(new CancelKeyDeletionCommand({ KeyId }))).KeyId, Arn);
  assert.equal(await refusal(client.send(new CancelKeyDeletionCommand({ KeyId }))), ['KMSInvalidStateException', `${Arn} is not pending deletion.`, 400]);
  // Cancelling leaves the key disabled, as KMS does.
  assert.equal((await client.send(new DescribeKeyCommand({ KeyId }))).KeyMetadata!.KeyState, 'Disabled');
});

kms('asymmetric keys sign and verify (RSA PSS, ECDSA) with the public key GetPublicKey returns', async ({ client }) => {
  const rsa = (await client.send(new CreateKeyCommand({ KeyUsage: 'SIGN_VERIFY', KeySpec: 'RSA_2048' }))).KeyMetadata!;
  assert.equal(rsa.SigningAlgorithms, ['RSASSA_PKCS1_V1_5_SHA_256', 'RSASSA_PKCS1_V1_5_SHA_384', 'RSASSA_PKCS1_V1_5_SHA_512', 'RSASSA_PSS_SHA_256', 'RSASSA_PSS_SHA_384', 'RSASSA_PSS_SHA_512']);
  const message = Buffer.from('{"sub":"ann"}');
  const signed = await client.send(new SignCommand({ KeyId: rsa.KeyId, Message: message, SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256', MessageType: 'RAW' }));
  const { PublicKey } = await client.send(new GetPublicKeyCommand({ KeyId: rsa.KeyId }));
  // Anyone holding the public key can check the signature, as with AWS's.
  const publicKey = createPublicKey({ key: Buffer.from(PublicKey!), format: 'der', type: 'spki' });
  assert.ok(createVerify('sha256').update(message).verify(publicKey, Buffer.from(signed.Signature!)));
  assert.is((await client.send(new VerifyCommand({ KeyId: rsa.KeyId, Message: message, Signature: signed.Signature, SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256' }))).SignatureValid, true);
  assert.equal((await refusal(client.send(new VerifyCommand({ KeyId: rsa.KeyId, Message: Buffer.from('other'), Signature: signed.Signature, SigningAlgorithm: 'RSASSA_PKCS1_V1_5_SHA_256' }))))[0], 'KMSInvalidSignatureException');
  const pss = await client.send(new SignCommand({ KeyId: rsa.KeyId, Message: message, SigningAlgorithm: 'RSASSA_PSS_SHA_256' }));
  assert.is((await client.send(new VerifyCommand({ KeyId: rsa.KeyId, Message: message, Signature: pss.Signature, SigningAlgorithm: 'RSASSA_PSS_SHA_256' }))).SignatureValid, true);
  const ec = (await client.send(new CreateKeyCommand({ KeyUsage: 'SIGN_VERIFY', KeySpec: 'ECC_NIST_P256' }))).KeyMetadata!;
  const ecdsa = await client.send(new SignCommand({ KeyId: ec.KeyId, Message: message, SigningAlgorithm: 'ECDSA_SHA_256' }));
  assert.is((await client.send(new VerifyCommand({ KeyId: ec.KeyId, Message: message, Signature: ecdsa.Signature, SigningAlgorithm: 'ECDSA_SHA_256' }))).SignatureValid, true);
  assert.equal((await refusal(client.send(new EncryptCommand({ KeyId: ec.KeyId, Plaintext: message }))))[0], 'InvalidKeyUsageException');
});

kms('a stack makes AWS::KMS::Key and AWS::KMS::Alias (Ref, Arn, KeyId as CloudFormation returns them); keys survive a restart; removal schedules deletion', async (t) => {
  const template = (description: string, enabled: boolean) => ({
    Resources: {
      Key: { Type: 'AWS::KMS::Key', Properties: { Description: description, Enabled: enabled, PendingWindowInDays: 7 } },
      Alias: { Type: 'AWS::KMS::Alias', Properties: { AliasName: 'alias/orders', TargetKeyId: { Ref: 'Key' } } },
    },
    Outputs: {
      Ref: { Value: { Ref: 'Key' } },
      Arn: { Value: { 'Fn::GetAtt': ['Key', 'Arn'] } },
      KeyId: { Value: { 'Fn::GetAtt': ['Key', 'KeyId'] } },
      Alias: { Value: { Ref: 'Alias' } },
    },
  });
  await t.cfn.send(new CreateStackCommand({ StackName: 'keys', TemplateBody: JSON.stringify(template('orders', true)) }));
  const stack = await settle(t.cfn, 'keys');
  assert.is(stack.StackStatus, 'CREATE_COMPLETE', stack.StackStatusReason);
  const outputs = outputsOf(stack);
  assert.equal([outputs.Arn, outputs.KeyId, outputs.Alias], [`arn:aws:kms:us-east-1:000000000000:key/${outputs.Ref}`, outputs.Ref, 'alias/orders']);
  const sealed = await t.client.send(new EncryptCommand({ KeyId: 'alias/orders', Plaintext: Buffer.from('order 42') }));
  assert.is(sealed.KeyId, outputs.Arn);
  await t.cfn.send(new UpdateStackCommand({ StackName: 'keys', TemplateBody: JSON.stringify(template('orders, disabled', false)) }));
  assert.is((await settle(t.cfn, 'keys')).StackStatus, 'UPDATE_COMPLETE');
  assert.equal([(await t.client.send(new DescribeKeyCommand({ KeyId: outputs.Ref }))).KeyMetadata!.KeyState, (await t.client.send(new DescribeKeyCommand({ KeyId: outputs.Ref }))).KeyMetadata!.Description], ['Disabled', 'orders, disabled']);
  await t.cfn.send(new UpdateStackCommand({ StackName: 'keys', TemplateBody: JSON.stringify(template('orders', true)) }));
  assert.is((await settle(t.cfn, 'keys')).StackStatus, 'UPDATE_COMPLETE');
  // The key material is in the data folder (private to the user) and decrypts after a restart.
  assert.is((readFileSync(join(t.dataDir, 'state', 'kms.json')) as Buffer).length > 0, true);
  await t.cloud.stop();
  const again = await startTestCloud(t.dataDir);
  const client = new KMSClient({ ...again.config, maxAttempts: 1 });
  assert.is(text((await client.send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob }))).Plaintext), 'order 42');
  await again.cfn.send(new DeleteStackCommand({ StackName: 'keys' }));
  assert.is((await settle(again.cfn, stack.StackId!)).StackStatus, 'DELETE_COMPLETE');
  const deleted = (await client.send(new DescribeKeyCommand({ KeyId: outputs.Ref }))).KeyMetadata!;
  assert.equal([deleted.KeyState, deleted.PendingDeletionWindowInDays], ['PendingDeletion', 7]);
  assert.equal((await client.send(new ListAliasesCommand({}))).Aliases, []);
  client.destroy();
  await again.stop({ keepData: true });
});

kms.run();

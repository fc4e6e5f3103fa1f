// The operations serverless apps and their tests call, through boto3 (the SDK v3 side is in
// test/local/serverless-app-apis.test.ts and s3-presigned-post.test.ts): DynamoDB batches,
// transactions, indexes, conditions and the Streams API; S3 presigned URLs and POST forms, multipart,
// copy, paging; SQS batches, DLQ redrive, FIFO dedup; SNS filter policies; Lambda invokes and aliases;
// IAM roles; STS; SSM by path; Secrets Manager; EventBridge to SQS; CloudWatch metrics; Logs; SES (v1
// and v2) sending from verified identities; KMS encryption, data keys, aliases and key states; Step
// Functions executions; tagging APIs; SQS message move tasks; Logs subscription filters. One PASS
// or FAIL line per check. Skipped, and said so, without python3 and boto3.
'use strict';

const { spawnSync } = require('child_process');
const { hasPython } = require('../bench/servers');

const PROGRAM = String.raw`
import boto3, io, json, sys, time, traceback, uuid, zipfile, urllib.request, urllib.error
url = sys.argv[1]
session = boto3.session.Session(aws_access_key_id='local', aws_secret_access_key='local', region_name='us-east-1')
c = lambda name: session.client(name, endpoint_url=url)
def check(name, fn):
    try:
        fn()
        print('PASS ' + name)
    except Exception as error:
        print('FAIL ' + name + ': ' + (str(error) or traceback.format_exc().splitlines()[-1]).replace('\n', ' ')[:400])
def code_of(fn):
    try:
        fn()
    except Exception as error:
        return error.response['Error']['Code'], error.response['ResponseMetadata']['HTTPStatusCode']
    raise AssertionError('no error')
def http(method, target, body=None, headers={}):
    request = urllib.request.Request(target, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()

ddb = c('dynamodb')
def dynamodb():
    ddb.create_table(TableName='app', BillingMode='PAY_PER_REQUEST',
        AttributeDefinitions=[{'AttributeName': 'pk', 'AttributeType': 'S'}, {'AttributeName': 'sk', 'AttributeType': 'S'}, {'AttributeName': 'g', 'AttributeType': 'S'}],
        KeySchema=[{'AttributeName': 'pk', 'KeyType': 'HASH'}, {'AttributeName': 'sk', 'KeyType': 'RANGE'}],
        GlobalSecondaryIndexes=[{'IndexName': 'byG', 'KeySchema': [{'AttributeName': 'g', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'ALL'}}],
        StreamSpecification={'StreamEnabled': True, 'StreamViewType': 'NEW_AND_OLD_IMAGES'})
    ddb.batch_write_item(RequestItems={'app': [{'PutRequest': {'Item': {'pk': {'S': 'a'}, 'sk': {'S': str(i)}, 'g': {'S': 'x'}, 'n': {'N': str(i)}}}} for i in range(5)]})
    assert len(ddb.batch_get_item(RequestItems={'app': {'Keys': [{'pk': {'S': 'a'}, 'sk': {'S': '1'}}]}})['Responses']['app']) == 1
    assert ddb.query(TableName='app', IndexName='byG', KeyConditionExpression='g = :g', ExpressionAttributeValues={':g': {'S': 'x'}})['Count'] == 5
    assert ddb.scan(TableName='app', FilterExpression='n > :n', ExpressionAttributeValues={':n': {'N': '2'}})['Count'] == 2
    updated = ddb.update_item(TableName='app', Key={'pk': {'S': 'a'}, 'sk': {'S': '1'}}, UpdateExpression='SET n = n + :one', ConditionExpression='attribute_exists(pk)', ExpressionAttributeValues={':one': {'N': '1'}}, ReturnValues='UPDATED_NEW')
    assert updated['Attributes'] == {'n': {'N': '2'}}, updated
    assert code_of(lambda: ddb.update_item(TableName='app', Key={'pk': {'S': 'zz'}, 'sk': {'S': '1'}}, UpdateExpression='SET n = :one', ConditionExpression='attribute_exists(pk)', ExpressionAttributeValues={':one': {'N': '1'}})) == ('ConditionalCheckFailedException', 400)
    try:
        ddb.transact_write_items(TransactItems=[{'ConditionCheck': {'TableName': 'app', 'Key': {'pk': {'S': 'nope'}, 'sk': {'S': '1'}}, 'ConditionExpression': 'attribute_exists(pk)'}}, {'Put': {'TableName': 'app', 'Item': {'pk': {'S': 't'}, 'sk': {'S': '1'}}}}])
        raise AssertionError('transaction not cancelled')
    except ddb.exceptions.TransactionCanceledException as error:
        assert [reason['Code'] for reason in error.response['CancellationReasons']] == ['ConditionalCheckFailed', 'None'], error.response
    ddb.transact_write_items(TransactItems=[{'Put': {'TableName': 'app', 'Item': {'pk': {'S': 't'}, 'sk': {'S': '1'}}}}])
    assert ddb.transact_get_items(TransactItems=[{'Get': {'TableName': 'app', 'Key': {'pk': {'S': 't'}, 'sk': {'S': '1'}}}}])['Responses'][0]['Item'] == {'pk': {'S': 't'}, 'sk': {'S': '1'}}
    ddb.update_time_to_live(TableName='app', TimeToLiveSpecification={'Enabled': True, 'AttributeName': 'expires'})
check('dynamodb batches, index query, filtered scan, conditions, transactions, TTL', dynamodb)

def streams():
    client = c('dynamodbstreams')
    arn = client.list_streams(TableName='app')['Streams'][0]['StreamArn']
    shard = client.describe_stream(StreamArn=arn)['StreamDescription']['Shards'][0]['ShardId']
    iterator = client.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType='TRIM_HORIZON')['ShardIterator']
    names = [record['eventName'] for record in client.get_records(ShardIterator=iterator)['Records']]
    assert names == ['INSERT'] * 5 + ['MODIFY', 'INSERT'], names
check('dynamodbstreams list_streams, describe_stream, get_shard_iterator, get_records', streams)

s3 = c('s3')
def s3_objects():
    s3.create_bucket(Bucket='app-bucket')
    assert s3.get_bucket_location(Bucket='app-bucket')['LocationConstraint'] is None
    s3.put_object(Bucket='app-bucket', Key='a.txt', Body=b'hi', Metadata={'m': '1'})
    assert s3.head_object(Bucket='app-bucket', Key='a.txt')['Metadata'] == {'m': '1'}
    s3.copy_object(Bucket='app-bucket', Key='b.txt', CopySource='app-bucket/a.txt')
    for i in range(5):
        s3.put_object(Bucket='app-bucket', Key='p/%d' % i, Body=b'x')
    first = s3.list_objects_v2(Bucket='app-bucket', Prefix='p/', MaxKeys=2)
    second = s3.list_objects_v2(Bucket='app-bucket', Prefix='p/', MaxKeys=2, ContinuationToken=first['NextContinuationToken'])
    assert [o['Key'] for o in second['Contents']] == ['p/2', 'p/3'], second
    deleted = s3.delete_objects(Bucket='app-bucket', Delete={'Objects': [{'Key': 'p/0'}, {'Key': 'p/9'}]})
    assert sorted(d['Key'] for d in deleted['Deleted']) == ['p/0', 'p/9'], deleted
    upload = s3.create_multipart_upload(Bucket='app-bucket', Key='big')['UploadId']
    one = s3.upload_part(Bucket='app-bucket', Key='big', UploadId=upload, PartNumber=1, Body=b'a' * 5 * 1024 * 1024)['ETag']
    two = s3.upload_part(Bucket='app-bucket', Key='big', UploadId=upload, PartNumber=2, Body=b'b')['ETag']
    s3.complete_multipart_upload(Bucket='app-bucket', Key='big', UploadId=upload, MultipartUpload={'Parts': [{'PartNumber': 1, 'ETag': one}, {'PartNumber': 2, 'ETag': two}]})
    assert s3.head_object(Bucket='app-bucket', Key='big')['ContentLength'] == 5 * 1024 * 1024 + 1
check('s3 location, head, copy, list_objects_v2 paging, delete_objects, multipart', s3_objects)

def presigned():
    put = s3.generate_presigned_url('put_object', Params={'Bucket': 'app-bucket', 'Key': 'shared.txt'})
    assert http('PUT', put, b'presigned')[0] == 200
    assert http('GET', s3.generate_presigned_url('get_object', Params={'Bucket': 'app-bucket', 'Key': 'shared.txt'})) == (200, b'presigned')
check('s3 presigned GET and PUT URLs', presigned)

def form(fields, content):
    boundary = uuid.uuid4().hex
    parts = [('--%s\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (boundary, name, value)).encode() for name, value in fields.items()]
    parts.append(('--%s\r\nContent-Disposition: form-data; name="file"; filename="up.txt"\r\nContent-Type: text/plain\r\n\r\n' % boundary).encode() + content + ('\r\n--%s--\r\n' % boundary).encode())
    return b''.join(parts), {'Content-Type': 'multipart/form-data; boundary=' + boundary}
def presigned_post():
    post = s3.generate_presigned_post('app-bucket', 'uploads/$' + '{filename}', Conditions=[['content-length-range', 1, 100]])
    body, headers = form(post['fields'], b'posted')
    assert http('POST', post['url'], body, headers)[0] == 204
    assert s3.get_object(Bucket='app-bucket', Key='uploads/up.txt')['Body'].read() == b'posted'
    body, headers = form(post['fields'], b'x' * 200)
    status, text = http('POST', post['url'], body, headers)
    assert status == 400 and b'<Code>EntityTooLarge</Code>' in text, text
    body, headers = form(dict(post['fields'], extra='1'), b'posted')
    status, text = http('POST', post['url'], body, headers)
    assert status == 403 and b'Extra input fields: extra' in text, text
check('s3 generate_presigned_post form upload, size and field conditions', presigned_post)

sqs = c('sqs')
def queues():
    dlq = sqs.create_queue(QueueName='app-dlq')['QueueUrl']
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=['QueueArn'])['Attributes']['QueueArn']
    queue = sqs.create_queue(QueueName='app-q', Attributes={'RedrivePolicy': json.dumps({'deadLetterTargetArn': dlq_arn, 'maxReceiveCount': 1})})['QueueUrl']
    sent = sqs.send_message_batch(QueueUrl=queue, Entries=[{'Id': '1', 'MessageBody': 'a', 'MessageAttributes': {'k': {'DataType': 'String', 'StringValue': 'v'}}}, {'Id': '2', 'MessageBody': 'b'}])
    assert len(sent['Successful']) == 2
    got = sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10, AttributeNames=['All'], MessageAttributeNames=['All'])['Messages']
    assert sorted(m['Body'] for m in got) == ['a', 'b'] and got[0]['Attributes']['ApproximateReceiveCount'] == '1'
    for message in got:
        sqs.change_message_visibility(QueueUrl=queue, ReceiptHandle=message['ReceiptHandle'], VisibilityTimeout=0)
    assert sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10).get('Messages', []) == []
    assert len(sqs.receive_message(QueueUrl=dlq, MaxNumberOfMessages=10, WaitTimeSeconds=1)['Messages']) == 2
    failed = sqs.delete_message_batch(QueueUrl=queue, Entries=[{'Id': 'x', 'ReceiptHandle': 'bogus'}])['Failed']
    assert failed[0]['Code'] == 'ReceiptHandleIsInvalid', failed
    fifo = sqs.create_queue(QueueName='app.fifo', Attributes={'FifoQueue': 'true'})['QueueUrl']
    first = sqs.send_message(QueueUrl=fifo, MessageBody='x', MessageGroupId='g', MessageDeduplicationId='d')
    again = sqs.send_message(QueueUrl=fifo, MessageBody='x', MessageGroupId='g', MessageDeduplicationId='d')
    assert first['MessageId'] == again['MessageId']
    assert code_of(lambda: sqs.get_queue_url(QueueName='missing')) == ('AWS.SimpleQueueService.NonExistentQueue', 400)
check('sqs batches, attributes, visibility, DLQ redrive, FIFO dedup, GetQueueUrl error', queues)

def topics():
    sns = c('sns')
    topic = sns.create_topic(Name='app-t')['TopicArn']
    queue = sqs.create_queue(QueueName='app-sub')['QueueUrl']
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=['QueueArn'])['Attributes']['QueueArn']
    sns.subscribe(TopicArn=topic, Protocol='sqs', Endpoint=queue_arn, Attributes={'FilterPolicy': json.dumps({'kind': ['keep']}), 'RawMessageDelivery': 'true'})
    for kind in ['drop', 'keep']:
        sns.publish(TopicArn=topic, Message=kind, MessageAttributes={'kind': {'DataType': 'String', 'StringValue': kind}})
    bodies = [m['Body'] for m in sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10, WaitTimeSeconds=1).get('Messages', [])]
    assert bodies == ['keep'], bodies
check('sns subscribe with a filter policy, publish with attributes', topics)

def functions():
    lam = c('lambda')
    package = io.BytesIO()
    with zipfile.ZipFile(package, 'w') as archive:
        archive.writestr('index.js', 'exports.handler = async (e) => ({ got: e });')
    lam.create_function(FunctionName='app-fn', Runtime='nodejs20.x', Role='arn:aws:iam::000000000000:role/r', Handler='index.handler', Code={'ZipFile': package.getvalue()})
    assert json.loads(lam.invoke(FunctionName='app-fn', Payload=b'{"a":1}')['Payload'].read()) == {'got': {'a': 1}}
    assert lam.invoke(FunctionName='app-fn', InvocationType='Event', Payload=b'{}')['StatusCode'] == 202
    assert lam.invoke(FunctionName='app-fn', InvocationType='DryRun')['StatusCode'] == 204
    assert lam.invoke_async(FunctionName='app-fn', InvokeArgs=b'{}')['Status'] == 202
    version = lam.publish_version(FunctionName='app-fn')['Version']
    lam.create_alias(FunctionName='app-fn', Name='live', FunctionVersion=version)
    assert lam.invoke(FunctionName='app-fn', Qualifier='live', Payload=b'{}')['ExecutedVersion'] == version
    assert 'app-fn' in [f['FunctionName'] for f in lam.list_functions()['Functions']]
    assert code_of(lambda: lam.invoke(FunctionName='missing')) == ('ResourceNotFoundException', 404)
check('lambda invoke (RequestResponse, Event, DryRun), invoke_async, aliases, list, missing', functions)

def roles():
    iam = c('iam')
    trust = {'Version': '2012-10-17', 'Statement': [{'Effect': 'Allow', 'Principal': {'Service': 'lambda.amazonaws.com'}, 'Action': 'sts:AssumeRole'}]}
    role = iam.create_role(RoleName='app-role', AssumeRolePolicyDocument=json.dumps(trust))['Role']
    assert role['Arn'] == 'arn:aws:iam::000000000000:role/app-role'
    assert iam.get_role(RoleName='app-role')['Role']['AssumeRolePolicyDocument'] == trust
    iam.put_role_policy(RoleName='app-role', PolicyName='p', PolicyDocument=json.dumps({'Version': '2012-10-17', 'Statement': [{'Effect': 'Allow', 'Action': 's3:*', 'Resource': '*'}]}))
    iam.attach_role_policy(RoleName='app-role', PolicyArn='arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole')
    assert code_of(lambda: iam.delete_role(RoleName='app-role')) == ('DeleteConflict', 409)
    iam.delete_role_policy(RoleName='app-role', PolicyName='p')
    iam.detach_role_policy(RoleName='app-role', PolicyArn='arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole')
    iam.delete_role(RoleName='app-role')
    assert code_of(lambda: iam.get_role(RoleName='app-role')) == ('NoSuchEntity', 404)
check('iam create_role, get_role, role policies, delete conflicts, delete_role', roles)

def identity():
    sts = c('sts')
    assert sts.get_caller_identity()['Account'] == '000000000000'
    assert sts.assume_role(RoleArn='arn:aws:iam::000000000000:role/x', RoleSessionName='tests')['Credentials']['AccessKeyId'].startswith('ASIA')
check('sts get_caller_identity, assume_role', identity)

def parameters_and_secrets():
    ssm = c('ssm')
    ssm.put_parameter(Name='/app/a', Value='1', Type='String')
    ssm.put_parameter(Name='/app/deep/b', Value='hidden', Type='SecureString')
    deep = ssm.get_parameters_by_path(Path='/app', Recursive=True, WithDecryption=True)['Parameters']
    assert sorted((p['Name'], p['Value']) for p in deep) == [('/app/a', '1'), ('/app/deep/b', 'hidden')], deep
    assert [p['Name'] for p in ssm.get_parameters_by_path(Path='/app')['Parameters']] == ['/app/a']
    secrets = c('secretsmanager')
    arn = secrets.create_secret(Name='app/secret', SecretString='{"k":"v"}')['ARN']
    assert secrets.get_secret_value(SecretId='app/secret')['SecretString'] == '{"k":"v"}'
    assert secrets.get_secret_value(SecretId=arn)['Name'] == 'app/secret'
check('ssm get_parameters_by_path (recursive, decrypted), secretsmanager by name and ARN', parameters_and_secrets)

def events_metrics_logs():
    events = c('events')
    queue = sqs.create_queue(QueueName='app-events')['QueueUrl']
    queue_arn = sqs.get_queue_attributes(QueueUrl=queue, AttributeNames=['QueueArn'])['Attributes']['QueueArn']
    events.put_rule(Name='app-rule', EventPattern=json.dumps({'source': ['app']}))
    events.put_targets(Rule='app-rule', Targets=[{'Id': 'q', 'Arn': queue_arn}])
    assert events.put_events(Entries=[{'Source': 'app', 'DetailType': 't', 'Detail': '{"a":1}'}])['FailedEntryCount'] == 0
    assert json.loads(sqs.receive_message(QueueUrl=queue, WaitTimeSeconds=1)['Messages'][0]['Body'])['detail'] == {'a': 1}
    cloudwatch = c('cloudwatch')
    cloudwatch.put_metric_data(Namespace='App', MetricData=[{'MetricName': 'Jobs', 'Value': 2, 'Unit': 'Count'}, {'MetricName': 'Jobs', 'Value': 3, 'Unit': 'Count'}])
    now = time.time()
    points = cloudwatch.get_metric_statistics(Namespace='App', MetricName='Jobs', StartTime=now - 60, EndTime=now + 60, Period=3600, Statistics=['Sum'])['Datapoints']
    assert [p['Sum'] for p in points] == [5.0], points
    logs = c('logs')
    logs.create_log_group(logGroupName='/app')
    logs.create_log_stream(logGroupName='/app', logStreamName='s')
    logs.put_log_events(logGroupName='/app', logStreamName='s', logEvents=[{'timestamp': int(now * 1000), 'message': 'hello'}])
    assert [e['message'] for e in logs.filter_log_events(logGroupName='/app')['events']] == ['hello']
check('eventbridge put_events to an SQS target, cloudwatch put_metric_data, logs', events_metrics_logs)

def email():
    ses = c('ses')
    message = {'Subject': {'Data': 'Welcome'}, 'Body': {'Text': {'Data': 'hi'}}}
    error = code_of(lambda: ses.send_email(Source='app@shop.test', Destination={'ToAddresses': ['ann@example.test']}, Message=message))
    assert error == ('MessageRejected', 400), error
    ses.verify_email_identity(EmailAddress='app@shop.test')
    assert ses.get_identity_verification_attributes(Identities=['app@shop.test'])['VerificationAttributes'] == {'app@shop.test': {'VerificationStatus': 'Success'}}
    assert ses.send_email(Source='app@shop.test', Destination={'ToAddresses': ['ann@example.test']}, Message=message)['MessageId'].endswith('-000000')
    ses.create_template(Template={'TemplateName': 'app-welcome', 'SubjectPart': 'Hi {{name}}', 'TextPart': 'Welcome {{name}}'})
    ses.send_templated_email(Source='app@shop.test', Destination={'ToAddresses': ['ann@example.test']}, Template='app-welcome', TemplateData='{"name":"Ann"}')
    assert code_of(lambda: ses.get_template(TemplateName='nope')) == ('TemplateDoesNotExist', 400)
    ses.send_raw_email(RawMessage={'Data': b'From: app@shop.test\r\nTo: bob@example.test\r\nSubject: Raw\r\n\r\nbody'})
    assert ses.get_send_quota()['SentLast24Hours'] == 3
    v2 = c('sesv2')
    v2.create_email_identity(EmailIdentity='team@shop.test')
    assert v2.get_email_identity(EmailIdentity='team@shop.test')['VerifiedForSendingStatus'] is True
    v2.send_email(FromEmailAddress='team@shop.test', Destination={'ToAddresses': ['ann@example.test']}, Content={'Simple': {'Subject': {'Data': 'v2'}, 'Body': {'Text': {'Data': 'hi'}}}})
    assert code_of(lambda: v2.get_email_identity(EmailIdentity='nobody@shop.test')) == ('NotFoundException', 404)
check('ses verify, send (plain, templated, raw), templates, quota; sesv2 identities and send_email', email)

def keys():
    kms = c('kms')
    key = kms.create_key(Description='app')['KeyMetadata']
    kms.create_alias(AliasName='alias/app', TargetKeyId=key['KeyId'])
    blob = kms.encrypt(KeyId='alias/app', Plaintext=b'secret', EncryptionContext={'k': 'v'})['CiphertextBlob']
    assert kms.decrypt(CiphertextBlob=blob, EncryptionContext={'k': 'v'})['Plaintext'] == b'secret'
    assert code_of(lambda: kms.decrypt(CiphertextBlob=blob)) == ('InvalidCiphertextException', 400)
    data_key = kms.generate_data_key(KeyId=key['Arn'], KeySpec='AES_256')
    assert kms.decrypt(CiphertextBlob=data_key['CiphertextBlob'])['Plaintext'] == data_key['Plaintext']
    assert len(kms.generate_random(NumberOfBytes=16)['Plaintext']) == 16
    assert [a['AliasName'] for a in kms.list_aliases(KeyId=key['KeyId'])['Aliases']] == ['alias/app']
    kms.disable_key(KeyId=key['KeyId'])
    assert code_of(lambda: kms.encrypt(KeyId=key['KeyId'], Plaintext=b'x')) == ('DisabledException', 400)
    kms.schedule_key_deletion(KeyId=key['KeyId'], PendingWindowInDays=7)
    assert code_of(lambda: kms.enable_key(KeyId=key['KeyId'])) == ('KMSInvalidStateException', 400)
    assert kms.describe_key(KeyId='alias/aws/ssm')['KeyMetadata']['KeyManager'] == 'AWS'
check('kms create_key, aliases, encrypt/decrypt with context, data keys, random, disable, scheduled deletion, alias/aws/*', keys)

def step_functions():
    sfn = c('stepfunctions')
    definition = {'StartAt': 'Hello', 'States': {'Hello': {'Type': 'Pass', 'Parameters': {'greeting.$': "States.Format('Hello {}', $.name)"}, 'End': True}}}
    machine = sfn.create_state_machine(name='app-flow', definition=json.dumps(definition), roleArn='arn:aws:iam::000000000000:role/app')['stateMachineArn']
    execution = sfn.start_execution(stateMachineArn=machine, name='first', input=json.dumps({'name': 'boto3'}))['executionArn']
    assert execution == 'arn:aws:states:us-east-1:000000000000:execution:app-flow:first', execution
    for _ in range(100):
        described = sfn.describe_execution(executionArn=execution)
        if described['status'] != 'RUNNING':
            break
        time.sleep(0.05)
    assert (described['status'], json.loads(described['output'])) == ('SUCCEEDED', {'greeting': 'Hello boto3'}), described
    assert code_of(lambda: sfn.describe_execution(executionArn=machine.replace(':stateMachine:', ':execution:') + ':nothing')) == ('ExecutionDoesNotExist', 400)
check('stepfunctions start_execution, describe_execution', step_functions)

def tagging():
    lam = c('lambda')
    fn = lam.get_function(FunctionName='app-fn')['Configuration']['FunctionArn']
    lam.tag_resource(Resource=fn, Tags={'team': 'a', 'old': 'x'})
    lam.untag_resource(Resource=fn, TagKeys=['old'])
    assert lam.list_tags(Resource=fn)['Tags'] == {'team': 'a'}
    queue = sqs.get_queue_url(QueueName='app-q')['QueueUrl']
    sqs.tag_queue(QueueUrl=queue, Tags={'team': 'a', 'old': 'x'})
    sqs.untag_queue(QueueUrl=queue, TagKeys=['old'])
    assert sqs.list_queue_tags(QueueUrl=queue)['Tags'] == {'team': 'a'}
    sns = c('sns')
    topic = sns.create_topic(Name='app-t')['TopicArn']
    sns.tag_resource(ResourceArn=topic, Tags=[{'Key': 'team', 'Value': 'a'}])
    assert sns.list_tags_for_resource(ResourceArn=topic)['Tags'] == [{'Key': 'team', 'Value': 'a'}]
    table = ddb.describe_table(TableName='app')['Table']['TableArn']
    ddb.tag_resource(ResourceArn=table, Tags=[{'Key': 'team', 'Value': 'a'}])
    assert ddb.list_tags_of_resource(ResourceArn=table)['Tags'] == [{'Key': 'team', 'Value': 'a'}]
    logs = c('logs')
    logs.tag_log_group(logGroupName='/app', tags={'team': 'a'})
    assert logs.list_tags_for_resource(resourceArn='arn:aws:logs:us-east-1:000000000000:log-group:/app')['tags'] == {'team': 'a'}
    events = c('events')
    rule = events.describe_rule(Name='app-rule')['Arn']
    events.tag_resource(ResourceARN=rule, Tags=[{'Key': 'team', 'Value': 'a'}])
    assert events.list_tags_for_resource(ResourceARN=rule)['Tags'] == [{'Key': 'team', 'Value': 'a'}]
    secrets = c('secretsmanager')
    secrets.tag_resource(SecretId='app/secret', Tags=[{'Key': 'team', 'Value': 'a'}])
    assert secrets.describe_secret(SecretId='app/secret')['Tags'] == [{'Key': 'team', 'Value': 'a'}]
check('tagging: lambda, sqs, sns, dynamodb, logs, events, secretsmanager', tagging)

def redrive():
    dlq = sqs.get_queue_url(QueueName='app-dlq')['QueueUrl']
    dlq_arn = sqs.get_queue_attributes(QueueUrl=dlq, AttributeNames=['QueueArn'])['Attributes']['QueueArn']
    sqs.start_message_move_task(SourceArn=dlq_arn)
    tasks = sqs.list_message_move_tasks(SourceArn=dlq_arn)['Results']
    assert [t['Status'] for t in tasks] == ['COMPLETED'], tasks
    queue = sqs.get_queue_url(QueueName='app-q')['QueueUrl']
    assert sorted(m['Body'] for m in sqs.receive_message(QueueUrl=queue, MaxNumberOfMessages=10, WaitTimeSeconds=1)['Messages']) == ['a', 'b']
check('sqs start_message_move_task redrives the DLQ to its source queue, list_message_move_tasks', redrive)

def subscription():
    logs = c('logs')
    fn = c('lambda').get_function(FunctionName='app-fn')['Configuration']['FunctionArn']
    logs.put_subscription_filter(logGroupName='/app', filterName='ship', filterPattern='ERROR', destinationArn=fn)
    filters = logs.describe_subscription_filters(logGroupName='/app')['subscriptionFilters']
    assert [(f['filterName'], f['destinationArn']) for f in filters] == [('ship', fn)], filters
    logs.delete_subscription_filter(logGroupName='/app', filterName='ship')
check('logs put/describe/delete_subscription_filter to a Lambda function', subscription)
`;

/** PASS/FAIL/SKIP lines of the boto3 probe against a running local cloud. */
async function serverlessAppOperationChecks(url) {
  if (!hasPython(['boto3'])) return ['SKIP  boto3 serverless-app operations: python3 has no boto3 (pip install boto3)'];
  const run = spawnSync('python3', ['-c', PROGRAM, url], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null' } });
  const lines = run.stdout.split('\n').filter(Boolean);
  if (lines.length === 0) return [`FAIL  boto3 serverless-app operations: ${(run.stderr || run.error?.message || 'no output').trim()}`];
  return lines.map((line) => line.replace(/^(PASS|FAIL) /, '$1  boto3 '));
}

module.exports = { serverlessAppOperationChecks };

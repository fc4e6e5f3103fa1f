'use strict';

/** What one S3 event record says about the uploaded file. Keys arrive URL-encoded. */
function toUpload(record) {
  return {
    key: decodeURIComponent(record.s3.object.key.replace(/\+/g, ' ')),
    bucket: record.s3.bucket.name,
    size: record.s3.object.size ?? 0,
    uploadedAt: record.eventTime,
  };
}

/** The handler, given where to save each upload (the table in production, a fake in tests). */
function makeHandler(save) {
  return async (event) => {
    const uploads = event.Records.map(toUpload);
    for (const upload of uploads) await save(upload);
    console.log(`Recorded ${uploads.map((upload) => upload.key).join(', ')}`);
    return { recorded: uploads.length };
  };
}

let client;
async function putInTable(upload) {
  // The AWS SDK v3 is part of the nodejs20.x runtime, so it is not a dependency here.
  const { DynamoDBClient, PutItemCommand } = require('@aws-sdk/client-dynamodb');
  client ??= new DynamoDBClient({});
  await client.send(new PutItemCommand({
    TableName: process.env.UPLOADS_TABLE,
    Item: {
      key: { S: upload.key },
      bucket: { S: upload.bucket },
      size: { N: String(upload.size) },
      uploadedAt: { S: upload.uploadedAt },
    },
  }));
}

exports.toUpload = toUpload;
exports.makeHandler = makeHandler;
exports.onUpload = makeHandler(putInTable);

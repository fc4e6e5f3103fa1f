/** POST /jobs: says where the job would go (the queue the JobQueue construct made). */
export async function enqueue(event: { body?: string }) {
  return { statusCode: 202, body: JSON.stringify({ queueUrl: process.env.QUEUE_URL, job: event.body ?? null }) };
}

/** Takes jobs off the queue; a job that throws five times moves to the dead-letter queue. */
export async function work(event: { Records: Array<{ body: string }> }) {
  for (const record of event.Records) console.log('working on', record.body);
}

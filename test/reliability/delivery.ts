/**
 * Honest simulations of how AWS delivers events to the two bundled handlers, for the replay tests:
 *
 * - `deliverViaSqs`: an SQS event source mapping with `ReportBatchItemFailures`. Batches of up to `batchSize`
 *   messages; a message listed in `batchItemFailures` (or every message of a batch whose invocation threw, or whose
 *   response names an id not in the batch) becomes visible again and is redelivered later, behind the messages already
 *   queued; once it has been received `maxReceiveCount` times without success the redrive policy moves it to the DLQ.
 * - `deliverViaEventBridgeAsync`: EventBridge invoking Lambda asynchronously. A thrown error makes Lambda retry the
 *   event up to `retryAttempts` more times (later, behind other events), then send it to the function's DLQ.
 *
 * Several pollers/invocations run at once (`concurrency`), as Lambda does, so the handlers' conditional writes race.
 * Both return what the test needs to account for every input: which deliveries were acknowledged and what reached the DLQ.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

export interface SqsMessage {
  readonly messageId: string;
  readonly body: string;
}

export interface SqsDeliveryOptions {
  /** @default 10 (the AsyncEndpoint's event source mapping) */
  readonly batchSize?: number;
  /** @default 5 (the AsyncEndpoint's redrive policy) */
  readonly maxReceiveCount?: number;
  /** Batches processed at once. @default 4 */
  readonly concurrency?: number;
}

export interface DeliveryReport<T> {
  /** Inputs the handler acknowledged (processed without reporting a failure). */
  readonly acknowledged: T[];
  /** Inputs moved to the dead-letter queue after their last attempt. */
  readonly deadLettered: T[];
  /** Handler invocations made. */
  readonly invocations: number;
  /** Input deliveries made (one input may be delivered several times). */
  readonly deliveries: number;
  /** Deliveries that failed and were retried later. */
  readonly redeliveries: number;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The record an SQS event source mapping hands Lambda for `message` on its `receiveCount`-th receive. */
export function sqsRecord(message: SqsMessage, receiveCount = 1): SQSRecord {
  return {
    messageId: message.messageId,
    receiptHandle: `rh-${message.messageId}-${receiveCount}`,
    body: message.body,
    attributes: {
      ApproximateReceiveCount: String(receiveCount),
      SentTimestamp: '1643150760000',
      SenderId: 'AIDAEXAMPLE',
      ApproximateFirstReceiveTimestamp: '1643150760001',
    },
    messageAttributes: {},
    md5OfBody: '0',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:async-results',
    awsRegion: 'us-east-1',
  };
}

/** Delivers `messages` in the given order through a simulated SQS event source mapping. */
export async function deliverViaSqs(
  messages: readonly SqsMessage[],
  handler: (event: SQSEvent) => Promise<SQSBatchResponse | void>,
  options: SqsDeliveryOptions = {},
): Promise<DeliveryReport<SqsMessage>> {
  const batchSize = options.batchSize ?? 10;
  const maxReceiveCount = options.maxReceiveCount ?? 5;
  const queue = messages.map((message) => ({ message, receiveCount: 0 }));
  const report = { acknowledged: [] as SqsMessage[], deadLettered: [] as SqsMessage[], invocations: 0, deliveries: 0, redeliveries: 0 };
  let inFlight = 0;

  const poller = async () => {
    while (queue.length > 0 || inFlight > 0) {
      if (queue.length === 0) {
        await tick();
        continue;
      }
      const batch = queue.splice(0, batchSize);
      inFlight++;
      for (const entry of batch) entry.receiveCount++;
      report.invocations++;
      report.deliveries += batch.length;
      let failedIds: Set<string>;
      try {
        const response = await handler({ Records: batch.map((e) => sqsRecord(e.message, e.receiveCount)) });
        const ids = (response?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
        const inBatch = new Set(batch.map((e) => e.message.messageId));
        // Lambda fails the whole batch when a reported id is not one of its messages.
        failedIds = ids.every((id) => inBatch.has(id)) ? new Set(ids) : inBatch;
      } catch {
        failedIds = new Set(batch.map((e) => e.message.messageId));
      }
      for (const entry of batch) {
        if (!failedIds.has(entry.message.messageId)) {
          report.acknowledged.push(entry.message);
        } else if (entry.receiveCount >= maxReceiveCount) {
          report.deadLettered.push(entry.message);
        } else {
          report.redeliveries++;
          queue.push(entry);
        }
      }
      inFlight--;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, poller));
  return report;
}

export interface AsyncInvokeOptions {
  /** Retries after the first attempt. @default 2 (the PipelineEventRouter's default and Lambda's maximum) */
  readonly retryAttempts?: number;
  /** Invocations at once. @default 4 */
  readonly concurrency?: number;
}

/** Delivers `events` in the given order as EventBridge → Lambda asynchronous invocations. */
export async function deliverViaEventBridgeAsync<T>(
  events: readonly T[],
  handler: (event: T) => Promise<unknown>,
  options: AsyncInvokeOptions = {},
): Promise<DeliveryReport<T>> {
  const retryAttempts = options.retryAttempts ?? 2;
  const queue = events.map((event) => ({ event, attempts: 0 }));
  const report = { acknowledged: [] as T[], deadLettered: [] as T[], invocations: 0, deliveries: 0, redeliveries: 0 };
  let inFlight = 0;

  const invoker = async () => {
    while (queue.length > 0 || inFlight > 0) {
      const entry = queue.shift();
      if (!entry) {
        await tick();
        continue;
      }
      inFlight++;
      entry.attempts++;
      report.invocations++;
      report.deliveries++;
      try {
        // Lambda hands the function its own copy of the event.
        await handler(JSON.parse(JSON.stringify(entry.event)));
        report.acknowledged.push(entry.event);
      } catch {
        if (entry.attempts > retryAttempts) {
          report.deadLettered.push(entry.event);
        } else {
          report.redeliveries++;
          queue.push(entry);
        }
      }
      inFlight--;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, invoker));
  return report;
}

/** Fisher-Yates shuffle with the given randomness (reordering of deliveries). */
export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

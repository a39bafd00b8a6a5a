import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

/**
 * Alarms on one variant of a realtime endpoint. What they do when they fire is the endpoint's alarm actions.
 */
export interface RealtimeEndpointAlarmOptions {
  /**
   * The variant to watch.
   *
   * @default - the endpoint's first variant
   */
  readonly variantName?: string;
  /**
   * Alarm when p99 `ModelLatency` exceeds this.
   *
   * @default - no latency alarm
   */
  readonly modelLatencyP99Threshold?: Duration;
  /**
   * Alarm when the share of requests answered 5xx exceeds this percentage (0-100).
   *
   * @default - no error-rate alarm
   */
  readonly invocation5XXRateThreshold?: number;
  /**
   * The period each datapoint covers.
   *
   * @default Duration.minutes(5)
   */
  readonly period?: Duration;
  /**
   * Datapoints that must breach before the alarm fires.
   *
   * @default 3
   */
  readonly evaluationPeriods?: number;
}

/** The alarms that adding alarms created. */
export interface RealtimeEndpointAlarms {
  /**
   * p99 ModelLatency above the threshold.
   *
   * @default - not created
   */
  readonly modelLatencyP99?: cloudwatch.Alarm;
  /**
   * 5xx rate above the threshold.
   *
   * @default - not created
   */
  readonly invocation5XXRate?: cloudwatch.Alarm;
}

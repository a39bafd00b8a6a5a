/**
 * Reads CloudWatch embedded-metric-format records from what code writes to stdout. The format
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html):
 * one JSON object per line whose `_aws.CloudWatchMetrics` lists Namespace, Dimensions (arrays of dimension names) and
 * Metrics (Name, Unit), with each dimension's and each metric's value as a top-level member.
 */
export interface EmfRecord {
  _aws: { Timestamp: number; CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string; Unit: string }[] }[] };
  [key: string]: unknown;
}

/** The EMF records among the lines `fn` writes to stdout (the other lines are dropped). */
export async function emfWrittenBy(fn: () => Promise<unknown>): Promise<EmfRecord[]> {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: any) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  try {
    await fn();
  } finally {
    spy.mockRestore();
  }
  return lines.flatMap((l) => {
    try {
      const r = JSON.parse(l);
      return r && r._aws?.CloudWatchMetrics ? [r as EmfRecord] : [];
    } catch {
      return [];
    }
  });
}

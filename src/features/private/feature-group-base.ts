import { Resource, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { acknowledgeGrantWildcards } from '../../private/nag';
import { FeatureGroupMetricOptions, FeatureStoreOperation, IFeatureGroup, OfflineQueryGrantOptions } from '../feature-group-props';
import { featureGroupArns, glueArns } from './feature-group-helpers';
import { IAM_ACTION } from '../../private/iam-actions';

/** Where the offline store of a group lives (known for created groups, optional for imported ones). */
export interface OfflineLocation {
  readonly bucket?: s3.IBucket;
  readonly prefix?: string;
  readonly encryptionKey?: kms.IKey;
  readonly databaseName?: string;
  readonly tableName?: string;
}

/**
 * What created and imported feature groups share: their grants and metrics.
 *
 * @internal
 */
export abstract class FeatureGroupBase extends Resource implements IFeatureGroup {
  public abstract readonly featureGroupName: string;
  public abstract readonly featureGroupArn: string;
  /** @internal */
  protected abstract readonly _onlineKey?: kms.IKey;
  /** @internal */
  protected abstract readonly _offlineLocation: OfflineLocation;

  public grantReadOnline(grantee: iam.IGrantable): iam.Grant {
    return this.grantOnline(grantee, [IAM_ACTION.sagemaker.GetRecord, IAM_ACTION.sagemaker.BatchGetRecord]);
  }

  public grantWriteOnline(grantee: iam.IGrantable): iam.Grant {
    return this.grantOnline(grantee, [IAM_ACTION.sagemaker.PutRecord, IAM_ACTION.sagemaker.DeleteRecord]);
  }

  public grantGetRecord(grantee: iam.IGrantable): iam.Grant {
    return this.grantOnline(grantee, [IAM_ACTION.sagemaker.GetRecord]);
  }

  public grantPutRecord(grantee: iam.IGrantable): iam.Grant {
    return this.grantOnline(grantee, [IAM_ACTION.sagemaker.PutRecord]);
  }

  // The Service Authorization Reference has no UpdateRecord action: "sagemaker:IsUpdateRecord - Filters access by whether
  // the PutRecord authorization was triggered by an UpdateRecord API call. Set to true on UpdateRecord and false on
  // direct PutRecord calls" (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsagemaker.html).
  // So UpdateRecord is sagemaker:PutRecord, here limited to UpdateRecord calls.
  public grantUpdateRecord(grantee: iam.IGrantable): iam.Grant {
    return this.grantOnline(grantee, [IAM_ACTION.sagemaker.PutRecord], { Bool: { 'sagemaker:IsUpdateRecord': 'true' } });
  }

  public grantQueryOffline(grantee: iam.IGrantable, options: OfflineQueryGrantOptions = {}): iam.Grant {
    const { bucket, prefix, encryptionKey, databaseName, tableName } = this._offlineLocation;
    if (!bucket || !databaseName || !tableName) {
      throw new Error(`grantQueryOffline on feature group '${this.featureGroupName}': its offline store is unknown; ` +
        'import it with fromFeatureGroupAttributes({ offlineStoreBucket, databaseName, tableName, ... })');
    }
    const stack = Stack.of(this);
    const workGroup = options.workGroupName ?? 'primary';
    let grant = iam.Grant.addToPrincipal({
      grantee,
      actions: [
        IAM_ACTION.athena.StartQueryExecution, IAM_ACTION.athena.GetQueryExecution, IAM_ACTION.athena.GetQueryResults,
        IAM_ACTION.athena.StopQueryExecution, IAM_ACTION.athena.GetWorkGroup,
      ],
      resourceArns: [stack.formatArn({ service: 'athena', resource: 'workgroup', resourceName: workGroup })],
    });
    grant = grant.combine(iam.Grant.addToPrincipal({
      grantee,
      actions: [IAM_ACTION.glue.GetDatabase, IAM_ACTION.glue.GetTable, IAM_ACTION.glue.GetPartitions],
      resourceArns: glueArns(stack, databaseName, tableName),
    }));
    grant = grant.combine(acknowledgeGrantWildcards(this, iam.Grant.addToPrincipal({
      grantee,
      actions: [IAM_ACTION.s3.GetObject],
      resourceArns: [bucket.arnForObjects(prefix ? `${prefix}/*` : '*')],
    }), 'Athena reads the data files of this feature group\'s offline store, under its S3 prefix only; Feature Store names the files (IFeatureGroup.grantQueryOffline).'));
    grant = grant.combine(iam.Grant.addToPrincipal({
      grantee, actions: [IAM_ACTION.s3.ListBucket, IAM_ACTION.s3.GetBucketLocation], resourceArns: [bucket.bucketArn],
    }));
    if (encryptionKey) {
      grant = grant.combine(iam.Grant.addToPrincipal({ grantee, actions: [IAM_ACTION.kms.Decrypt], resourceArns: [encryptionKey.keyArn] }));
    }
    if (options.resultsBucket) {
      const resultsPrefix = options.resultsPrefix ?? 'athena-results';
      grant = grant.combine(acknowledgeGrantWildcards(this, iam.Grant.addToPrincipal({
        grantee,
        actions: [IAM_ACTION.s3.PutObject, IAM_ACTION.s3.GetObject, IAM_ACTION.s3.AbortMultipartUpload],
        resourceArns: [options.resultsBucket.arnForObjects(`${resultsPrefix}/*`)],
      }), 'Athena writes one result object per query under the given results prefix only, with generated names (IFeatureGroup.grantQueryOffline resultsPrefix).'));
      grant = grant.combine(iam.Grant.addToPrincipal({
        grantee, actions: [IAM_ACTION.s3.ListBucket, IAM_ACTION.s3.GetBucketLocation], resourceArns: [options.resultsBucket.bucketArn],
      }));
      if (options.resultsBucket.encryptionKey) {
        grant = grant.combine(iam.Grant.addToPrincipal({
          grantee,
          actions: [IAM_ACTION.kms.GenerateDataKey, IAM_ACTION.kms.Decrypt],
          resourceArns: [options.resultsBucket.encryptionKey.keyArn],
        }));
      }
    }
    return grant;
  }

  public metric(metricName: string, props: FeatureGroupMetricOptions = {}): cloudwatch.Metric {
    const { operation, ...rest } = props;
    return new cloudwatch.Metric({
      namespace: 'AWS/SageMaker',
      metricName,
      dimensionsMap: { FeatureGroupName: this.featureGroupName, OperationName: operation ?? FeatureStoreOperation.GET_RECORD },
      ...rest,
    }).attachTo(this);
  }

  public metricInvocations(props?: FeatureGroupMetricOptions): cloudwatch.Metric {
    return this.metric('Invocations', { statistic: 'Sum', ...props });
  }

  public metricOperation4XXErrors(props?: FeatureGroupMetricOptions): cloudwatch.Metric {
    return this.metric('Operation4XXErrors', { statistic: 'Sum', ...props });
  }

  public metricOperation5XXErrors(props?: FeatureGroupMetricOptions): cloudwatch.Metric {
    return this.metric('Operation5XXErrors', { statistic: 'Sum', ...props });
  }

  public metricThrottledRequests(props?: FeatureGroupMetricOptions): cloudwatch.Metric {
    return this.metric('ThrottledRequests', { statistic: 'Sum', ...props });
  }

  public metricLatency(props?: FeatureGroupMetricOptions): cloudwatch.Metric {
    return this.metric('Latency', { statistic: 'Average', ...props });
  }

  public metricConsumedReadRequestsUnits(props?: FeatureGroupMetricOptions): cloudwatch.Metric {
    return this.metric('ConsumedReadRequestsUnits', { statistic: 'Sum', ...props });
  }

  public metricConsumedWriteRequestsUnits(props?: FeatureGroupMetricOptions): cloudwatch.Metric {
    return this.metric('ConsumedWriteRequestsUnits', { statistic: 'Sum', operation: FeatureStoreOperation.PUT_RECORD, ...props });
  }

  public metricConsumedReadCapacityUnits(props?: FeatureGroupMetricOptions): cloudwatch.Metric {
    return this.metric('ConsumedReadCapacityUnits', { statistic: 'Sum', ...props });
  }

  public metricConsumedWriteCapacityUnits(props?: FeatureGroupMetricOptions): cloudwatch.Metric {
    return this.metric('ConsumedWriteCapacityUnits', { statistic: 'Sum', operation: FeatureStoreOperation.PUT_RECORD, ...props });
  }

  private grantOnline(grantee: iam.IGrantable, actions: string[], conditions?: Record<string, Record<string, unknown>>): iam.Grant {
    const resourceArns = featureGroupArns(this, this.featureGroupName, this.featureGroupArn);
    const grant = iam.Grant.addToPrincipal({ grantee, actions, conditions, resourceArns });
    // Every data-plane call on a KMS-encrypted online store needs kms:Decrypt on its key [API OnlineStoreSecurityConfig].
    if (!this._onlineKey) return grant;
    return grant.combine(iam.Grant.addToPrincipal({ grantee, actions: [IAM_ACTION.kms.Decrypt], resourceArns: [this._onlineKey.keyArn] }));
  }
}

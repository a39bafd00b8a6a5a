import { Resource, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { acknowledgeGrantWildcards } from '../../core/nag';
import { FeatureGroupMetricOptions, FeatureStoreOperation, IFeatureGroup, OfflineQueryGrantOptions } from '../feature-group-props';
import { featureGroupArns, glueArns } from './feature-group-helpers';

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
    return this.grantOnline(grantee, ['sagemaker:GetRecord', 'sagemaker:BatchGetRecord']);
  }

  public grantWriteOnline(grantee: iam.IGrantable): iam.Grant {
    return this.grantOnline(grantee, ['sagemaker:PutRecord', 'sagemaker:UpdateRecord', 'sagemaker:DeleteRecord']);
  }

  public grantGetRecord(grantee: iam.IGrantable): iam.Grant {
    return this.grantOnline(grantee, ['sagemaker:GetRecord']);
  }

  public grantPutRecord(grantee: iam.IGrantable): iam.Grant {
    return this.grantOnline(grantee, ['sagemaker:PutRecord']);
  }

  // `sagemaker:UpdateRecord`: the Service Authorization Reference names Feature Store runtime actions after their
  // operations (sagemaker:PutRecord, sagemaker:GetRecord):
  // https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsagemaker.html
  public grantUpdateRecord(grantee: iam.IGrantable): iam.Grant {
    return this.grantOnline(grantee, ['sagemaker:UpdateRecord']);
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
      actions: ['athena:StartQueryExecution', 'athena:GetQueryExecution', 'athena:GetQueryResults', 'athena:StopQueryExecution', 'athena:GetWorkGroup'],
      resourceArns: [stack.formatArn({ service: 'athena', resource: 'workgroup', resourceName: workGroup })],
    });
    grant = grant.combine(iam.Grant.addToPrincipal({
      grantee,
      actions: ['glue:GetDatabase', 'glue:GetTable', 'glue:GetPartitions'],
      resourceArns: glueArns(stack, databaseName, tableName),
    }));
    grant = grant.combine(acknowledgeGrantWildcards(this, iam.Grant.addToPrincipal({
      grantee,
      actions: ['s3:GetObject'],
      resourceArns: [bucket.arnForObjects(prefix ? `${prefix}/*` : '*')],
    }), 'Athena reads the data files of this feature group\'s offline store, under its S3 prefix only; Feature Store names the files (IFeatureGroup.grantQueryOffline).'));
    grant = grant.combine(iam.Grant.addToPrincipal({ grantee, actions: ['s3:ListBucket', 's3:GetBucketLocation'], resourceArns: [bucket.bucketArn] }));
    if (encryptionKey) {
      grant = grant.combine(iam.Grant.addToPrincipal({ grantee, actions: ['kms:Decrypt'], resourceArns: [encryptionKey.keyArn] }));
    }
    if (options.resultsBucket) {
      const resultsPrefix = options.resultsPrefix ?? 'athena-results';
      grant = grant.combine(acknowledgeGrantWildcards(this, iam.Grant.addToPrincipal({
        grantee,
        actions: ['s3:PutObject', 's3:GetObject', 's3:AbortMultipartUpload'],
        resourceArns: [options.resultsBucket.arnForObjects(`${resultsPrefix}/*`)],
      }), 'Athena writes one result object per query under the given results prefix only, with generated names (IFeatureGroup.grantQueryOffline resultsPrefix).'));
      grant = grant.combine(iam.Grant.addToPrincipal({ grantee, actions: ['s3:ListBucket', 's3:GetBucketLocation'], resourceArns: [options.resultsBucket.bucketArn] }));
      if (options.resultsBucket.encryptionKey) {
        grant = grant.combine(iam.Grant.addToPrincipal({
          grantee,
          actions: ['kms:GenerateDataKey', 'kms:Decrypt'],
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

  private grantOnline(grantee: iam.IGrantable, actions: string[]): iam.Grant {
    const grant = iam.Grant.addToPrincipal({ grantee, actions, resourceArns: featureGroupArns(this, this.featureGroupName, this.featureGroupArn) });
    // Every data-plane call on a KMS-encrypted online store needs kms:Decrypt on its key [API OnlineStoreSecurityConfig].
    if (!this._onlineKey) return grant;
    return grant.combine(iam.Grant.addToPrincipal({ grantee, actions: ['kms:Decrypt'], resourceArns: [this._onlineKey.keyArn] }));
  }
}

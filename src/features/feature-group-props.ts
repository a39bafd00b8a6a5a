import { Duration, IResource, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Feature } from './feature';
import { FeatureGroupSchema } from '../private/contract.generated';

// The feature group's public types: store options, throughput, props, attributes and its interface.

/** The storage tier of the online store. */
export enum OnlineStoreStorageType {
  /** Managed low-latency store (the service default). Supports provisioned throughput. */
  STANDARD = 'Standard',
  /** ElastiCache-backed in-memory tier for very low latency. On-demand throughput only. */
  IN_MEMORY = 'InMemory',
}

/** The table format of the offline store. */
export enum OfflineStoreTableFormat {
  /** Apache Iceberg: compaction and time travel. Requires a `String` event time. */
  ICEBERG = 'Iceberg',
  /** A plain Glue (Hive) table of Parquet files. */
  GLUE = 'Glue',
}

/** A Feature Store runtime operation, the `OperationName` dimension of the feature group metrics. */
export enum FeatureStoreOperation {
  GET_RECORD = 'GetRecord',
  BATCH_GET_RECORD = 'BatchGetRecord',
  PUT_RECORD = 'PutRecord',
  DELETE_RECORD = 'DeleteRecord',
}

/** Provisioned throughput capacity. */
export interface ProvisionedThroughputOptions {
  /** Read capacity units (0-10,000,000). Only meaningful with an online store. */
  readonly readCapacityUnits: number;
  /** Write capacity units (0-10,000,000). */
  readonly writeCapacityUnits: number;
}

/** The throughput mode of a feature group. */
export class FeatureGroupThroughput {
  /** Pay per request (the default). */
  public static onDemand(): FeatureGroupThroughput {
    return new FeatureGroupThroughput('OnDemand');
  }

  /** Fixed read and write capacity; only with a `Standard` online store or no online store. */
  public static provisioned(options: ProvisionedThroughputOptions): FeatureGroupThroughput {
    return new FeatureGroupThroughput('Provisioned', options.readCapacityUnits, options.writeCapacityUnits);
  }

  private constructor(
    /** `OnDemand` or `Provisioned` (CloudFormation `ThroughputConfig.ThroughputMode`). */
    public readonly mode: string,
    /**
     * Provisioned read capacity units.
     * @default - none: on-demand throughput
     */
    public readonly readCapacityUnits?: number,
    /**
     * Provisioned write capacity units.
     * @default - none: on-demand throughput
     */
    public readonly writeCapacityUnits?: number,
  ) {}
}

/** Online store options. */
export interface OnlineStoreOptions {
  /**
   * Whether the feature group has an online store.
   * @default true
   */
  readonly enabled?: boolean;
  /**
   * The storage tier.
   * @default OnlineStoreStorageType.STANDARD
   */
  readonly storageType?: OnlineStoreStorageType;
  /**
   * Time to live of a record in the online store, counted from its event time. Whole seconds, at least 1 second.
   * @default - records never expire
   */
  readonly ttl?: Duration;
  /**
   * KMS key for the online store. Callers of GetRecord/PutRecord/DeleteRecord need `kms:Decrypt` on it (the grants add it).
   * @default - the feature group's encryption key
   */
  readonly encryptionKey?: kms.IKey;
}

/** Offline store options. */
export interface OfflineStoreOptions {
  /**
   * Whether the feature group has an offline store.
   * @default true
   */
  readonly enabled?: boolean;
  /**
   * The bucket that holds the offline store.
   * @default - a bucket is created: KMS-encrypted with the offline store key, TLS only, public access blocked, versioned
   */
  readonly bucket?: s3.IBucket;
  /**
   * Key prefix inside the bucket (no leading or trailing slash).
   * @default 'feature-store'
   */
  readonly prefix?: string;
  /**
   * KMS key with which Feature Store encrypts the offline store objects.
   * @default - the feature group's encryption key
   */
  readonly encryptionKey?: kms.IKey;
  /**
   * The table format.
   * @default OfflineStoreTableFormat.ICEBERG
   */
  readonly tableFormat?: OfflineStoreTableFormat;
  /**
   * The Glue database of the offline store table. It must exist unless it is `sagemaker_featurestore`.
   * @default 'sagemaker_featurestore'
   */
  readonly databaseName?: string;
  /**
   * The Glue table name. Glue tables outlive their feature group (DeleteFeatureGroup leaves the table), so a group
   * re-created under the same table name meets the old table: the default carries a suffix unique to the stack.
   * Set it to keep a name you chose (an existing group's table name: changing it replaces the group).
   * @default - the feature group name in lower case with hyphens replaced by underscores, then `_` and the first 8 hex
   * characters of the stack's id (`AWS::StackId`, new for every creation of the stack), e.g. `users_1c2fa620`
   */
  readonly tableName?: string;
  /**
   * The data catalog.
   * @default 'AwsDataCatalog'
   */
  readonly catalogName?: string;
  /**
   * Associate an existing Glue table (named by the database and table names) instead of creating one.
   * @default false - Feature Store creates the table
   */
  readonly disableGlueTableCreation?: boolean;
  /**
   * Bucket for the server access logs of the created bucket.
   * @default - no access logs (acknowledged for cdk-nag with the reason)
   */
  readonly serverAccessLogsBucket?: s3.IBucket;
  /**
   * Removal policy of the created bucket.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/** Properties of a FeatureGroup. */
export interface FeatureGroupProps {
  /**
   * The feature group name: 1-64 letters, digits, hyphens or underscores, starting and ending with a letter or digit.
   * @default - a unique name derived from the construct path
   */
  readonly featureGroupName?: string;
  /** Every feature of the group (1-2500), including the record identifier and the event time. */
  readonly features: Feature[];
  /** The feature that identifies a record; must be one of `features`. */
  readonly recordIdentifier: Feature;
  /** The feature that holds the event time; must be one of `features`, of type String or Fractional. */
  readonly eventTime: Feature;
  /**
   * A description (at most 128 characters).
   * @default - none
   */
  readonly description?: string;
  /**
   * Online store options.
   * @default - an online store of type Standard, encrypted with the encryption key, no TTL
   */
  readonly onlineStore?: OnlineStoreOptions;
  /**
   * Offline store options.
   * @default - an Iceberg offline store in a created bucket, Glue table `sagemaker_featurestore.<group_name>_<stack id suffix>`
   */
  readonly offlineStore?: OfflineStoreOptions;
  /**
   * Throughput mode.
   * @default - on-demand throughput (`FeatureGroupThroughput`)
   */
  readonly throughput?: FeatureGroupThroughput;
  /**
   * Role that Feature Store assumes to write the offline store. The construct grants it exactly what the offline store needs.
   * @default - a role is created when the offline store is enabled; none otherwise
   */
  readonly role?: iam.IRole;
  /**
   * KMS key used for both stores unless a store names its own.
   * @default - a key with rotation enabled is created when a store needs one
   */
  readonly encryptionKey?: kms.IKey;
}

/** Where and how the offline store of an existing feature group lives, for the offline query grant. */
export interface FeatureGroupAttributes {
  /** The feature group name. */
  readonly featureGroupName: string;
  /**
   * KMS key of the online store.
   * @default - the online store is taken as encrypted with an AWS owned key (no KMS grant)
   */
  readonly onlineStoreEncryptionKey?: kms.IKey;
  /**
   * Bucket of the offline store.
   * @default - unknown: the offline query grant throws
   */
  readonly offlineStoreBucket?: s3.IBucket;
  /**
   * Key prefix of the offline store in the bucket.
   * @default - the whole bucket
   */
  readonly offlineStorePrefix?: string;
  /**
   * KMS key of the offline store objects.
   * @default - no KMS grant for the offline store
   */
  readonly offlineStoreEncryptionKey?: kms.IKey;
  /**
   * Glue database of the offline store table.
   * @default - unknown: the offline query grant throws
   */
  readonly databaseName?: string;
  /**
   * Glue table of the offline store.
   * @default - unknown: the offline query grant throws
   */
  readonly tableName?: string;
  /**
   * The group's schema (record identifier, event time, features), e.g. the `schema` of the `FeatureGroup` that created it.
   * @default - unknown: an `McpToolServer` exposing the group then needs the schema in its options
   */
  readonly schema?: FeatureGroupSchema;
}

/** Options of the offline query grant. */
export interface OfflineQueryGrantOptions {
  /**
   * The Athena workgroup queries run in.
   * @default 'primary'
   */
  readonly workGroupName?: string;
  /**
   * Bucket where Athena writes query results (unless the workgroup manages its results itself).
   * @default - no results bucket permissions
   */
  readonly resultsBucket?: s3.IBucket;
  /**
   * Key prefix of the query results in the results bucket.
   * @default 'athena-results'
   */
  readonly resultsPrefix?: string;
}

/** Metric options of a feature group. */
export interface FeatureGroupMetricOptions extends cloudwatch.MetricOptions {
  /**
   * The runtime operation (the `OperationName` dimension).
   * @default - GetRecord for read and latency metrics, PutRecord for write metrics
   */
  readonly operation?: FeatureStoreOperation;
}

/** A SageMaker Feature Store feature group. */
export interface IFeatureGroup extends IResource {
  /** @attribute */
  readonly featureGroupName: string;
  /** @attribute */
  readonly featureGroupArn: string;
  /**
   * The schema the runtime and the MCP tools read and write records with (record identifier, event time, features,
   * online storage type).
   *
   * @default - unknown for an imported group unless its attributes give it
   */
  readonly schema?: FeatureGroupSchema;
  /** Grants `sagemaker:GetRecord` and `sagemaker:BatchGetRecord` on this group, plus `kms:Decrypt` on the online store key. */
  grantReadOnline(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants `sagemaker:PutRecord` (which also authorizes UpdateRecord calls: IAM has no `sagemaker:UpdateRecord` action)
   * and `sagemaker:DeleteRecord` on this group, plus `kms:Decrypt` on the online store key.
   */
  grantWriteOnline(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants `sagemaker:GetRecord` only (reading one record, as the runtime's `getFeatures` does) on this group, plus
   * `kms:Decrypt` on the online store key.
   */
  grantGetRecord(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants `sagemaker:PutRecord` only (writing records, never deleting them) on this group, plus `kms:Decrypt` on the
   * online store key (every data-plane call on a KMS-encrypted online store needs it). The runtime's `putFeatures` also
   * reads the record it merges into (the get-record grant, `Standard` online store) or updates it (the update-record
   * grant, `Standard_V2`/`InMemory`).
   */
  grantPutRecord(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants what an UpdateRecord call (changing some features of an existing record; `Standard_V2` and `InMemory` online
   * stores only) needs on this group: `sagemaker:PutRecord` under the condition `sagemaker:IsUpdateRecord` = true (IAM has
   * no `sagemaker:UpdateRecord` action; the condition keeps this grant from allowing whole-record PutRecord calls), plus
   * `kms:Decrypt` on the online store key.
   */
  grantUpdateRecord(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants what an Athena query over the offline store needs: `athena:StartQueryExecution`, `athena:GetQueryExecution`,
   * `athena:GetQueryResults`, `athena:StopQueryExecution`, `athena:GetWorkGroup` on the workgroup; `glue:GetDatabase`,
   * `glue:GetTable`, `glue:GetPartitions` on the catalog, database and table; `s3:GetObject` on the offline store prefix,
   * `s3:ListBucket`, `s3:GetBucketLocation` on its bucket; `kms:Decrypt` on its key; and, with a results bucket,
   * `s3:PutObject`, `s3:GetObject`, `s3:AbortMultipartUpload` on the results prefix plus `kms:GenerateDataKey`/`kms:Decrypt`.
   */
  grantQueryOffline(grantee: iam.IGrantable, options?: OfflineQueryGrantOptions): iam.Grant;
  /** A metric of this group in namespace `AWS/SageMaker`, dimensions `FeatureGroupName` and `OperationName`. */
  metric(metricName: string, props?: FeatureGroupMetricOptions): cloudwatch.Metric;
  /** Requests to a runtime operation. Default statistic: Sum. */
  metricInvocations(props?: FeatureGroupMetricOptions): cloudwatch.Metric;
  /** Requests that returned a 4xx. Default statistic: Sum. */
  metricOperation4XXErrors(props?: FeatureGroupMetricOptions): cloudwatch.Metric;
  /** Requests that returned a 5xx. Default statistic: Sum. */
  metricOperation5XXErrors(props?: FeatureGroupMetricOptions): cloudwatch.Metric;
  /** Throttled requests. Default statistic: Sum. */
  metricThrottledRequests(props?: FeatureGroupMetricOptions): cloudwatch.Metric;
  /** Time to process a request, in microseconds (metric `Latency`). Default statistic: Average. */
  metricLatency(props?: FeatureGroupMetricOptions): cloudwatch.Metric;
  /** Read units consumed in on-demand mode. Default statistic: Sum. */
  metricConsumedReadRequestsUnits(props?: FeatureGroupMetricOptions): cloudwatch.Metric;
  /** Write units consumed in on-demand mode. Default statistic: Sum. */
  metricConsumedWriteRequestsUnits(props?: FeatureGroupMetricOptions): cloudwatch.Metric;
  /** Read capacity units consumed in provisioned mode. Default statistic: Sum. */
  metricConsumedReadCapacityUnits(props?: FeatureGroupMetricOptions): cloudwatch.Metric;
  /** Write capacity units consumed in provisioned mode. Default statistic: Sum. */
  metricConsumedWriteCapacityUnits(props?: FeatureGroupMetricOptions): cloudwatch.Metric;
}

import { ArnFormat, Aws, Duration, Fn, IResource, Names, RemovalPolicy, Resource, Stack, Token, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { CfnFeatureGroup } from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { FeatureGroupSchema } from '../private/contract.generated';
import { Feature, FeatureType } from './feature';
import { createKey } from '../core/encryption';
import { acknowledgeGrantWildcards } from '../core/nag';
import { createEncryptedBucket } from '../core/storage';
import { PropValidator } from '../core/validation';

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
   * @default - the feature group's `encryptionKey`
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
   * @default - the feature group's `encryptionKey`
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
   * Associate an existing Glue table (named by `databaseName`/`tableName`) instead of creating one.
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
   * @default - an online store of type Standard, encrypted with `encryptionKey`, no TTL
   */
  readonly onlineStore?: OnlineStoreOptions;
  /**
   * Offline store options.
   * @default - an Iceberg offline store in a created bucket, Glue table `sagemaker_featurestore.<group_name>_<stack id suffix>`
   */
  readonly offlineStore?: OfflineStoreOptions;
  /**
   * Throughput mode.
   * @default FeatureGroupThroughput.onDemand()
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

/** Where and how the offline store of an existing feature group lives, for `grantQueryOffline`. */
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
   * @default - unknown: grantQueryOffline throws
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
   * @default - unknown: grantQueryOffline throws
   */
  readonly databaseName?: string;
  /**
   * Glue table of the offline store.
   * @default - unknown: grantQueryOffline throws
   */
  readonly tableName?: string;
  /**
   * The group's schema (record identifier, event time, features), e.g. the `schema` of the `FeatureGroup` that created it.
   * @default - unknown: an `McpToolServer` exposing the group then needs the schema in its options
   */
  readonly schema?: FeatureGroupSchema;
}

/** Options of `grantQueryOffline`. */
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
   * Key prefix of the query results in `resultsBucket`.
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
  /** Grants `sagemaker:GetRecord` and `sagemaker:BatchGetRecord` on this group, plus `kms:Decrypt` on the online store key. */
  grantReadOnline(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants `sagemaker:PutRecord`, `sagemaker:UpdateRecord` and `sagemaker:DeleteRecord` on this group, plus `kms:Decrypt`
   * on the online store key.
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
   * reads the record it merges into (`grantGetRecord`, `Standard` online store) or updates it (`grantUpdateRecord`,
   * `Standard_V2`/`InMemory`).
   */
  grantPutRecord(grantee: iam.IGrantable): iam.Grant;
  /**
   * Grants `sagemaker:UpdateRecord` (changing some features of an existing record; `Standard_V2` and `InMemory` online
   * stores only) on this group, plus `kms:Decrypt` on the online store key.
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
  /**
   * The schema the runtime and the MCP tools read and write records with (record identifier, event time, features,
   * online storage type).
   *
   * @default - unknown for an imported group unless its attributes give it
   */
  readonly schema?: FeatureGroupSchema;
}

/** Where the offline store of a group lives (known for created groups, optional for imported ones). */
interface OfflineLocation {
  readonly bucket?: s3.IBucket;
  readonly prefix?: string;
  readonly encryptionKey?: kms.IKey;
  readonly databaseName?: string;
  readonly tableName?: string;
}

abstract class FeatureGroupBase extends Resource implements IFeatureGroup {
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

/**
 * A SageMaker Feature Store feature group with typed features, an online store, an Iceberg offline store in a bucket
 * it can own, a least-privilege offline-store role, grants and metrics.
 */
export class FeatureGroup extends FeatureGroupBase {
  /** Imports a feature group by name: online grants and metrics work; grantQueryOffline needs `fromFeatureGroupAttributes`. */
  public static fromFeatureGroupName(scope: Construct, id: string, featureGroupName: string): IFeatureGroup {
    return FeatureGroup.fromFeatureGroupAttributes(scope, id, { featureGroupName });
  }

  /** Imports a feature group with what is known about its stores. */
  public static fromFeatureGroupAttributes(scope: Construct, id: string, attrs: FeatureGroupAttributes): IFeatureGroup {
    class Import extends FeatureGroupBase {
      public readonly featureGroupName = attrs.featureGroupName;
      public readonly schema = attrs.schema;
      public readonly featureGroupArn = Stack.of(scope).formatArn({ service: 'sagemaker', resource: 'feature-group', resourceName: attrs.featureGroupName });
      /** @internal */
      protected readonly _onlineKey = attrs.onlineStoreEncryptionKey;
      /** @internal */
      protected readonly _offlineLocation: OfflineLocation = {
        bucket: attrs.offlineStoreBucket,
        prefix: attrs.offlineStorePrefix,
        encryptionKey: attrs.offlineStoreEncryptionKey,
        databaseName: attrs.databaseName,
        tableName: attrs.tableName,
      };
    }
    return new Import(scope, id);
  }

  public readonly featureGroupName: string;
  public readonly featureGroupArn: string;
  /** The features as declared, in order. */
  public readonly features: Feature[];
  /** Name of the record identifier feature. */
  public readonly recordIdentifierFeatureName: string;
  /** Name of the event time feature. */
  public readonly eventTimeFeatureName: string;
  /**
   * The schema handed to the runtime: record identifier, event time and every feature with its type.
   *
   * @default - always set for a created group (optional only because imported groups may not know it)
   */
  public readonly schema?: FeatureGroupSchema;
  /**
   * `schema` as a JSON string (`{featureGroupName, recordIdentifier, eventTime, features:[{name,type}]}`), ready for a
   * Lambda environment variable: the runtime's `featureGroupSchemasFromEnv` (`cdk-sagemaker-mcp/runtime`) reads it from
   * `FEATURE_GROUP_SCHEMAS`.
   */
  public readonly schemaJson: string;
  /**
   * The KMS key of the online store.
   * @default - none when the online store is disabled
   */
  public readonly onlineStoreEncryptionKey?: kms.IKey;
  /**
   * The bucket of the offline store.
   * @default - none when the offline store is disabled
   */
  public readonly offlineStoreBucket?: s3.IBucket;
  /**
   * The key prefix of the offline store in its bucket.
   * @default - none when the offline store is disabled
   */
  public readonly offlineStorePrefix?: string;
  /**
   * The KMS key of the offline store objects.
   * @default - none when the offline store is disabled
   */
  public readonly offlineStoreEncryptionKey?: kms.IKey;
  /**
   * The Glue database of the offline store table (set in DataCatalogConfig, so known at synth).
   * @default - none when the offline store is disabled
   */
  public readonly offlineStoreDatabaseName?: string;
  /**
   * The Glue table of the offline store (set in DataCatalogConfig). A token resolving at deploy time unless
   * `offlineStore.tableName` was given (the default name ends with a suffix of the stack's id).
   * @default - none when the offline store is disabled
   */
  public readonly offlineStoreTableName?: string;
  /**
   * The role Feature Store uses for the offline store.
   * @default - none when the offline store is disabled and no `role` was given
   */
  public readonly role?: iam.IRole;
  /** The AWS::SageMaker::FeatureGroup. */
  public readonly cfnFeatureGroup: CfnFeatureGroup;

  /** @internal */
  protected readonly _onlineKey?: kms.IKey;
  /** @internal */
  protected readonly _offlineLocation: OfflineLocation;

  constructor(scope: Construct, id: string, props: FeatureGroupProps) {
    super(scope, id);
    const name = props.featureGroupName ?? Names.uniqueResourceName(this, { maxLength: 64, separator: '-' });
    const online = props.onlineStore ?? {};
    const offline = props.offlineStore ?? {};
    const onlineEnabled = online.enabled ?? true;
    const offlineEnabled = offline.enabled ?? true;
    const tableFormat = offline.tableFormat ?? OfflineStoreTableFormat.ICEBERG;
    const databaseName = offline.databaseName ?? 'sagemaker_featurestore';
    const catalogName = offline.catalogName ?? 'AwsDataCatalog';
    const tableName = offline.tableName ?? (Token.isUnresolved(name) ? undefined : `${name.toLowerCase().replace(/-/g, '_')}_${stackIdSuffix()}`);
    const prefix = offline.prefix ?? 'feature-store';
    const throughput = props.throughput ?? FeatureGroupThroughput.onDemand();

    validate(`FeatureGroup '${this.node.path}'`, { ...props, featureGroupName: name }, {
      onlineEnabled,
      offlineEnabled,
      tableFormat,
      databaseName,
      catalogName,
      tableName,
      prefix,
      throughput,
      storageType: online.storageType,
    });

    this.featureGroupName = name;
    this.featureGroupArn = Stack.of(this).formatArn({ service: 'sagemaker', resource: 'feature-group', resourceName: name });
    this.features = [...props.features];
    this.recordIdentifierFeatureName = props.recordIdentifier.name;
    this.eventTimeFeatureName = props.eventTime.name;
    this.schema = {
      featureGroupName: name,
      recordIdentifier: props.recordIdentifier.name,
      eventTime: props.eventTime.name,
      features: props.features.map((f) => ({ name: f.name, type: f.type })),
      onlineStorageType: onlineEnabled ? (online.storageType ?? OnlineStoreStorageType.STANDARD) : 'None',
    };
    this.schemaJson = Stack.of(this).toJsonString(this.schema);

    let createdKey: kms.IKey | undefined;
    const sharedKey = (): kms.IKey => {
      createdKey ??= props.encryptionKey ?? createKey(this, 'Key', `Feature group ${this.node.path}: online and offline store encryption`);
      return createdKey;
    };

    const onlineStoreConfig = onlineEnabled ? this.renderOnline(online, sharedKey) : { EnableOnlineStore: false };
    this.onlineStoreEncryptionKey = this._onlineKey = onlineEnabled ? (online.encryptionKey ?? sharedKey()) : undefined;

    let offlineStoreConfig: Record<string, unknown> | undefined;
    if (offlineEnabled) {
      const offlineKey = offline.encryptionKey ?? sharedKey();
      const bucket = offline.bucket ?? this.createBucket(offlineKey, offline);
      const role = props.role ?? new iam.Role(this, 'OfflineStoreRole', {
        assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com'),
        description: `Feature Store offline store writer for ${this.node.path}`,
      });
      this.grantOfflineStoreWriter(role, bucket, prefix, offlineKey, databaseName, tableName!);
      this.role = role;
      this.offlineStoreBucket = bucket;
      this.offlineStorePrefix = prefix;
      this.offlineStoreEncryptionKey = offlineKey;
      this.offlineStoreDatabaseName = databaseName;
      this.offlineStoreTableName = tableName;
      offlineStoreConfig = {
        S3StorageConfig: { S3Uri: `s3://${bucket.bucketName}/${prefix}`, KmsKeyId: offlineKey.keyArn },
        DisableGlueTableCreation: offline.disableGlueTableCreation ?? false,
        DataCatalogConfig: { Catalog: catalogName, Database: databaseName, TableName: tableName },
        TableFormat: tableFormat,
      };
    } else {
      this.role = props.role;
    }
    this._offlineLocation = {
      bucket: this.offlineStoreBucket,
      prefix: this.offlineStorePrefix,
      encryptionKey: this.offlineStoreEncryptionKey,
      databaseName: this.offlineStoreDatabaseName,
      tableName: this.offlineStoreTableName,
    };

    this.cfnFeatureGroup = new CfnFeatureGroup(this, 'Resource', {
      featureGroupName: name,
      description: props.description,
      recordIdentifierFeatureName: props.recordIdentifier.name,
      eventTimeFeatureName: props.eventTime.name,
      featureDefinitions: props.features.map((f) => ({ featureName: f.name, featureType: f.type })),
      // CloudFormation `json` properties: aws-cdk-lib passes them through as-is, so the keys are PascalCase.
      onlineStoreConfig,
      offlineStoreConfig,
      roleArn: this.role?.roleArn,
      throughputConfig: {
        throughputMode: throughput.mode,
        provisionedReadCapacityUnits: throughput.readCapacityUnits,
        provisionedWriteCapacityUnits: throughput.writeCapacityUnits,
      },
    });
    // The offline store is set up at creation with the role: its policy must exist first.
    if (this.role) this.cfnFeatureGroup.node.addDependency(this.role);
  }

  private renderOnline(online: OnlineStoreOptions, sharedKey: () => kms.IKey): Record<string, unknown> {
    const key = online.encryptionKey ?? sharedKey();
    return {
      EnableOnlineStore: true,
      StorageType: online.storageType ?? OnlineStoreStorageType.STANDARD,
      SecurityConfig: { KmsKeyId: key.keyArn },
      ...(online.ttl ? { TtlDuration: renderTtl(online.ttl) } : {}),
    };
  }

  private createBucket(key: kms.IKey, offline: OfflineStoreOptions): s3.IBucket {
    return createEncryptedBucket(this, 'OfflineStoreBucket', {
      key,
      noncurrentVersionExpiration: Duration.days(30),
      serverAccessLogsBucket: offline.serverAccessLogsBucket,
      serverAccessLogsPrefix: 'feature-store-offline/',
      removalPolicy: offline.removalPolicy ?? RemovalPolicy.RETAIN,
      noAccessLogsReason: 'Offline store bucket: only the Feature Store role writes it; pass offlineStore.serverAccessLogsBucket to enable access logs.',
    });
  }

  /**
   * The inline equivalent of AmazonSageMakerFeatureStoreAccess, scoped to this store: that managed policy only
   * matches buckets whose names contain "sagemaker"
   * (https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AmazonSageMakerFeatureStoreAccess.html).
   */
  private grantOfflineStoreWriter(role: iam.IRole, bucket: s3.IBucket, prefix: string, key: kms.IKey,
    databaseName: string, tableName: string): void {
    const stack = Stack.of(this);
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: ['s3:PutObject', 's3:GetObject', 's3:PutObjectAcl'],
      resources: [bucket.arnForObjects(`${prefix}/*`)],
    }));
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:GetBucketAcl'], resources: [bucket.bucketArn] }));
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: ['glue:GetTable', 'glue:UpdateTable'],
      resources: glueArns(stack, databaseName, tableName),
    }));
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['kms:GenerateDataKey', 'kms:Decrypt'], resources: [key.keyArn] }));
    const policy = role.node.tryFindChild('DefaultPolicy');
    if (policy) {
      Validations.of(policy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${objectsFinding(stack, bucket, prefix)}]`,
        reason: 'Feature Store writes objects with generated keys under the offline store prefix; the wildcard is limited to that prefix.',
      });
    }
  }
}

/**
 * The first group of the stack id's UUID (`arn:...:stack/<name>/<uuid>`): 8 lowercase hex characters, new for every
 * creation of the stack, fixed for its lifetime; a valid part of a Glue table name.
 */
function stackIdSuffix(): string {
  return Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', Aws.STACK_ID))));
}

/** The Glue catalog ARN carries no catalog name (arn:aws:glue:region:account:catalog), whatever DataCatalogConfig.Catalog says. */
function glueArns(stack: Stack, databaseName: string, tableName: string): string[] {
  const glue = (resource: string, resourceName?: string) =>
    stack.formatArn({ service: 'glue', resource, resourceName, arnFormat: resourceName ? ArnFormat.SLASH_RESOURCE_NAME : ArnFormat.NO_RESOURCE_NAME });
  return [glue('catalog'), glue('database', databaseName), glue('table', `${databaseName}/${tableName}`)];
}

/**
 * Feature group ARNs to grant on. Whether SageMaker lowercases feature-group names in ARNs (as it does endpoint names)
 * is unconfirmed, so a mixed-case literal name is granted under both spellings.
 */
function featureGroupArns(scope: Construct, name: string, arn: string): string[] {
  if (Token.isUnresolved(name) || name === name.toLowerCase()) return [arn];
  return [arn, Stack.of(scope).formatArn({ service: 'sagemaker', resource: 'feature-group', resourceName: name.toLowerCase() })];
}

/** How cdk-nag spells the object wildcard resource in its finding id. */
function objectsFinding(stack: Stack, bucket: s3.IBucket, prefix: string): string {
  const arn = stack.resolve(bucket.arnForObjects(`${prefix}/*`));
  if (typeof arn === 'string') return arn;
  // Fn::Join of [Fn::GetAtt [Logical, Arn], '/prefix/*'] renders as <Logical.Arn>/prefix/*
  const parts: unknown[] = arn?.['Fn::Join']?.[1] ?? [];
  return parts.map((p) => {
    if (typeof p === 'string') return p;
    const getAtt = (p as any)?.['Fn::GetAtt'];
    if (getAtt) return `<${getAtt[0]}.${getAtt[1]}>`;
    const ref = (p as any)?.Ref;
    return ref ? `<${ref}>` : JSON.stringify(p);
  }).join('');
}

function renderTtl(ttl: Duration): Record<string, unknown> {
  const seconds = ttl.toSeconds();
  const units: Array<[string, number]> = [['Weeks', 604800], ['Days', 86400], ['Hours', 3600], ['Minutes', 60]];
  for (const [unit, size] of units) {
    if (seconds % size === 0) return { Unit: unit, Value: seconds / size };
  }
  return { Unit: 'Seconds', Value: seconds };
}

const GROUP_NAME = /^[a-zA-Z0-9]([_-]*[a-zA-Z0-9]){0,63}$/;
const FEATURE_NAME = /^[a-zA-Z0-9]([-_]*[a-zA-Z0-9]){0,63}$/;
const GLUE_NAME = /^[a-z0-9_]{1,255}$/;
const RESERVED = ['is_deleted', 'write_time', 'api_invocation_time'];

interface Resolved {
  readonly onlineEnabled: boolean;
  readonly offlineEnabled: boolean;
  readonly tableFormat: OfflineStoreTableFormat;
  readonly databaseName: string;
  readonly catalogName: string;
  readonly tableName?: string;
  readonly prefix: string;
  readonly throughput: FeatureGroupThroughput;
  readonly storageType?: OnlineStoreStorageType;
}

function validate(subject: string, props: FeatureGroupProps, r: Resolved): void {
  const v = new PropValidator(subject);
  v.pattern('featureGroupName', props.featureGroupName, GROUP_NAME,
    '1-64 letters, digits, hyphens or underscores, starting and ending with a letter or digit', 64);
  v.check(props.features.length >= 1 && props.features.length <= 2500, 'features', `${props.features.length} features`, 'between 1 and 2500 features');
  const seen = new Set<string>();
  for (const [i, f] of props.features.entries()) {
    v.pattern(`features[${i}].name`, f.name, FEATURE_NAME,
      '1-64 letters, digits, hyphens or underscores, starting and ending with a letter or digit', 64);
    v.check(!RESERVED.includes(f.name.toLowerCase()), `features[${i}].name`, f.name, `not a reserved name (${RESERVED.join(', ')})`);
    v.check(!seen.has(f.name), `features[${i}].name`, f.name, 'a name not used by another feature');
    seen.add(f.name);
  }
  const declared = (f: Feature) => props.features.find((d) => d.name === f.name);
  const rid = declared(props.recordIdentifier);
  v.check(rid !== undefined, 'recordIdentifier', props.recordIdentifier.name, `one of the features (${props.features.map((f) => f.name).join(', ')})`);
  if (rid) v.check(rid.type === props.recordIdentifier.type, 'recordIdentifier', `${props.recordIdentifier.name} (${props.recordIdentifier.type})`, `the declared type ${rid.type}`);
  const et = declared(props.eventTime);
  v.check(et !== undefined, 'eventTime', props.eventTime.name, `one of the features (${props.features.map((f) => f.name).join(', ')})`);
  if (et) v.check(et.type === props.eventTime.type, 'eventTime', `${props.eventTime.name} (${props.eventTime.type})`, `the declared type ${et.type}`);
  const etType = et?.type ?? props.eventTime.type;
  v.check(etType !== FeatureType.INTEGRAL, 'eventTime', `${props.eventTime.name} (${etType})`, 'a String or Fractional feature');
  if (r.offlineEnabled && r.tableFormat === OfflineStoreTableFormat.ICEBERG) {
    v.check(etType !== FeatureType.FRACTIONAL, 'eventTime', `${props.eventTime.name} (${etType})`,
      'a String feature: an Iceberg offline store accepts String event times only (or set offlineStore.tableFormat to GLUE)');
  }
  if (props.description !== undefined && !Token.isUnresolved(props.description)) {
    v.check(props.description.length <= 128, 'description', `${props.description.length} characters`, 'at most 128 characters');
  }
  v.check(r.onlineEnabled || r.offlineEnabled, 'onlineStore.enabled/offlineStore.enabled', 'false/false', 'at least one store enabled');
  const ttl = props.onlineStore?.ttl;
  if (ttl && !Token.isUnresolved(ttl.toSeconds({ integral: false }))) {
    v.check(r.onlineEnabled, 'onlineStore.ttl', ttl.toHumanString(), 'no TTL when the online store is disabled');
    const s = ttl.toSeconds({ integral: false });
    v.check(Number.isInteger(s) && s >= 1, 'onlineStore.ttl', ttl.toHumanString(), 'a whole number of seconds, at least 1 second');
  }
  if (!r.onlineEnabled) {
    v.check(props.onlineStore?.storageType === undefined, 'onlineStore.storageType', props.onlineStore?.storageType, 'unset when the online store is disabled');
    v.check(props.onlineStore?.encryptionKey === undefined, 'onlineStore.encryptionKey', 'a key', 'unset when the online store is disabled');
  }
  if (r.offlineEnabled) {
    v.pattern('offlineStore.databaseName', r.databaseName, GLUE_NAME, '1-255 lower-case letters, digits or underscores (a Glue database name)');
    v.check(r.tableName !== undefined, 'offlineStore.tableName', r.tableName, 'a table name (required when featureGroupName is a token)');
    // A derived table name is valid whenever the group name is, so only a given one is checked.
    v.pattern('offlineStore.tableName', props.offlineStore?.tableName, GLUE_NAME, '1-255 lower-case letters, digits or underscores (a Glue table name)');
    v.check(Token.isUnresolved(r.catalogName) || (r.catalogName.length >= 1 && r.catalogName.length <= 255), 'offlineStore.catalogName', r.catalogName, '1-255 characters');
    v.pattern('offlineStore.prefix', r.prefix, /^[^/](.*[^/])?$/, 'a key prefix without leading or trailing slash', 900);
  } else {
    for (const key of ['bucket', 'prefix', 'encryptionKey', 'tableFormat', 'databaseName', 'tableName', 'disableGlueTableCreation', 'serverAccessLogsBucket'] as const) {
      v.check(props.offlineStore?.[key] === undefined, `offlineStore.${key}`, 'a value', 'unset when the offline store is disabled');
    }
  }
  if (r.throughput.mode === 'Provisioned') {
    v.range('throughput.readCapacityUnits', r.throughput.readCapacityUnits, 0, 10_000_000);
    v.range('throughput.writeCapacityUnits', r.throughput.writeCapacityUnits, 0, 10_000_000);
    v.check(!(r.onlineEnabled && r.storageType === OnlineStoreStorageType.IN_MEMORY), 'throughput', 'Provisioned',
      'OnDemand with an InMemory online store (provisioned throughput needs a Standard online store or none)');
  }
  v.throwIfInvalid();
}

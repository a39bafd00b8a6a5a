import { Duration, Names, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { CfnFeatureGroup } from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { Feature } from './feature';
import { FeatureGroupAttributes, FeatureGroupProps, FeatureGroupThroughput, IFeatureGroup, OfflineStoreOptions, OfflineStoreTableFormat, OnlineStoreOptions, OnlineStoreStorageType } from './feature-group-props';
import { FeatureGroupSchema } from '../private/contract.generated';
import { createKey } from '../private/encryption';
import { createEncryptedBucket } from '../private/storage';
import { FeatureGroupBase, OfflineLocation } from './private/feature-group-base';
import { glueArns, objectsFinding, renderTtl, stackIdSuffix, validate } from './private/feature-group-helpers';
import { IAM_ACTION } from '../private/iam-actions';

/**
 * A SageMaker Feature Store feature group with typed features, an online store, an Iceberg offline store in a bucket
 * it can own, a least-privilege offline-store role, grants and metrics.
 */
export class FeatureGroup extends FeatureGroupBase {
  /** Imports a feature group by name: online grants and metrics work; the offline query grant needs an import by attributes. */
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
   * the offline store's table name was given (the default name ends with a suffix of the stack's id).
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
      actions: [IAM_ACTION.s3.PutObject, IAM_ACTION.s3.GetObject, IAM_ACTION.s3.PutObjectAcl],
      resources: [bucket.arnForObjects(`${prefix}/*`)],
    }));
    role.addToPrincipalPolicy(new iam.PolicyStatement({ actions: [IAM_ACTION.s3.GetBucketAcl], resources: [bucket.bucketArn] }));
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: [IAM_ACTION.glue.GetTable, IAM_ACTION.glue.UpdateTable],
      resources: glueArns(stack, databaseName, tableName),
    }));
    role.addToPrincipalPolicy(new iam.PolicyStatement({
      actions: [IAM_ACTION.kms.GenerateDataKey, IAM_ACTION.kms.Decrypt], resources: [key.keyArn],
    }));
    const policy = role.node.tryFindChild('DefaultPolicy');
    if (policy) {
      Validations.of(policy).acknowledge({
        id: `AwsSolutions-IAM5[Resource::${objectsFinding(stack, bucket, prefix)}]`,
        reason: 'Feature Store writes objects with generated keys under the offline store prefix; the wildcard is limited to that prefix.',
      });
    }
  }
}

import { ArnFormat, Aws, Duration, Fn, Stack, Token } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { PropValidator } from '../../private/validation';
import { Feature, FeatureType } from '../feature';
import { FeatureGroupProps, FeatureGroupThroughput, OfflineStoreTableFormat, OnlineStoreStorageType } from '../feature-group-props';


// Internals of FeatureGroup: ARNs to grant on, the cdk-nag finding id of an object wildcard, the TTL rendering and the
// prop checks.

/**
 * The first group of the stack id's UUID (`arn:...:stack/<name>/<uuid>`): 8 lowercase hex characters, new for every
 * creation of the stack, fixed for its lifetime; a valid part of a Glue table name.
 */
export function stackIdSuffix(): string {
  return Fn.select(0, Fn.split('-', Fn.select(2, Fn.split('/', Aws.STACK_ID))));
}

/** The Glue catalog ARN carries no catalog name (arn:aws:glue:region:account:catalog), whatever DataCatalogConfig.Catalog says. */
export function glueArns(stack: Stack, databaseName: string, tableName: string): string[] {
  const glue = (resource: string, resourceName?: string) =>
    stack.formatArn({ service: 'glue', resource, resourceName, arnFormat: resourceName ? ArnFormat.SLASH_RESOURCE_NAME : ArnFormat.NO_RESOURCE_NAME });
  return [glue('catalog'), glue('database', databaseName), glue('table', `${databaseName}/${tableName}`)];
}

/**
 * Feature group ARNs to grant on. Whether SageMaker lowercases feature-group names in ARNs (as it does endpoint names)
 * is unconfirmed, so a mixed-case literal name is granted under both spellings.
 */
export function featureGroupArns(scope: Construct, name: string, arn: string): string[] {
  if (Token.isUnresolved(name) || name === name.toLowerCase()) return [arn];
  return [arn, Stack.of(scope).formatArn({ service: 'sagemaker', resource: 'feature-group', resourceName: name.toLowerCase() })];
}

/** How cdk-nag spells the object wildcard resource in its finding id. */
export function objectsFinding(stack: Stack, bucket: s3.IBucket, prefix: string): string {
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

export function renderTtl(ttl: Duration): Record<string, unknown> {
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

export interface Resolved {
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

export function validate(subject: string, props: FeatureGroupProps, r: Resolved): void {
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

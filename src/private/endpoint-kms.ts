/**
 * Internal (not exported from the package): the endpoint config's KMS key and the NVMe instance-storage rule that
 * leaves it off, shared by the realtime, async and shared-GPU endpoints.
 */
import { Annotations } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import { IConstruct } from 'constructs';
import { hasLocalNvmeStorage } from './instance-table';
import { InstanceType } from '../core/instance-type';


export function hasNvmeInstanceStorage(instanceType: InstanceType): boolean {
  return !instanceType.isUnresolved && hasLocalNvmeStorage(instanceType.name);
}

/**
 * The endpoint config's `KmsKeyId`: the key's ARN, or nothing when ANY variant runs on NVMe instance storage (the API
 * then refuses a key; see `kmsKeyWarnings` for the warning that goes with it).
 */
export function endpointConfigKmsKeyId(key: kms.IKey | undefined, instanceTypes: InstanceType[]): string | undefined {
  if (!key) return undefined;
  if (instanceTypes.some(hasNvmeInstanceStorage)) return undefined;
  return key.keyArn;
}

/**
 * Warns when the endpoint config cannot carry a KMS key because a variant uses NVMe instance storage: when the user gave
 * the key (`keyGiven`) and it is left off, or when EBS-backed variants sit beside NVMe ones (their volumes then get an
 * AWS-managed key). An endpoint whose variants all use NVMe storage and whose user gave no key loses nothing (the
 * instance's hardware module encrypts that storage), so nothing is said: a warning there is one the user cannot act on.
 * `key` is the key the endpoint has (given or created), `variantNames` (parallel to `instanceTypes`) name the variants
 * in the message. Call it from a validation hook (`addValidationHook`).
 */
export function kmsKeyWarnings(
  scope: IConstruct, key: kms.IKey | undefined, keyGiven: boolean, instanceTypes: InstanceType[], variantNames: string[] = [],
): void {
  const describe = (i: number) => (variantNames[i] !== undefined ? `${variantNames[i]} (${instanceTypes[i].name})` : instanceTypes[i].name);
  const nvme = instanceTypes.map((t, i) => (hasNvmeInstanceStorage(t) ? describe(i) : undefined)).filter((d): d is string => d !== undefined);
  if (nvme.length === 0) return;
  const ebs = instanceTypes.map((t, i) => (hasNvmeInstanceStorage(t) ? undefined : describe(i))).filter((d): d is string => d !== undefined);
  const noun = variantNames.length > 0 ? 'variant' : 'instance type';
  const what = key ? 'left off the endpoint config' : 'none on the endpoint config (no KmsKeyId)';
  const because = `encryptionKey: ${what} because ${noun}${nvme.length === 1 ? '' : 's'} ${nvme.join(', ')} `
    + `${nvme.length === 1 ? 'uses' : 'use'} NVMe instance storage, which a hardware module on the instance encrypts `
    + '(CreateEndpointConfig fails with a KmsKeyId when any variant has such storage)';
  if (ebs.length === 0) {
    if (!keyGiven) return;
    Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:kmsKeyNvme', `${because}.`);
  } else {
    Annotations.of(scope).addWarningV2('cdk-sagemaker-mcp:kmsKeyMixedNvme',
      `${because}; the EBS volumes of ${ebs.join(', ')} therefore use an AWS-managed key. `
      + 'Put the EBS-backed variants on an endpoint of their own to encrypt them with a customer-managed key.');
  }
}


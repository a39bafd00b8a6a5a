/**
 * `templateSnapshot(stack)`: the stack's template for `toMatchSnapshot()`, with the parts that change on every
 * unrelated edit normalised: asset hashes (64 hex characters, in S3 keys, asset paths, image tags, logical ids),
 * the bootstrap-version parameter and rule, and the CDKMetadata resource.
 */
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

const ASSET_HASH = /[0-9a-f]{64}/g;

export function templateSnapshot(stack: Stack): any {
  return normaliseTemplate(Template.fromStack(stack).toJSON());
}

/** Same as `templateSnapshot` for a template object. */
export function normaliseTemplate(template: any): any {
  const t = JSON.parse(JSON.stringify(template));
  delete t.Parameters?.BootstrapVersion;
  if (t.Parameters && Object.keys(t.Parameters).length === 0) delete t.Parameters;
  delete t.Rules?.CheckBootstrapVersion;
  if (t.Rules && Object.keys(t.Rules).length === 0) delete t.Rules;
  delete t.Resources?.CDKMetadata;
  delete t.Conditions?.CDKMetadataAvailable;
  if (t.Conditions && Object.keys(t.Conditions).length === 0) delete t.Conditions;
  return scrub(t);
}

function scrub(value: any): any {
  if (typeof value === 'string') return value.replace(ASSET_HASH, '[ASSET_HASH]');
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(ASSET_HASH, '[ASSET_HASH]'), scrub(v)]));
  }
  return value;
}

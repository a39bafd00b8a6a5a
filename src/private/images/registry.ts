import { createHash } from 'crypto';
import { Aws, CfnMapping, Stack, Token } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { ComposedImage } from './catalog';

/**
 * The ECR host domain of a region: the `dnsSuffix` of the region's partition in botocore's endpoint data
 * (https://github.com/boto/botocore/blob/develop/botocore/data/endpoints.json), which the SageMaker Python SDK reads
 * to build `{account}.dkr.ecr.{region}.{dnsSuffix}` (`utils._botocore_resolver().construct_endpoint('ecr', region)`).
 * Checked most specific first (`us-isob-` before `us-iso-`).
 */
const PARTITION_DOMAINS: Array<[RegExp, string]> = [
  [/^cn-/, 'amazonaws.com.cn'],
  [/^us-isob-/, 'sc2s.sgov.gov'],
  [/^us-isof-/, 'csp.hci.ic.gov'],
  [/^us-iso-/, 'c2s.ic.gov'],
  [/^eu-isoe-/, 'cloud.adc-e.uk'],
  [/^eusc-/, 'amazonaws.eu'],
];

/** `amazonaws.com`, or the domain of the region's partition (`amazonaws.com.cn`, `c2s.ic.gov`, ...). */
export function ecrDomain(region: string): string {
  return PARTITION_DOMAINS.find(([re]) => re.test(region))?.[1] ?? 'amazonaws.com';
}

/** The image's URI in a concrete region, or undefined when it is not published there. */
export function imageUriIn(image: ComposedImage, region: string): string | undefined {
  const account = image.registries[region];
  return account && `${account}.dkr.ecr.${region}.${ecrDomain(region)}/${image.repository}:${image.tag}`;
}

/** What a catalog image binds to in a stack. */
export interface BoundCatalogImage {
  readonly imageUri: string;
  /** The repository's ARN, for the pull grant. */
  readonly repositoryArn: string;
}

/**
 * The image's URI in the stack's region. A concrete region must be one the image is published in (else an error
 * listing those regions). A region token (an environment-agnostic stack) resolves through a CloudFormation mapping of
 * the image's regions to account and domain: deploying to a region outside it fails with CloudFormation's mapping
 * error before any resource is created.
 */
export function bindCatalogImage(scope: Construct, image: ComposedImage, subject: string): BoundCatalogImage {
  const stack = Stack.of(scope);
  const region = stack.region;
  const path = `${image.repository}:${image.tag}`;
  if (!Token.isUnresolved(region)) {
    const imageUri = imageUriIn(image, region);
    if (!imageUri) {
      throw new Error(`${subject}: region '${region}' (the stack's region) has no ${path} image; expected one of the regions `
        + `it is published in: ${Object.keys(image.registries).join(', ')}`);
    }
    return {
      imageUri,
      repositoryArn: `arn:${stack.partition}:ecr:${region}:${image.registries[region]}:repository/${image.repository}`,
    };
  }
  const body = Object.fromEntries(Object.entries(image.registries).map(([r, a]) => [r, { account: a, domain: ecrDomain(r) }]));
  const hash = createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 8);
  const id = `CdkSageMakerMcpImageRegistry${hash}`;
  const mapping = (stack.node.tryFindChild(id) as CfnMapping | undefined) ?? new CfnMapping(stack, id, { mapping: body });
  const account = mapping.findInMap(Aws.REGION, 'account');
  const domain = mapping.findInMap(Aws.REGION, 'domain');
  return {
    imageUri: `${account}.dkr.ecr.${Aws.REGION}.${domain}/${path}`,
    repositoryArn: `arn:${Aws.PARTITION}:ecr:${Aws.REGION}:${account}:repository/${image.repository}`,
  };
}

import { Aws, CfnMapping, Stack, Token } from 'aws-cdk-lib';

/**
 * AWS Deep Learning Container (DLC) registry accounts by region, from the SageMaker Python SDK's
 * `image_uri_config/huggingface-llm.json` and `djl-lmi.json` (the SageMaker Python SDK's `image_uri_config` tables, https://github.com/aws/sagemaker-python-sdk). aws-cdk-lib's region facts
 * (FactName.DLC_REPOSITORY_ACCOUNT) lack several of these regions; where both have a value they agree (tested).
 */
const DEFAULT_DLC_ACCOUNT = '763104351884';

const DLC_ACCOUNT_EXCEPTIONS: Readonly<Record<string, string>> = {
  'af-south-1': '626614931356',
  'ap-east-1': '871362719292',
  'ap-east-2': '975050140332',
  'ap-northeast-3': '364406365360',
  'ap-south-2': '772153158452',
  'ap-southeast-3': '907027046896',
  'ap-southeast-4': '457447274322',
  'ap-southeast-5': '550225433462',
  'ap-southeast-6': '633930458069',
  'ap-southeast-7': '590183813437',
  'ca-west-1': '204538143572',
  'cn-north-1': '727897471807',
  'cn-northwest-1': '727897471807',
  'eu-central-2': '380420809688',
  'eu-south-1': '692866216735',
  'eu-south-2': '503227376785',
  // From the SageMaker Python SDK's djl-lmi.json, and agreed by aws-cdk-lib's region facts.
  'eusc-de-east-1': '204133271717',
  'il-central-1': '780543022126',
  'me-central-1': '914824155844',
  'me-south-1': '217643126080',
  // aws-cdk-lib's region facts (FactName.DLC_REPOSITORY_ACCOUNT); not in the SageMaker Python SDK's tables.
  'me-west-1': '124382933778',
  'mx-central-1': '637423239942',
  'us-gov-east-1': '446045086412',
  'us-gov-west-1': '442386744353',
};

const DEFAULT_ACCOUNT_REGIONS = [
  'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'ca-central-1', 'sa-east-1', 'eu-central-1', 'eu-west-1',
  'eu-west-2', 'eu-west-3', 'eu-north-1', 'ap-northeast-1', 'ap-northeast-2', 'ap-south-1', 'ap-southeast-1', 'ap-southeast-2',
];

/** The DLC account for a region, or undefined when no account is known for it. */
export function dlcAccountFor(region: string): string | undefined {
  if (DEFAULT_ACCOUNT_REGIONS.includes(region)) return DEFAULT_DLC_ACCOUNT;
  return DLC_ACCOUNT_EXCEPTIONS[region];
}

/** Every region with a known DLC account. */
export function dlcRegions(): string[] {
  return [...DEFAULT_ACCOUNT_REGIONS, ...Object.keys(DLC_ACCOUNT_EXCEPTIONS)];
}

/** The DLC account of a stack's region: a literal for a known region, a mapping lookup for a token region. */
export function dlcAccount(stack: Stack): string {
  if (!Token.isUnresolved(stack.region)) {
    const account = dlcAccountFor(stack.region);
    if (!account) {
      throw new Error(`ContainerImage.fromDlc: no Deep Learning Container registry account is known for region '${stack.region}'; `
        + `expected one of ${dlcRegions().join(', ')} (or use ContainerImage.fromImageUri with the full URI)`);
    }
    return account;
  }
  const id = 'CdkSageMakerMcpDlcAccounts';
  const mapping = (stack.node.tryFindChild(id) as CfnMapping | undefined) ?? new CfnMapping(stack, id, {
    mapping: Object.fromEntries(dlcRegions().map((r) => [r, { account: dlcAccountFor(r)! }])),
  });
  return mapping.findInMap(Aws.REGION, 'account');
}

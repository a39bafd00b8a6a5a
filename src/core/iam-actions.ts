/**
 * Internal (not exported from src/core/index.ts): the one table of "AWS operation the runtime or an MCP tool sends" →
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
  'SageMakerRuntime.InvokeEndpoint': ['sagemaker:InvokeEndpoint'],
  'SageMakerRuntime.InvokeEndpointWithResponseStream': ['sagemaker:InvokeEndpointWithResponseStream'],
  'SageMakerRuntime.InvokeEndpointAsync': ['sagemaker:InvokeEndpointAsync'],

  // SageMaker control plane (describe_endpoint, training and provenance tools).
  'SageMaker.DescribeEndpoint': ['sagemaker:DescribeEndpoint'],
  'SageMaker.StartPipelineExecution': ['sagemaker:StartPipelineExecution'],
  'SageMaker.DescribePipelineExecution': ['sagemaker:DescribePipelineExecution'],
  'SageMaker.ListPipelineExecutionSteps': ['sagemaker:ListPipelineExecutionSteps'],
  'SageMaker.ListAssociations': ['sagemaker:ListAssociations'],
  'SageMaker.DescribeArtifact': ['sagemaker:DescribeArtifact'],
  'SageMaker.DescribeModelPackage': ['sagemaker:DescribeModelPackage'],
  'SageMaker.DescribeTrainingJob': ['sagemaker:DescribeTrainingJob'],
  // Model lifecycle: list_model_versions (ListModelPackages: no required resource type, so IAM authorizes it on `*`).
  'SageMaker.ListModelPackages': ['sagemaker:ListModelPackages'],
  // get_deployment_status: the serving (and pending) config's model, to find its model package.
  'SageMaker.DescribeEndpointConfig': ['sagemaker:DescribeEndpointConfig'],
  'SageMaker.DescribeModel': ['sagemaker:DescribeModel'],

  // CloudFormation (the approved-model deployment handler, on its own stack only):
  // https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscloudformation.html
  'CloudFormation.DescribeStacks': ['cloudformation:DescribeStacks'],
  'CloudFormation.UpdateStack': ['cloudformation:UpdateStack'],
  // SNS (its optional outcome notifications): .../list_amazonsns.html
  'SNS.Publish': ['sns:Publish'],

  // Feature Store runtime (IAM prefix sagemaker).
  'SageMakerFeatureStoreRuntime.GetRecord': ['sagemaker:GetRecord'],
  'SageMakerFeatureStoreRuntime.BatchGetRecord': ['sagemaker:BatchGetRecord'],
  'SageMakerFeatureStoreRuntime.PutRecord': ['sagemaker:PutRecord'],
  'SageMakerFeatureStoreRuntime.DeleteRecord': ['sagemaker:DeleteRecord'],
  // Partial writes of Standard_V2 / InMemory online stores. The action is the one FeatureGroup.grantUpdateRecord grants
  // (the SAR names Feature Store runtime actions after their operations); its SAR row was not quoted verbatim when this
  // entry was added: confirm it at the list_amazonsagemaker.html address above.
  'SageMakerFeatureStoreRuntime.UpdateRecord': ['sagemaker:UpdateRecord'],

  // S3: HeadObject is authorized by s3:GetObject; ListObjectsV2 by s3:ListBucket.
  'S3.PutObject': ['s3:PutObject'],
  'S3.GetObject': ['s3:GetObject'],
  'S3.HeadObject': ['s3:GetObject'],
  'S3.ListObjectsV2': ['s3:ListBucket'],

  // DynamoDB (async job table, training results table).
  'DynamoDB.GetItem': ['dynamodb:GetItem'],
  'DynamoDB.Query': ['dynamodb:Query'],
  'DynamoDB.PutItem': ['dynamodb:PutItem'],
  'DynamoDB.UpdateItem': ['dynamodb:UpdateItem'],

  // Athena (offline-store queries).
  'Athena.StartQueryExecution': ['athena:StartQueryExecution'],
  'Athena.GetQueryExecution': ['athena:GetQueryExecution'],
  'Athena.GetQueryResults': ['athena:GetQueryResults'],
  'Athena.StopQueryExecution': ['athena:StopQueryExecution'],
} as const satisfies Record<string, readonly string[]>;

/** An operation key of the table. */
export type RuntimeOperation = keyof typeof IAM_ACTIONS_BY_OPERATION;

/** The IAM actions that authorize `operations`, de-duplicated, in table order. */
export function iamActionsFor(...operations: RuntimeOperation[]): string[] {
  return [...new Set(operations.flatMap((op) => IAM_ACTIONS_BY_OPERATION[op]))];
}

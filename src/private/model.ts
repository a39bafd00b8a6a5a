import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { IAM_ACTION } from './iam-actions';
import { acknowledgeModelRoleWildcards } from './model-role-nag';
import { ModelSourceConfig } from '../core/model-source-config';

/**
 * Internal helpers shared by the endpoint constructs: the model execution role and the AWS::SageMaker::Model.
 * Not part of the jsii API.
 */

/**
 * A role SageMaker assumes to run a model, with only what every hosted container needs: writing its own logs and
 * metrics. Model sources add ECR pull and S3 read for their image and artifacts when bound. Never a managed policy.
 *
 * Its grants land where aws-cdk-lib puts a role's grants, its DefaultPolicy, whose cdk-nag IAM5 findings of the
 * wildcards a model role needs are acknowledged.
 */
export function createExecutionRole(scope: Construct, id: string, description: string): iam.Role {
  const role = new iam.Role(scope, id, { assumedBy: executionRolePrincipal(), description });
  addExecutionRoleBasics(role);
  acknowledgeModelRoleWildcards(role);
  return role;
}

/** The principal of a model execution role. */
export function executionRolePrincipal(): iam.IPrincipal {
  return new iam.ServicePrincipal('sagemaker.amazonaws.com');
}

/** What every hosted container needs: writing its own logs and metrics (see `createExecutionRole`). */
export function addExecutionRoleBasics(role: iam.IRole): void {
  const stack = Stack.of(role);
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    actions: [IAM_ACTION.logs.CreateLogGroup, IAM_ACTION.logs.CreateLogStream, IAM_ACTION.logs.PutLogEvents, IAM_ACTION.logs.DescribeLogStreams],
    // Endpoint log groups are named after the endpoint, which CloudFormation may generate.
    resources: [stack.formatArn({ service: 'logs', resource: 'log-group', resourceName: '/aws/sagemaker/*', arnFormat: ArnFormat.COLON_RESOURCE_NAME })],
  }));
  role.addToPrincipalPolicy(new iam.PolicyStatement({
    // PutMetricData has no resource-level permissions; the namespace condition scopes it instead.
    actions: [IAM_ACTION.cloudwatch.PutMetricData],
    resources: ['*'],
    conditions: { StringLike: { 'cloudwatch:namespace': ['/aws/sagemaker/*', 'AWS/SageMaker'] } },
  }));
}

/** Where the model's containers run (from the endpoint's network options). */
export interface ModelNetwork {
  readonly vpcConfig?: sagemaker.CfnModel.VpcConfigProperty;
  readonly enableNetworkIsolation?: boolean;
}

/**
 * The model an endpoint hosts: the existing model's name, or a new AWS::SageMaker::Model created from the bound source.
 * The model waits for the role's policy so that SageMaker's image and artifact checks at creation succeed.
 */
export function renderModel(
  scope: Construct, id: string, config: ModelSourceConfig, role: iam.IRole, network?: ModelNetwork,
): { modelName: string; model?: sagemaker.CfnModel } {
  if (config.modelName) return { modelName: config.modelName };
  if (config.modelPackageName) {
    // "If you are hosting a model package, specify ModelPackageName and not Image or ModelDataUrl"
    // (https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_ContainerDefinition.html).
    const fromPackage = new sagemaker.CfnModel(scope, id, {
      executionRoleArn: role.roleArn,
      enableNetworkIsolation: network?.enableNetworkIsolation ? true : undefined,
      vpcConfig: network?.vpcConfig,
      containers: [{ modelPackageName: config.modelPackageName }],
    });
    fromPackage.node.addDependency(role);
    return { modelName: fromPackage.attrModelName, model: fromPackage };
  }
  if (!config.imageUri) {
    throw new Error('model: the model source resolved to neither a model name nor an image URI');
  }
  const data = config.modelData;
  // ModelDataUrl has no room for the EULA acceptance: a compressed artifact that needs it goes through ModelDataSource
  // as one gzip object. A multi-model container takes its S3 prefix as ModelDataUrl ("the prefix that is provided as
  // part of the CreateModel API call", https://docs.aws.amazon.com/sagemaker/latest/dg/invoke-multi-model-endpoint.html).
  const viaDataUrl = config.multiModel === true || (data?.compressed === true && !data.acceptEula);
  const model = new sagemaker.CfnModel(scope, id, {
    executionRoleArn: role.roleArn,
    enableNetworkIsolation: network?.enableNetworkIsolation ? true : config.enableNetworkIsolation,
    vpcConfig: network?.vpcConfig,
    primaryContainer: {
      image: config.imageUri,
      mode: config.multiModel ? 'MultiModel' : undefined,
      environment: config.environment && Object.keys(config.environment).length > 0 ? config.environment : undefined,
      modelDataUrl: viaDataUrl ? data?.s3Uri : undefined,
      modelDataSource: data && !viaDataUrl ? {
        s3DataSource: {
          s3Uri: data.s3Uri,
          s3DataType: data.compressed ? 'S3Object' : 'S3Prefix',
          compressionType: data.compressed ? 'Gzip' : 'None',
          modelAccessConfig: data.acceptEula ? { acceptEula: true } : undefined,
        },
      } : undefined,
    },
  });
  model.node.addDependency(role);
  return { modelName: model.attrModelName, model };
}

import * as path from 'path';
import { App, Aws, Size, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Fact, FactName, RegionInfo } from 'aws-cdk-lib/region-info';
import { ContainerImage, InstanceType, ModelData, ModelFamily, ModelSource } from '../../src/core';
import { dlcAccountFor, dlcRegions } from '../../src/private/dlc-accounts';
import { renderModel } from '../../src/private/model';
import { InferenceComponent, SharedGpuEndpoint } from '../../src/shared-gpu';
import { nagReport, synthWithNag } from '../support/nag-checks';

const TGI_REPO = 'huggingface-pytorch-tgi-inference';
const TGI_TAG = '2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04';

function stackIn(region?: string): Stack {
  const app = new App();
  return new Stack(app, 'Test', region ? { env: { account: '123456789012', region } } : {});
}

function role(stack: Stack): iam.Role {
  return new iam.Role(stack, 'ModelRole', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
}

/** Every statement of the role's default policy, resolved. */
function statementsOf(stack: Stack): any[] {
  return Object.values(Template.fromStack(stack).findResources('AWS::IAM::Policy'))
    .flatMap((p: any) => p.Properties.PolicyDocument.Statement);
}

function flat(v: unknown): string {
  return JSON.stringify(v);
}

describe('ContainerImage.fromDlc', () => {
  test.each([
    ['us-east-1', '763104351884', 'amazonaws.com'],
    ['eu-west-1', '763104351884', 'amazonaws.com'],
    ['af-south-1', '626614931356', 'amazonaws.com'],
    ['ap-east-1', '871362719292', 'amazonaws.com'],
    ['me-south-1', '217643126080', 'amazonaws.com'],
    ['cn-north-1', '727897471807', 'amazonaws.com.cn'],
    ['us-gov-west-1', '442386744353', 'amazonaws.com'],
  ])('in %s resolves to account %s on %s', (region, account, suffix) => {
    // GIVEN
    const stack = stackIn(region);
    const r = role(stack);
    // WHEN
    const { imageUri } = ContainerImage.fromDlc(TGI_REPO, TGI_TAG).bind(stack, r);
    // THEN
    expect(imageUri).toBe(`${account}.dkr.ecr.${region}.${suffix}/${TGI_REPO}:${TGI_TAG}`);
    const pull = statementsOf(stack).find((s) => [s.Action].flat().includes('ecr:BatchGetImage'));
    expect(flat(pull.Resource)).toContain(`:ecr:${region}:${account}:repository/${TGI_REPO}`);
  });

  test('in a stack whose region is a token, resolves the account through a mapping of every known region', () => {
    // GIVEN
    const stack = stackIn();
    const r = role(stack);
    // WHEN
    const { imageUri } = ContainerImage.fromDlc(TGI_REPO, TGI_TAG).bind(stack, r);
    ContainerImage.fromDlc('djl-inference', '0.36.0-lmi27.0.0-cu130').bind(stack, r);
    // THEN
    const resolved = stack.resolve(imageUri);
    expect(flat(resolved)).toContain('"Fn::FindInMap"');
    expect(flat(resolved)).toContain(`/${TGI_REPO}:${TGI_TAG}`);
    expect(flat(resolved)).toContain(flat({ Ref: 'AWS::URLSuffix' }));
    const mappings = Template.fromStack(stack).toJSON().Mappings;
    // one shared mapping, however many images
    expect(Object.keys(mappings)).toHaveLength(1);
    const mapping = Object.values(mappings)[0] as Record<string, { account: string }>;
    expect(Object.keys(mapping).sort()).toEqual(dlcRegions().sort());
    expect(mapping['us-east-1'].account).toBe('763104351884');
    expect(mapping['il-central-1'].account).toBe('780543022126');
    expect(flat(stack.resolve(imageUri))).toContain(flat({ Ref: 'AWS::Region' }));
  });

  test('fails if the region has no known DLC account', () => {
    // GIVEN
    const stack = stackIn('xx-nowhere-1');
    // WHEN / THEN
    expect(() => ContainerImage.fromDlc(TGI_REPO, TGI_TAG).bind(stack, role(stack)))
      .toThrow(/no Deep Learning Container registry account is known for region 'xx-nowhere-1'; expected one of us-east-1/);
  });
});

describe('DLC account table', () => {
  test('agrees with aws-cdk-lib\'s DLC_REPOSITORY_ACCOUNT fact wherever both know the region', () => {
    // GIVEN
    const compared: string[] = [];
    const disagreements: string[] = [];
    // WHEN
    for (const region of RegionInfo.regions.map((r) => r.name)) {
      const fact = Fact.find(region, FactName.DLC_REPOSITORY_ACCOUNT);
      const ours = dlcAccountFor(region);
      if (!fact || !ours) continue;
      compared.push(region);
      if (fact !== ours) disagreements.push(`${region}: ours ${ours}, aws-cdk-lib ${fact}`);
    }
    // THEN
    expect(disagreements).toEqual([]);
    // the comparison must actually cover the main regions, not pass vacuously
    expect(compared).toEqual(expect.arrayContaining(['us-east-1', 'us-west-2', 'eu-west-1', 'ap-east-1', 'me-south-1', 'cn-north-1']));
    expect(compared.length).toBeGreaterThanOrEqual(20);
  });
});

describe('ECR images', () => {
  test('fromEcrRepository grants pull on that repository only', () => {
    // GIVEN
    const stack = stackIn('us-east-1');
    const repo = ecr.Repository.fromRepositoryName(stack, 'Repo', 'my-model');
    // WHEN
    const { imageUri } = ContainerImage.fromEcrRepository(repo, 'v3').bind(stack, role(stack));
    // THEN
    expect(stack.resolve(imageUri)).toEqual({ 'Fn::Join': ['', ['123456789012.dkr.ecr.us-east-1.', { Ref: 'AWS::URLSuffix' }, '/my-model:v3']] });
    const pull = statementsOf(stack).find((s) => [s.Action].flat().includes('ecr:BatchGetImage'));
    expect(flat(pull.Resource)).toContain(':ecr:us-east-1:123456789012:repository/my-model');
    expect(flat(pull.Resource)).not.toContain('*');
  });

  test('fromImageUri parses account, region and repository from the URI to scope the pull', () => {
    // GIVEN
    const stack = stackIn('us-east-1');
    const uri = '763104351884.dkr.ecr.us-west-2.amazonaws.com/djl-inference:0.29.0-lmi11.0.0-cu124';
    // WHEN
    const { imageUri } = ContainerImage.fromImageUri(uri).bind(stack, role(stack));
    // THEN
    expect(imageUri).toBe(uri);
    const pull = statementsOf(stack).find((s) => [s.Action].flat().includes('ecr:BatchGetImage'));
    expect(flat(pull.Resource)).toContain(':ecr:us-west-2:763104351884:repository/djl-inference"');
  });

  test('fromImageUri accepts a digest and a nested repository path', () => {
    // GIVEN
    const stack = stackIn('us-east-1');
    const uri = `123456789012.dkr.ecr.us-east-1.amazonaws.com/team/model@sha256:${'a'.repeat(64)}`;
    // WHEN
    ContainerImage.fromImageUri(uri).bind(stack, role(stack));
    // THEN
    const pull = statementsOf(stack).find((s) => [s.Action].flat().includes('ecr:BatchGetImage'));
    expect(flat(pull.Resource)).toContain(':repository/team/model"');
  });

  test.each([
    'docker.io/library/nginx:latest',
    '763104351884.dkr.ecr.us-east-1.amazonaws.com/djl-inference',
    'djl-inference:0.29.0',
  ])('fails if the image URI %s is not an ECR image URI with a tag or digest', (uri) => {
    expect(() => ContainerImage.fromImageUri(uri)).toThrow(new RegExp(`ContainerImage.fromImageUri: got '${uri.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}', expected an ECR image URI`));
  });

  test('GetAuthorizationToken, which has no resource-level permission, is the only pull action on *', () => {
    // GIVEN
    const stack = stackIn('us-east-1');
    // WHEN
    ContainerImage.fromDlc(TGI_REPO, TGI_TAG).bind(stack, role(stack));
    // THEN
    const onStar = statementsOf(stack).filter((s) => s.Resource === '*');
    expect(onStar.map((s) => s.Action)).toEqual(['ecr:GetAuthorizationToken']);
  });
});

describe('ModelData', () => {
  test('a prefix ending in / is an uncompressed S3Prefix source read under the prefix', () => {
    // GIVEN
    const stack = stackIn('us-east-1');
    const bucket = s3.Bucket.fromBucketName(stack, 'B', 'models');
    const r = role(stack);
    // WHEN
    const config = ModelSource.fromContainer(ContainerImage.fromDlc(TGI_REPO, TGI_TAG), { modelData: ModelData.fromBucket(bucket, 'llama/') })
      .bind(stack, { role: r });
    renderModel(stack, 'Model', config, r);
    // THEN
    expect(config.modelData).toEqual({ s3Uri: 's3://models/llama/', compressed: false });
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::Model', {
      PrimaryContainer: { ModelDataSource: { S3DataSource: { S3Uri: 's3://models/llama/', S3DataType: 'S3Prefix', CompressionType: 'None' } } },
    });
    const read = statementsOf(stack).find((s) => [s.Action].flat().includes('s3:GetObject*'));
    expect(flat(read.Resource)).toContain(':s3:::models/llama/*');
  });

  test('a .tar.gz key is a compressed ModelDataUrl read on that object only', () => {
    // GIVEN
    const stack = stackIn('us-east-1');
    const bucket = s3.Bucket.fromBucketName(stack, 'B', 'models');
    const r = role(stack);
    // WHEN
    const config = ModelSource.fromContainer(ContainerImage.fromDlc(TGI_REPO, TGI_TAG), { modelData: ModelData.fromBucket(bucket, 'xgb/model.tar.gz') })
      .bind(stack, { role: r });
    renderModel(stack, 'Model', config, r);
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::Model', {
      PrimaryContainer: { ModelDataUrl: 's3://models/xgb/model.tar.gz' },
    });
    const read = statementsOf(stack).find((s) => [s.Action].flat().includes('s3:GetObject*'));
    expect(flat(read.Resource)).toContain(':s3:::models/xgb/model.tar.gz"');
  });

  test('a .tar.gz artifact whose EULA is accepted is a Gzip S3Object ModelDataSource carrying AcceptEula', () => {
    // GIVEN: a gated artifact (as a JumpStart model binds one); ModelDataUrl cannot carry the acceptance
    const stack = stackIn('us-east-1');
    const r = role(stack);
    // WHEN
    renderModel(stack, 'Model', {
      imageUri: `763104351884.dkr.ecr.us-east-1.amazonaws.com/${TGI_REPO}:${TGI_TAG}`,
      modelData: { s3Uri: 's3://jumpstart-cache-prod-us-east-1/meta/llama.tar.gz', compressed: true, acceptEula: true },
    }, r);
    // THEN
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::Model', {
      PrimaryContainer: {
        ModelDataUrl: Match.absent(),
        ModelDataSource: {
          S3DataSource: {
            S3Uri: 's3://jumpstart-cache-prod-us-east-1/meta/llama.tar.gz',
            S3DataType: 'S3Object',
            CompressionType: 'Gzip',
            ModelAccessConfig: { AcceptEula: true },
          },
        },
      },
    });
  });

  test('fails if the key is neither a .tar.gz object nor a prefix', () => {
    // GIVEN
    const stack = stackIn('us-east-1');
    const bucket = s3.Bucket.fromBucketName(stack, 'B', 'models');
    // WHEN / THEN
    expect(() => ModelData.fromBucket(bucket, 'llama/model.safetensors'))
      .toThrow(/ModelData.fromBucket key: got 'llama\/model.safetensors', expected a '.tar.gz' object or an uncompressed prefix ending in '\/'/);
  });

  test.each([['a prefix', 'llama/'], ['a .tar.gz object', 'xgb/model.tar.gz']])(
    'fromS3Uri of %s renders what fromBucket with the bucket imported by name renders: the same model and read grant', (_what, key) => {
      // GIVEN
      const render = (modelData: (stack: Stack) => ModelData) => {
        const stack = stackIn('us-east-1');
        const r = role(stack);
        const config = ModelSource.fromContainer(ContainerImage.fromDlc(TGI_REPO, TGI_TAG), { modelData: modelData(stack) }).bind(stack, { role: r });
        renderModel(stack, 'Model', config, r);
        return Template.fromStack(stack).toJSON();
      };
      // WHEN
      const byUri = render(() => ModelData.fromS3Uri(`s3://models/${key}`));
      const byBucket = render((stack) => ModelData.fromBucket(s3.Bucket.fromBucketName(stack, 'B', 'models'), key));
      // THEN
      expect(byUri).toEqual(byBucket);
      expect(JSON.stringify(byUri)).toContain(`s3://models/${key}`);
    });

  test.each([
    ['a key that is neither an object nor a prefix', 's3://models/llama/model.safetensors'],
    ['no key', 's3://models/'],
    ['an https URL', 'https://models.s3.amazonaws.com/llama/'],
    ['an invalid bucket name', 's3://Models_Bucket/llama/'],
  ])('fromS3Uri fails on %s, naming the prop, the value and what it expects', (_what, uri) => {
    expect(() => ModelData.fromS3Uri(uri)).toThrow(
      `ModelData.fromS3Uri s3Uri: got '${uri}', expected a literal s3://<bucket>/<key> whose key is a '.tar.gz' object or an uncompressed prefix ending in '/'`);
  });

  test('fromS3Uri refuses a token and points to fromBucket', () => {
    expect(() => ModelData.fromS3Uri(`s3://models-${Aws.ACCOUNT_ID}/llama/`)).toThrow(/a location known only at deploy time goes through ModelData.fromBucket/);
  });

  test('fails if an asset is not a .tar.gz file', () => {
    expect(() => ModelData.fromAsset(path.join(__dirname, 'model.zip'))).toThrow(/ModelData.fromAsset path: got '.*model.zip', expected a '.tar.gz' file/);
  });
});

describe('ModelSource', () => {
  test('fromContainer passes environment, network isolation and family through', () => {
    // GIVEN
    const stack = stackIn('us-east-1');
    const r = role(stack);
    // WHEN
    const config = ModelSource.fromContainer(ContainerImage.fromDlc(TGI_REPO, TGI_TAG), {
      environment: { HF_MODEL_ID: '/opt/ml/model' }, enableNetworkIsolation: true, modelFamily: ModelFamily.TGI,
    }).bind(stack, { role: r, instanceType: InstanceType.ML_G5_2XLARGE });
    renderModel(stack, 'Model', config, r);
    // THEN
    expect(config.modelFamily).toBe(ModelFamily.TGI);
    Template.fromStack(stack).hasResourceProperties('AWS::SageMaker::Model', {
      EnableNetworkIsolation: true,
      PrimaryContainer: { Environment: { HF_MODEL_ID: '/opt/ml/model' } },
    });
  });

  test('fromModelName binds to the name and creates nothing', () => {
    // GIVEN
    const stack = stackIn('us-east-1');
    const r = role(stack);
    // WHEN
    const config = ModelSource.fromModelName('existing-model').bind(stack, { role: r });
    const rendered = renderModel(stack, 'Model', config, r);
    // THEN
    expect(rendered).toEqual({ modelName: 'existing-model' });
    Template.fromStack(stack).resourceCountIs('AWS::SageMaker::Model', 0);
  });

  test('fails if fromModelName is given an invalid name', () => {
    expect(() => ModelSource.fromModelName('bad_model_name')).toThrow(/modelName: got 'bad_model_name', expected 1-63 letters, digits or hyphens/);
  });
});

describe('a model bound to a role the user gives: the grants\' wildcards are acknowledged, exactly', () => {
  function sharedGpuOn(givenRole: (stack: Stack) => iam.IRole): { app: App; stack: Stack; role: iam.IRole } {
    const app = new App();
    const stack = new Stack(app, 'Given', { env: { region: 'us-east-1' } });
    const modelRole = givenRole(stack);
    const endpoint = SharedGpuEndpoint.fromSharedGpuEndpointAttributes(stack, 'Shared', { endpointName: 'team-shared-gpu', role: modelRole });
    const models = s3.Bucket.fromBucketName(stack, 'Models', 'my-models');
    new InferenceComponent(stack, 'Chat', {
      endpoint,
      model: ModelSource.fromContainer(ContainerImage.fromDlc(TGI_REPO, TGI_TAG), { modelData: ModelData.fromBucket(models, 'llama/') }),
      acceleratorCount: 1,
      minMemory: Size.gibibytes(16),
    });
    return { app, stack, role: modelRole };
  }

  test.each([
    ['an imported role (its grants go to a Policy the role gets)', (stack: Stack) => iam.Role.fromRoleName(stack, 'Team', 'team-models')],
    ['a role of the user\'s stack (its grants go to its DefaultPolicy)', (stack: Stack) => new iam.Role(stack, 'Team', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') })],
  ])('%s: cdk-nag clean', (_name, givenRole) => {
    const { app } = sharedGpuOn(givenRole);
    expect(() => synthWithNag(app)).not.toThrow();
    expect(nagReport(app).acknowledgements.map((a) => a.ruleId)).toEqual(expect.arrayContaining([
      'AwsSolutions-IAM5[Action::s3:GetObject*]',
      'AwsSolutions-IAM5[Resource::*]',
      expect.stringMatching(/^AwsSolutions-IAM5\[Resource::arn:<AWS::Partition>:s3:::my-models\/llama\/\*\]$/),
    ]));
  });

  test('a wildcard the user grants the same role stays reported', () => {
    const { app, role: modelRole } = sharedGpuOn((stack) => new iam.Role(stack, 'Team', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') }));
    modelRole.addToPrincipalPolicy(new iam.PolicyStatement({ actions: ['s3:GetObject*'], resources: ['arn:aws:s3:::other-bucket/*'] }));
    expect(() => synthWithNag(app)).toThrow(/AwsSolutions-IAM5\[Resource::arn:aws:s3:::other-bucket\/\*\]/);
  });
});

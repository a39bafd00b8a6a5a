import { App, CfnParameter, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import { InstanceType } from '../../src/core/instance-type';
import { ModelFamily } from '../../src/core/model-family.generated';
import { JumpStartModel, JumpStartModelOptions, JumpStartPrecision } from '../../src/jumpstart';
import { renderModel } from '../../src/private/model';
import { expectValidTemplate } from '../support/template-checks';

const LLAMA3_8B = 'meta-textgeneration-llama-3-8b-instruct';

function stackIn(region = 'us-east-1') {
  const app = new App();
  const stack = new Stack(app, 'Stack', { env: { account: '123456789012', region } });
  const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
  return { stack, role };
}

/** Binds the model and renders the AWS::SageMaker::Model the endpoint constructs would create. */
function synthModel(modelId: string, options: JumpStartModelOptions, instanceType?: string, region?: string) {
  const { stack, role } = stackIn(region);
  const source = JumpStartModel.of(modelId, options);
  const config = source.bind(stack, { role, instanceType: instanceType ? InstanceType.of(instanceType) : undefined });
  renderModel(stack, 'Model', config, role);
  return { stack, template: Template.fromStack(stack), config, source };
}

function modelProps(template: Template): any {
  const models = template.findResources('AWS::SageMaker::Model');
  expect(Object.keys(models)).toHaveLength(1);
  return Object.values(models)[0].Properties;
}

describe('JumpStartModel resolution', () => {
  test('gated uncompressed model: S3Prefix ModelDataSource with ModelAccessConfig, image for the instance family', () => {
    // GIVEN a gated Llama 3 version pinned, EULA accepted
    // WHEN it is bound on a supported instance type in us-east-1
    const { stack, template } = synthModel(LLAMA3_8B, { version: '2.2.0', acceptEula: true }, 'ml.g5.12xlarge');

    // THEN the model reads the prefix from the gated bucket, with the DJL LMI image and prepacked environment
    const props = modelProps(template);
    expect(props.PrimaryContainer.Image).toBe('763104351884.dkr.ecr.us-east-1.amazonaws.com/djl-inference:0.28.0-lmi10.0.0-cu124');
    expect(props.PrimaryContainer.ModelDataSource).toEqual({
      S3DataSource: {
        S3Uri: 's3://jumpstart-private-cache-prod-us-east-1/meta-textgeneration/meta-textgeneration-llama-3-8b-instruct/artifacts/inference-prepack/v1.1.0/',
        S3DataType: 'S3Prefix',
        CompressionType: 'None',
        ModelAccessConfig: { AcceptEula: true },
      },
    });
    expect(props.PrimaryContainer.ModelDataUrl).toBeUndefined();
    expect(props.PrimaryContainer.Environment).toMatchObject({ HF_MODEL_ID: '/opt/ml/model', SAGEMAKER_PROGRAM: 'inference.py', ENDPOINT_SERVER_TIMEOUT: '3600' });
    // prepacked: the script directory is inside the artifact, so the catalog drops it
    expect(props.PrimaryContainer.Environment.SAGEMAKER_SUBMIT_DIRECTORY).toBeUndefined();
    expectValidTemplate(stack);
  });

  test('instance-type environment applies over the defaults, and user environment over both', () => {
    // GIVEN the version's variant environment for ml.p4d.24xlarge (OPTION_TENSOR_PARALLEL_DEGREE=1)
    const { config } = synthModel(LLAMA3_8B, { version: '2.2.0', acceptEula: true, environment: { SAGEMAKER_MODEL_SERVER_WORKERS: '2' } }, 'ml.p4d.24xlarge');
    // THEN both layers are present, the user's value last
    expect(config.environment).toMatchObject({ OPTION_TENSOR_PARALLEL_DEGREE: '1', SAGEMAKER_MODEL_SERVER_WORKERS: '2' });
    const { config: onG5 } = synthModel(LLAMA3_8B, { version: '2.2.0', acceptEula: true }, 'ml.g5.12xlarge');
    expect(onG5.environment!.OPTION_TENSOR_PARALLEL_DEGREE).toBeUndefined();
  });

  test('ungated compressed model: ModelDataUrl from the public bucket, no ModelAccessConfig', () => {
    // GIVEN an ungated, non-EULA model whose artifact is a .tar.gz
    const id = 'model-imagegeneration-stabilityai-stable-diffusion-v2-1';
    const { template, source } = synthModel(id, { version: '1.0.14' });
    const props = modelProps(template);
    // THEN the artifact is ModelDataUrl in jumpstart-cache-prod-us-east-1
    expect(source.requiresEula).toBe(false);
    expect(props.PrimaryContainer.ModelDataUrl).toMatch(/^s3:\/\/jumpstart-cache-prod-us-east-1\/.+\.tar\.gz$/);
    expect(props.PrimaryContainer.ModelDataSource).toBeUndefined();
    expect(props.PrimaryContainer.Image).toBe('763104351884.dkr.ecr.us-east-1.amazonaws.com/stabilityai-pytorch-inference:2.0.1-sgm0.1.0-gpu-py310-cu118-ubuntu20.04-sagemaker');
  });

  test('ungated uncompressed model: S3Prefix without ModelAccessConfig', () => {
    const { template } = synthModel('huggingface-llm-mistral-7b-instruct', { version: '3.5.0' }, 'ml.g5.2xlarge');
    const source = modelProps(template).PrimaryContainer.ModelDataSource.S3DataSource;
    expect(source.S3Uri).toMatch(/^s3:\/\/jumpstart-cache-prod-us-east-1\/.+\/$/);
    expect(source.ModelAccessConfig).toBeUndefined();
  });

  test('the image URI is derived per region: account and domain from the catalog (China: amazonaws.com.cn)', () => {
    const falcon = 'huggingface-llm-falcon-7b-instruct-bf16';
    const { config: zurich } = synthModel(falcon, { version: '4.6.16' }, 'ml.g5.2xlarge', 'eu-central-2');
    expect(zurich.imageUri).toBe('380420809688.dkr.ecr.eu-central-2.amazonaws.com/huggingface-pytorch-tgi-inference:2.4.0-tgi2.4.0-gpu-py311-cu124-ubuntu22.04');
    expect(zurich.modelData!.s3Uri).toMatch(/^s3:\/\/jumpstart-cache-prod-eu-central-2\//);
    const { config: beijing } = synthModel(falcon, { version: '4.6.16' }, 'ml.g5.2xlarge', 'cn-north-1');
    expect(beijing.imageUri).toMatch(/^727897471807\.dkr\.ecr\.cn-north-1\.amazonaws\.com\.cn\//);
  });

  test('without an instance type defaultInstanceType is used (for Llama 3 8B at fp16, JumpStart\'s default too)', () => {
    const { config, source } = synthModel(LLAMA3_8B, { version: '2.2.0', acceptEula: true });
    expect(source.defaultInstanceType.name).toBe('ml.g5.12xlarge');
    expect(config.imageUri).toContain('djl-inference');
  });

  test('a token instance type works when every family shares one image, and fails when images differ', () => {
    const { stack, role } = stackIn();
    const token = InstanceType.of(new CfnParameter(stack, 'InstanceType').valueAsString);
    const config = JumpStartModel.of(LLAMA3_8B, { version: '2.2.0', acceptEula: true }).bind(stack, { role, instanceType: token });
    expect(config.imageUri).toBe('763104351884.dkr.ecr.us-east-1.amazonaws.com/djl-inference:0.28.0-lmi10.0.0-cu124');
    expect(() => JumpStartModel.of('huggingface-spc-bert-base-cased').bind(stack, { role, instanceType: token })).toThrow(
      /instanceType: got an unresolved token, expected a concrete instance type: .* uses a different image per instance family/);
  });

  test('no version resolves to the newest deployable version and warns to pin it', () => {
    // GIVEN no version (the snapshot's newest 2.2.1..2.25.0 have no image data)
    const { stack, source } = synthModel(LLAMA3_8B, { acceptEula: true });
    // THEN the newest deployable version, and a warning naming it
    expect(source.version).toBe(JumpStartModel.deployableVersions(LLAMA3_8B)[0]);
    expect(source.version).toBe('2.2.0');
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp("resolved to 2\\.2\\.0.*pin it \\(version: '2\\.2\\.0'\\)"));
  });

  test("'*' and a major wildcard resolve too; a pinned version does not warn", () => {
    expect(JumpStartModel.of(LLAMA3_8B, { version: '*' }).version).toBe('2.2.0');
    expect(JumpStartModel.of(LLAMA3_8B, { version: '2.1.*' }).version).toMatch(/^2\.1\.\d+$/);
    const { stack } = synthModel(LLAMA3_8B, { version: '2.2.0', acceptEula: true });
    Annotations.fromStack(stack).hasNoWarning('*', Match.anyValue());
  });

  test('exposes family, default and supported instance types and resource requirements', () => {
    const model = JumpStartModel.of(LLAMA3_8B, { version: '2.2.0' });
    expect(model.modelFamily).toBe(ModelFamily.LLAMA3);
    expect(model.modelKind).toBe('llama3');
    expect(model.supportedInstanceTypes).toContain('ml.g5.2xlarge');
    expect(model.resourceRequirements).toMatchObject({ precision: JumpStartPrecision.FP16, parameterBillions: 8 });
    expect(model.resourceRequirements.minAcceleratorMemoryGiB).toBeGreaterThan(24);
    expect(model.acceleratorsRequired(InstanceType.of('ml.g5.12xlarge'))).toBe(2);
    expect(model.minimumInstanceType()).toBe('ml.g5.12xlarge');
    expect(model.eulaUrl('us-east-1')).toBe('https://jumpstart-cache-prod-us-east-1.s3.us-east-1.amazonaws.com/fmhMetadata/eula/llama3Eula.txt');
    expect(JumpStartModel.of('huggingface-llm-mistral-7b-instruct').modelFamily).toBe(ModelFamily.MISTRAL);
    expect(JumpStartModel.of('huggingface-llm-falcon-40b-bf16').modelFamily).toBe(ModelFamily.FALCON);
    expect(JumpStartModel.of('huggingface-llm-gemma-7b-instruct').modelFamily).toBe(ModelFamily.TGI);
    // Kinds the invoke tool builds no body for have no family; modelKind keeps the hint.
    const sd = JumpStartModel.of('model-txt2img-stabilityai-stable-diffusion-v2-1-base');
    expect([sd.modelFamily, sd.modelKind]).toEqual([undefined, 'stable-diffusion']);
    const qwen = JumpStartModel.of('huggingface-llm-qwen2-7b-instruct');
    expect([qwen.modelFamily, qwen.modelKind]).toEqual([undefined, 'lmi']);
  });

  test('INT4 on a TGI container sets HF_MODEL_QUANTIZE; on another container it warns', () => {
    const { config } = synthModel('huggingface-llm-falcon-7b-instruct-bf16', { version: '4.6.16', precision: JumpStartPrecision.INT4 }, 'ml.g5.2xlarge');
    expect(config.environment!.HF_MODEL_QUANTIZE).toBe('bitsandbytes-nf4');
    const { stack } = synthModel(LLAMA3_8B, { version: '2.2.0', acceptEula: true, precision: JumpStartPrecision.INT4 }, 'ml.g5.2xlarge');
    Annotations.fromStack(stack).hasWarning('*', Match.stringLikeRegexp('precision INT4.*djl-inference container is not told to quantize'));
  });
});

describe('instance sizing (the smallest instance type the model fits on)', () => {
  test.each([
    [LLAMA3_8B, JumpStartPrecision.INT4, 'ml.g5.2xlarge'],
    [LLAMA3_8B, JumpStartPrecision.FP16, 'ml.g5.12xlarge'],
    ['meta-textgeneration-llama-3-70b-instruct', JumpStartPrecision.INT4, 'ml.g5.48xlarge'],
    ['huggingface-llm-mistral-7b-instruct', JumpStartPrecision.FP16, 'ml.g5.2xlarge'],
    ['huggingface-llm-falcon-40b-bf16', JumpStartPrecision.FP16, 'ml.g5.12xlarge'],
  ])('%s at %s needs %s', (id, precision, minimum) => {
    expect(JumpStartModel.of(id, { precision }).minimumInstanceType()).toBe(minimum);
  });

  test('Stable Diffusion 2.1 fits JumpStart\'s 16 GiB default (ml.p3.2xlarge) and ml.g5.2xlarge', () => {
    const sd = JumpStartModel.of('model-txt2img-stabilityai-stable-diffusion-v2-1-base');
    expect(sd.fitsInstanceType(InstanceType.of('ml.g5.2xlarge'))).toBe(true);
    expect(sd.fitsInstanceType(sd.defaultInstanceType)).toBe(true);
  });

  test('JumpStart\'s default instance bounds the estimate (Llama 3.1 8B at fp16 on its 24 GiB default)', () => {
    const model = JumpStartModel.of('meta-textgeneration-llama-3-1-8b-instruct');
    expect(model.defaultInstanceType.name).toBe('ml.g5.4xlarge');
    expect(model.fitsInstanceType(model.defaultInstanceType)).toBe(true);
  });
});

describe('validation', () => {
  test('fails if a gated model\'s EULA is not accepted, naming the EULA URL', () => {
    expect(() => synthModel(LLAMA3_8B, { version: '2.2.0' })).toThrow(
      /acceptEula: got nothing, expected true: .*https:\/\/jumpstart-cache-prod-us-east-1\.s3\.us-east-1\.amazonaws\.com\/fmhMetadata\/eula\/llama3Eula\.txt/);
  });

  test('fails if the pinned version has no image data, listing the versions that deploy', () => {
    expect(() => JumpStartModel.of(LLAMA3_8B, { version: '2.25.0' })).toThrow(
      /version: got '2\.25\.0', expected a deployable version: .*has no container image data.*versions that deploy: 2\.2\.0, /);
  });

  test('fails if the pinned version is a Marketplace model package', () => {
    expect(() => JumpStartModel.of('meta-textgeneration-llama-2-13b', { version: '2.1.8' })).toThrow(/2\.1\.8 is a Marketplace model package/);
  });

  test('fails if the version does not exist', () => {
    expect(() => JumpStartModel.of(LLAMA3_8B, { version: '9.9.9' })).toThrow(/version: got '9\.9\.9', expected a published version of .*versions that deploy: 2\.2\.0/);
  });

  test('fails if the model id is unknown, suggesting close ids', () => {
    expect(() => JumpStartModel.of('meta-textgeneration-llama-3-8b-instrct')).toThrow(
      /modelId: got 'meta-textgeneration-llama-3-8b-instrct', expected a JumpStart model id in the catalog; did you mean 'meta-textgeneration-llama-3-8b-instruct'/);
    expect(() => JumpStartModel.of('llama-3-70b')).toThrow(/did you mean .*'meta-textgeneration-llama-3-70b'/);
  });

  test('fails if the region is a token, saying how to set one', () => {
    const app = new App();
    const stack = new Stack(app, 'Agnostic');
    const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    expect(() => JumpStartModel.of(LLAMA3_8B, { version: '2.2.0', acceptEula: true }).bind(stack, { role })).toThrow(
      /region: got an unresolved token .*env: \{ region: 'us-east-1' \}/);
  });

  test('fails if the image is not published in the stack\'s region, listing where it is', () => {
    expect(() => synthModel('huggingface-llm-mistral-7b-instruct', { version: '3.5.0' }, 'ml.g5.2xlarge', 'eu-central-2')).toThrow(
      /region: got 'eu-central-2', expected a region where the image of huggingface-llm-mistral-7b-instruct@3\.5\.0 for 'ml\.g5\.2xlarge' is published: .*eu-central-1/);
  });

  test('fails if the instance type is not supported by the model', () => {
    expect(() => synthModel(LLAMA3_8B, { version: '2.2.0', acceptEula: true }, 'ml.m5.xlarge')).toThrow(
      /instanceType: got 'ml\.m5\.xlarge', expected one of the instance types .*2\.2\.0 supports: ml\.g5\.12xlarge/);
  });

  test('fails if the instance type is too small, naming the smallest that fits', () => {
    expect(() => synthModel(LLAMA3_8B, { version: '2.2.0', acceptEula: true }, 'ml.g5.2xlarge')).toThrow(
      /instanceType: got 'ml\.g5\.2xlarge' \(1 x A10G 24 GiB = 24 GiB\), expected at least 24\.6 GiB for 8B parameters at fp16.*smallest supported instance type that fits is ml\.g5\.12xlarge.*InternalFailure/);
    expect(() => synthModel('meta-textgeneration-llama-3-70b-instruct', { version: '2.2.0', acceptEula: true, precision: JumpStartPrecision.INT4 }, 'ml.g5.24xlarge')).toThrow(/ml\.g5\.24xlarge/);
  });

  test('reports every problem at once', () => {
    expect(() => synthModel(LLAMA3_8B, { version: '2.2.0' }, 'ml.m5.xlarge')).toThrow(/2 problems:[\s\S]*instanceType[\s\S]*acceptEula/);
  });
});

describe('grants', () => {
  test('S3 read scoped to the artifact prefix, ListBucket on the prefix, ECR pull on the image repository', () => {
    const { template } = synthModel(LLAMA3_8B, { version: '2.2.0', acceptEula: true }, 'ml.g5.12xlarge');
    const prefix = 'meta-textgeneration/meta-textgeneration-llama-3-8b-instruct/artifacts/inference-prepack/v1.1.0/';
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: 's3:GetObject', Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::jumpstart-private-cache-prod-us-east-1/${prefix}*`]] } }),
          Match.objectLike({
            Action: 's3:ListBucket',
            Condition: { StringLike: { 's3:prefix': [`${prefix}*`] } },
            Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::jumpstart-private-cache-prod-us-east-1']] },
          }),
          Match.objectLike({
            Action: ['ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer'],
            Resource: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ecr:us-east-1:763104351884:repository/djl-inference']] },
          }),
          Match.objectLike({ Action: 'ecr:GetAuthorizationToken', Resource: '*' }),
        ]),
      },
    });
  });

  test('a compressed artifact grants GetObject on exactly the object and no ListBucket', () => {
    const { template, config } = synthModel('model-imagegeneration-stabilityai-stable-diffusion-v2-1', { version: '1.0.14' });
    const key = config.modelData!.s3Uri.replace('s3://jumpstart-cache-prod-us-east-1/', '');
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .flatMap((p: any) => p.Properties.PolicyDocument.Statement);
    const s3 = statements.filter((s: any) => String(s.Action).startsWith('s3:'));
    expect(s3).toHaveLength(1);
    expect(JSON.stringify(s3[0].Resource)).toContain(`jumpstart-cache-prod-us-east-1/${key}"`);
  });
});

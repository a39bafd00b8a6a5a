import { App, Stack, Validations } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { SageMakerMcpChecks } from '../../src/checks';
import { InstanceType } from '../../src/core/instance-type';
import { ModelData } from '../../src/core/model-data';
import { ModelFamily } from '../../src/core/model-family.generated';
import { HuggingFaceHubModel, HuggingFaceHubModelOptions, TextGenerationServer } from '../../src/huggingface';
import { JumpStartPrecision } from '../../src/jumpstart';
import { renderModel } from '../../src/private/model';
import { RealtimeEndpoint } from '../../src/realtime';
import { expectNagClean, nagReport } from '../support/nag-checks';
import { expectValidTemplate } from '../support/template-checks';

function synth(modelId: string, options: HuggingFaceHubModelOptions, instanceType?: string, region = 'us-east-1') {
  const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
  const stack = new Stack(app, 'Stack', { env: { account: '123456789012', region } });
  const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
  const source = HuggingFaceHubModel.of(modelId, { ...options, hubToken: options.hubToken && secretsmanager.Secret.fromSecretNameV2(stack, 'Token', 'hf-token') });
  const config = source.bind(stack, { role, instanceType: instanceType ? InstanceType.of(instanceType) : undefined });
  renderModel(stack, 'Model', config, role);
  const props = Object.values(Template.fromStack(stack).findResources('AWS::SageMaker::Model'))[0].Properties;
  return { app, stack, source, config, props };
}
const aSecret = {} as secretsmanager.ISecret;

describe('HuggingFaceHubModel', () => {
  test('text generation runs on TGI with HF_MODEL_ID, SM_NUM_GPUS from the instance and the token limits', () => {
    const { props, source, stack } = synth('mistralai/Mistral-7B-Instruct-v0.3',
      { task: 'text-generation', containerVersion: '3.3', maxInputTokens: 4096, maxTotalTokens: 8192 }, 'ml.g5.12xlarge');
    expect(props.PrimaryContainer.Image).toBe('763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-tgi-inference:2.7.0-tgi3.3.6-gpu-py311-cu124-ubuntu22.04');
    expect(props.PrimaryContainer.Environment).toEqual({
      HF_MODEL_ID: 'mistralai/Mistral-7B-Instruct-v0.3', SM_NUM_GPUS: '4', MAX_INPUT_TOKENS: '4096', MAX_TOTAL_TOKENS: '8192',
    });
    expect(source.modelFamily).toBe(ModelFamily.TGI);
    expect(source.container).toBe('tgi');
    expectValidTemplate(stack);
  });

  test('vLLM on request: SM_VLLM_* and the openai payload family (OpenAI completion bodies)', () => {
    const { props, source } = synth('Qwen/Qwen2.5-7B-Instruct',
      { task: 'text-generation', textGenerationServer: TextGenerationServer.VLLM, containerVersion: '0.21', maxTotalTokens: 8192 }, 'ml.g5.2xlarge');
    expect(props.PrimaryContainer.Image).toMatch(/\/huggingface-vllm:0\.21\.0-transformers5\.8\.1-gpu-py312-cu130-ubuntu22\.04$/);
    expect(props.PrimaryContainer.Environment).toEqual({
      HF_MODEL_ID: 'Qwen/Qwen2.5-7B-Instruct', SM_VLLM_MODEL: 'Qwen/Qwen2.5-7B-Instruct', SM_VLLM_TENSOR_PARALLEL_SIZE: '1', SM_VLLM_MAX_MODEL_LEN: '8192',
    });
    expect(source.modelFamily).toBe(ModelFamily.OPENAI);
  });

  test('a revision pin goes to each container\'s documented variable: HF_MODEL_REVISION, or SM_VLLM_REVISION for vLLM', () => {
    const sha = '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567';
    const env = (options: HuggingFaceHubModelOptions, instanceType: string) => synth('org/model', { revision: sha, ...options }, instanceType).props.PrimaryContainer.Environment;
    expect(env({ task: 'text-generation', containerVersion: '3.3' }, 'ml.g5.2xlarge')).toMatchObject({ HF_MODEL_ID: 'org/model', HF_MODEL_REVISION: sha });
    expect(env({ task: 'feature-extraction', containerVersion: '1.8' }, 'ml.g5.xlarge')).toEqual({ HF_MODEL_ID: 'org/model', HF_MODEL_REVISION: sha });
    expect(env({ task: 'text-classification', containerVersion: '4.51' }, 'ml.m5.xlarge')).toMatchObject({ HF_MODEL_REVISION: sha, HF_TASK: 'text-classification' });
    const vllm = env({ task: 'text-generation', textGenerationServer: TextGenerationServer.VLLM, containerVersion: '0.21' }, 'ml.g5.2xlarge');
    expect(vllm).toMatchObject({ SM_VLLM_MODEL: 'org/model', SM_VLLM_REVISION: sha });
    expect(vllm.HF_MODEL_REVISION).toBeUndefined();
    // Without a pin, no revision variable: the container loads the default branch.
    expect(Object.keys(synth('org/model', { task: 'text-generation', containerVersion: '3.3' }, 'ml.g5.2xlarge').props.PrimaryContainer.Environment))
      .not.toContain('HF_MODEL_REVISION');
  });

  test('embeddings run on TEI: the GPU image on a GPU instance, the CPU image on a CPU instance', () => {
    const gpu = synth('BAAI/bge-base-en-v1.5', { task: 'feature-extraction', containerVersion: '1.8' }, 'ml.g5.xlarge');
    expect(gpu.props.PrimaryContainer.Image).toMatch(/\/tei:2\.0\.1-tei1\.8\.2-gpu-py310-cu122-ubuntu22\.04$/);
    const cpu = synth('BAAI/bge-base-en-v1.5', { task: 'sentence-similarity', containerVersion: '1.8' }, 'ml.c5.2xlarge');
    expect(cpu.props.PrimaryContainer.Image).toMatch(/\/tei-cpu:2\.0\.1-tei1\.8\.2-cpu-py310-ubuntu22\.04$/);
    expect(cpu.props.PrimaryContainer.Environment).toEqual({ HF_MODEL_ID: 'BAAI/bge-base-en-v1.5' });
    // TEI embeddings: no payload family the invoke tool builds; `container` says TEI.
    expect([cpu.source.modelFamily, cpu.source.container]).toEqual([undefined, 'tei']);
  });

  test('other tasks run on the transformers container with HF_TASK', () => {
    const { props, source } = synth('distilbert/distilbert-base-uncased-finetuned-sst-2-english',
      { task: 'text-classification', containerVersion: '4.51' }, 'ml.m5.xlarge');
    expect(props.PrimaryContainer.Image).toMatch(/\/huggingface-pytorch-inference:2\.6\.0-transformers4\.51-cpu-py312-ubuntu22\.04$/);
    expect(props.PrimaryContainer.Environment).toEqual({ HF_MODEL_ID: 'distilbert/distilbert-base-uncased-finetuned-sst-2-english', HF_TASK: 'text-classification' });
    expect([source.modelFamily, source.container]).toEqual([undefined, 'transformers']);
  });

  test('parameter count sizes the default instance and rejects an undersized one', () => {
    const { source, props } = synth('meta-llama/Llama-3.1-70B-Instruct',
      { task: 'text-generation', containerVersion: '3.3', parameterBillions: 70, precision: JumpStartPrecision.INT4, hubToken: aSecret });
    // 70 x 1.3 + 7 = 98 GiB: the sizing rules' smallest NVIDIA instance with that much GPU memory (8 x V100 32 GiB)
    expect(source.defaultInstanceType.name).toBe('ml.p3.16xlarge');
    expect(props.PrimaryContainer.Environment.SM_NUM_GPUS).toBe('8');
    expect(() => synth('meta-llama/Llama-3.1-8B-Instruct', { task: 'text-generation', containerVersion: '3.3', parameterBillions: 8 }, 'ml.g5.2xlarge'))
      .toThrow(/instanceType: got 'ml\.g5\.2xlarge' \(24 GiB\), expected at least 24\.6 GiB for 8B parameters at fp16 .*: the smallest that fits is ml\.g\w+\.\w+/);
  });

  test('a gated model\'s token is a Secrets Manager dynamic reference in every token variable, never the value', () => {
    const { props, stack } = synth('meta-llama/Llama-3.1-8B-Instruct', { task: 'text-generation', containerVersion: '3.3', hubToken: aSecret }, 'ml.g5.12xlarge');
    const env = stack.resolve(props.PrimaryContainer.Environment);
    for (const name of ['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN']) {
      expect(JSON.stringify(env[name])).toMatch(/\{\{resolve:secretsmanager:.*hf-token.*:SecretString:::\}\}/);
    }
    const transformers = synth('org/private-classifier', { task: 'text-classification', containerVersion: '4.51', hubToken: aSecret, hubTokenJsonField: 'token' }, 'ml.m5.xlarge');
    expect(JSON.stringify(transformers.stack.resolve(transformers.props.PrimaryContainer.Environment.HF_API_TOKEN))).toMatch(/:SecretString:token::\}\}/);
    expect(transformers.source.tokenEnvironmentVariables).toEqual(['HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN', 'HF_API_TOKEN']);
  });

  test('a token in the model environment warns at synth who can read it; the S3 copy does not', () => {
    // GIVEN / WHEN
    const gated = synth('meta-llama/Llama-3.1-8B-Instruct', { task: 'text-generation', containerVersion: '3.3', hubToken: aSecret }, 'ml.g5.12xlarge');
    const copied = synth('meta-llama/Llama-3.1-8B-Instruct', {
      task: 'text-generation', containerVersion: '3.3', modelData: ModelData.fromBucket(s3.Bucket.fromBucketName(new Stack(), 'B', 'my-models'), 'llama/'),
    }, 'ml.g5.12xlarge');
    // THEN
    const warnings = (stack: Stack) => Annotations.fromStack(stack).findWarning('*', Match.stringLikeRegexp('hubTokenInModelEnvironment'));
    expect(warnings(gated.stack).map((w) => w.entry.data)).toEqual([expect.stringMatching(
      /hubToken is resolved by CloudFormation into the model's environment \(HF_TOKEN, HUGGING_FACE_HUB_TOKEN\), where anyone allowed sagemaker:DescribeModel on the model can read the token.*modelData/)]);
    expect(warnings(copied.stack)).toEqual([]);
  });

  test('weights copied to S3: HF_MODEL_ID=/opt/ml/model, S3 read granted, network isolation allowed', () => {
    const app = new App();
    const stack = new Stack(app, 'S', { env: { account: '123456789012', region: 'eu-west-1' } });
    const role = new iam.Role(stack, 'Role', { assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com') });
    const bucket = s3.Bucket.fromBucketName(stack, 'B', 'my-models');
    const config = HuggingFaceHubModel.of('meta-llama/Llama-3.1-8B-Instruct', {
      task: 'text-generation', containerVersion: '3.3', modelData: ModelData.fromBucket(bucket, 'llama-3.1-8b/'), enableNetworkIsolation: true,
    }).bind(stack, { role, instanceType: InstanceType.ML_G5_12XLARGE });
    expect(config.environment).toMatchObject({ HF_MODEL_ID: '/opt/ml/model', SM_NUM_GPUS: '4' });
    expect(config.modelData).toMatchObject({ compressed: false });
    expect(config.enableNetworkIsolation).toBe(true);
  });

  test('validation errors name the prop, the value and what is expected', () => {
    const of = (o: Partial<HuggingFaceHubModelOptions>, id = 'org/model') => () => HuggingFaceHubModel.of(id, { task: 'text-generation', ...o });
    expect(of({ containerVersion: '9.9' })).toThrow(/version: got '9\.9', expected one of .*3\.3\.6/);
    expect(of({}, 'not a model id')).toThrow(/modelId: got 'not a model id', expected a Hub model id/);
    expect(of({ maxInputTokens: 8192, maxTotalTokens: 4096 })).toThrow(/maxInputTokens: got 8192, expected less than maxTotalTokens \(4096\)/);
    expect(of({ enableNetworkIsolation: true })).toThrow(/enableNetworkIsolation: got true, expected modelData set/);
    expect(of({ task: 'feature-extraction', maxTotalTokens: 512 })).toThrow(/maxTotalTokens: got 512, expected nothing for the tei container/);
    expect(of({ task: 'fill-mask', textGenerationServer: TextGenerationServer.VLLM })).toThrow(/textGenerationServer: got 'vllm', expected nothing for task 'fill-mask'/);
    expect(of({ revision: 'main branch' })).toThrow(/revision: got 'main branch', expected a commit hash, branch or tag/);
    expect(of({ revision: 'abc', modelData: {} as ModelData })).toThrow(/revision: got 'abc', expected nothing when modelData is set/);
    expect(() => synth('org/model', { task: 'text-generation', containerVersion: '3.3' }, 'ml.m5.xlarge'))
      .toThrow(/instanceType: got 'ml\.m5\.xlarge', expected an NVIDIA GPU instance \(ml\.g\*, ml\.p\*\) for the tgi container/);
    expect(() => synth('org/model', { task: 'feature-extraction', containerVersion: '1.8' }, 'ml.inf2.xlarge'))
      .toThrow(/instanceType: got 'ml\.inf2\.xlarge', expected a GPU or CPU instance/);
  });

  test('on a RealtimeEndpoint: valid template, cdk-nag clean, and SageMakerMcpChecks flags the token in the model (SMCP-SEC1) only', () => {
    const app = new App({ context: { 'aws:cdk:disable-creation-stack-traces': true } });
    Validations.of(app).addPlugins(new SageMakerMcpChecks());
    const stack = new Stack(app, 'Hub', { env: { account: '123456789012', region: 'us-west-2' } });
    const token = secretsmanager.Secret.fromSecretNameV2(stack, 'Token', 'hf-token');
    const endpoint = new RealtimeEndpoint(stack, 'Chat', {
      model: HuggingFaceHubModel.of('meta-llama/Llama-3.1-8B-Instruct', { task: 'text-generation', containerVersion: '3.3', hubToken: token }),
      instanceType: InstanceType.ML_G5_12XLARGE,
    });
    expectValidTemplate(stack);
    expect(nagReport(app).findings.map((f) => `${f.ruleId} ${f.constructPath}`)).toEqual(['SMCP-SEC1 Hub/Chat/Model']);
    SageMakerMcpChecks.acknowledge(endpoint, 'SMCP-SEC1', 'Test of the token path: the check is expected to fire here.');
    expectNagClean(app);
    const text = JSON.stringify(Template.fromStack(stack).toJSON());
    expect(text).toContain('{{resolve:secretsmanager:');
  });
});

import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Stack, Token } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3assets from 'aws-cdk-lib/aws-s3-assets';
import { Construct } from 'constructs';
import { JsonGetScan, scanJsonGets } from './private/json-gets';
import { PropValidator } from '../private/validation';

/** Type of a pipeline parameter, as the definition's `Parameters[].Type` spells it. */
export enum PipelineParameterType {
  STRING = 'String',
  INTEGER = 'Integer',
  FLOAT = 'Float',
  BOOLEAN = 'Boolean',
}

/** A pipeline parameter that callers may set per execution. */
export interface PipelineParameter {
  /** Parameter name, as in the definition (`^[A-Za-z0-9\-_]*$`, 1-256 characters). */
  readonly name: string;
  /** Parameter type, as in the definition. */
  readonly type: PipelineParameterType;
  /**
   * The definition's default value, rendered as a string.
   * @default - no default: the parameter must be given on every execution
   */
  readonly defaultValue?: string;
}

const INLINE_DEFINITION_MAX_BYTES = 100 * 1024;

const PARAMETER_NAME = /^[A-Za-z0-9\-_]{1,256}$/;
const PARAMETER_TYPES = Object.values(PipelineParameterType) as string[];

/**
 * How a definition was rendered for one pipeline.
 * @internal
 */
export interface _BoundPipelineDefinition {
  /** The CloudFormation `PipelineDefinition` value. */
  readonly pipelineDefinition: { [key: string]: unknown };
  /** First 16 hex characters of the SHA-256 of the canonical (key-sorted) resolved definition. */
  readonly version: string;
}

/**
 * A SageMaker pipeline definition, as the SageMaker Python SDK's `pipeline.definition()` writes it
 * (`{"Version": "2020-12-01", "Parameters": [...], "Steps": [...]}`). Checked when created: JSON, a `Version`, a
 * non-empty `Steps` list of uniquely named steps, and well-formed `Parameters`.
 */
export class PipelineDefinition {
  /**
   * Above this many UTF-8 bytes the definition is uploaded as an S3 asset and referenced by
   * `PipelineDefinitionS3Location`, as the SageMaker Python SDK does (`Pipeline._create_args`: 100 KiB). Inline bodies
   * share CloudFormation's 1 MB template limit; the API caps an inline `PipelineDefinition` at 1,048,576 characters.
   */
  public static readonly INLINE_MAX_BYTES = INLINE_DEFINITION_MAX_BYTES;

  /** Reads a definition JSON file (e.g. the output of `pipeline.definition()`) at synth time. */
  public static fromFile(file: string): PipelineDefinition {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new Error(`PipelineDefinition.fromFile: cannot read '${file}': ${(err as Error).message}`);
    }
    return PipelineDefinition.parse(text, `file '${file}'`);
  }

  /** Parses a definition from a JSON string. */
  public static fromJsonString(json: string): PipelineDefinition {
    return PipelineDefinition.parse(json, 'JSON string');
  }

  /**
   * Uses a definition object. It may contain CDK tokens (e.g. a role ARN); such a definition must fit inline.
   */
  public static fromObject(definition: { [key: string]: any }): PipelineDefinition {
    return new PipelineDefinition(definition, 'object');
  }

  private static parse(text: string, source: string): PipelineDefinition {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new Error(`Invalid PipelineDefinition (${source}): definition: got text that is not JSON, ${quote(text)} (${(err as Error).message}), expected a JSON pipeline definition`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error(`Invalid PipelineDefinition (${source}): definition: got ${Array.isArray(parsed) ? 'an array' : typeof parsed}, expected a JSON object`);
    }
    return new PipelineDefinition(parsed as Record<string, unknown>, source);
  }

  /** The parameters the definition declares (`Parameters`), in order. */
  public readonly parameters: PipelineParameter[];

  private readonly definition: Record<string, unknown>;
  private readonly hasTokens: boolean;
  private jsonGetScan?: JsonGetScan;

  private constructor(definition: Record<string, unknown>, private readonly source: string) {
    this.definition = definition;
    this.hasTokens = containsTokens(definition);
    const v = new PropValidator(`PipelineDefinition (${source})`);
    const version = definition.Version;
    v.check(typeof version === 'string' && version.length > 0, 'definition.Version', version, 'a version string such as "2020-12-01"');

    const steps = definition.Steps;
    if (!Token.isUnresolved(steps)) {
      v.check(Array.isArray(steps) && steps.length > 0, 'definition.Steps', Array.isArray(steps) ? `${steps.length} steps` : steps, 'a non-empty list of steps');
      const seen = new Set<string>();
      (Array.isArray(steps) ? steps : []).forEach((step: any, i: number) => {
        const name = step?.Name;
        if (Token.isUnresolved(name)) return;
        v.check(typeof name === 'string' && name.length > 0, `definition.Steps[${i}].Name`, name, 'a step name');
        v.check(typeof step?.Type === 'string' || Token.isUnresolved(step?.Type), `definition.Steps[${i}].Type`, step?.Type, 'a step type such as "Training"');
        if (typeof name === 'string') {
          v.check(!seen.has(name), `definition.Steps[${i}].Name`, name, 'a name no other step uses');
          seen.add(name);
        }
      });
    }

    const rawParameters = definition.Parameters ?? [];
    this.parameters = [];
    if (!Array.isArray(rawParameters)) {
      v.check(false, 'definition.Parameters', rawParameters, 'a list of {Name, Type, DefaultValue?}');
    } else {
      rawParameters.forEach((p: any, i: number) => {
        const okName = typeof p?.Name === 'string' && PARAMETER_NAME.test(p.Name);
        const okType = PARAMETER_TYPES.includes(p?.Type);
        v.check(okName, `definition.Parameters[${i}].Name`, p?.Name, '1-256 letters, digits, "-" or "_"');
        v.check(okType, `definition.Parameters[${i}].Type`, p?.Type, `one of ${PARAMETER_TYPES.join(', ')}`);
        if (okName && okType) {
          this.parameters.push({
            name: p.Name,
            type: p.Type as PipelineParameterType,
            ...(p.DefaultValue !== undefined && p.DefaultValue !== null ? { defaultValue: String(p.DefaultValue) } : {}),
          });
        }
      });
    }
    v.throwIfInvalid();
  }

  /**
   * Whether some string value of the definition is exactly `text` (a placeholder such as
   * `TrainingPipeline.TRAINING_JOB_ROLE_ARN`).
   * @internal
   */
  public _contains(text: string): boolean {
    return containsString(this.definition, text);
  }

  /**
   * The definition's `Std:JsonGet` expressions and the problems with them (property file not declared by an earlier
   * Processing step, path outside the supported JSONPath subset); computed once.
   * @internal
   */
  public _jsonGets(): JsonGetScan {
    this.jsonGetScan ??= scanJsonGets(this.definition);
    return this.jsonGetScan;
  }

  /**
   * The string values at `Steps[].Arguments.RoleArn` of the steps of type `stepType`, as written (tokens unresolved).
   * @internal
   */
  public _stepRoleArns(stepType: string): unknown[] {
    const steps = Array.isArray(this.definition.Steps) ? this.definition.Steps : [];
    return steps.filter((s: any) => s?.Type === stepType && s?.Arguments?.RoleArn !== undefined).map((s: any) => s.Arguments.RoleArn);
  }

  /**
   * The values at `Steps[].Arguments.<argument>` (top-level steps and the If/Else steps of Condition steps) of the steps
   * of type `stepType`, as written.
   * @internal
   */
  public _stepArguments(stepType: string, argument: string): unknown[] {
    const out: unknown[] = [];
    const walk = (steps: unknown) => {
      if (!Array.isArray(steps)) return;
      for (const s of steps as any[]) {
        if (s?.Type === stepType && s?.Arguments?.[argument] !== undefined) out.push(s.Arguments[argument]);
        walk(s?.Arguments?.IfSteps);
        walk(s?.Arguments?.ElseSteps);
      }
    };
    walk(this.definition.Steps);
    return out;
  }

  /**
   * Renders the definition for a pipeline in `scope`: inline (`PipelineDefinitionBody`) up to
   * `INLINE_DEFINITION_MAX_BYTES`, else an S3 asset the pipeline role may read. String values equal to a key of
   * `substitutions` are replaced by its value first (which may be a token: the definition must then fit inline).
   * @internal
   */
  public _bind(scope: Construct, role: iam.IRole, substitutions: Record<string, string> = {}): _BoundPipelineDefinition {
    const stack = Stack.of(scope);
    const definition = Object.keys(substitutions).length > 0
      ? substitute(this.definition, substitutions) as Record<string, unknown>
      : this.definition;
    const hasTokens = this.hasTokens || containsTokens(definition);
    const resolved = stack.resolve(definition);
    const version = createHash('sha256').update(canonicalJson(resolved)).digest('hex').slice(0, 16);
    if (hasTokens) {
      const body = stack.toJsonString(definition);
      const approxBytes = Buffer.byteLength(JSON.stringify(resolved), 'utf8');
      if (approxBytes > INLINE_DEFINITION_MAX_BYTES) {
        throw new Error(`Invalid PipelineDefinition (${this.source}): definition: got about ${approxBytes} bytes with CDK tokens in it, expected at most ${INLINE_DEFINITION_MAX_BYTES} bytes (a definition with tokens must be inline; write tokens-free JSON to a file for larger ones)`);
      }
      return { pipelineDefinition: { PipelineDefinitionBody: body }, version };
    }
    const body = JSON.stringify(definition);
    if (Buffer.byteLength(body, 'utf8') <= INLINE_DEFINITION_MAX_BYTES) {
      return { pipelineDefinition: { PipelineDefinitionBody: body }, version };
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-definition-'));
    const file = path.join(dir, 'definition.json');
    fs.writeFileSync(file, body);
    const asset = new s3assets.Asset(scope, 'DefinitionAsset', { path: file });
    // Who reads the object (the CloudFormation caller or the pipeline role) is not documented: let the role read it too.
    asset.grantRead(role);
    return {
      pipelineDefinition: { PipelineDefinitionS3Location: { Bucket: asset.s3BucketName, Key: asset.s3ObjectKey } },
      version,
    };
  }
}

/** `value` with every string equal to a key of `map` replaced by its value. */
function substitute(value: unknown, map: Record<string, string>): unknown {
  if (typeof value === 'string') return Object.prototype.hasOwnProperty.call(map, value) ? map[value] : value;
  if (Array.isArray(value)) return value.map((x) => substitute(x, map));
  if (value && typeof value === 'object' && !Token.isUnresolved(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, substitute(x, map)]));
  }
  return value;
}

function containsString(value: unknown, text: string): boolean {
  if (typeof value === 'string') return value === text;
  if (Array.isArray(value)) return value.some((x) => containsString(x, text));
  if (value && typeof value === 'object') return Object.values(value).some((x) => containsString(x, text));
  return false;
}

function containsTokens(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'number') return Token.isUnresolved(value);
  if (Array.isArray(value)) return Token.isUnresolved(value) || value.some(containsTokens);
  if (value && typeof value === 'object') return Token.isUnresolved(value) || Object.values(value).some(containsTokens);
  return false;
}

/**
 * The start of a text for a one-line error message: its first 80 characters, quoted, line breaks shown as `\n`, with
 * `...` and the full length when cut.
 */
function quote(text: string, max = 80): string {
  const oneLine = (t: string) => t.replace(/\r/g, '\\r').replace(/\n/g, '\\n');
  return text.length <= max ? `'${oneLine(text)}'` : `'${oneLine(text.slice(0, max))}...' (${text.length} characters)`;
}

/** JSON with object keys sorted at every level, so the version does not depend on key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((value as any)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

import { Token } from 'aws-cdk-lib';
import { IConstruct } from 'constructs';

/**
 * Collects every problem with a construct's props and throws once, so a user fixes them all in one pass.
 * Each problem names the prop, the value received and what is expected. Tokens are skipped (unknown until deploy).
 *
 * Internal: not exported from the package's jsii entry point.
 */
export class PropValidator {
  private readonly problems: string[] = [];

  /** @param subject what is being validated, e.g. `RealtimeEndpoint 'Chat'` */
  constructor(private readonly subject: string) {}

  /** Records a problem unless `ok` holds. */
  public check(ok: boolean, prop: string, value: unknown, expected: string): this {
    if (!ok) this.problems.push(`${prop}: got ${show(value)}, expected ${expected}`);
    return this;
  }

  /** Records a free-form problem (already naming prop, value and expectation). */
  public add(message: string): this {
    this.problems.push(message);
    return this;
  }

  /** An integer (or number when `integer` is false) within [min, max]; undefined and tokens pass. */
  public range(prop: string, value: number | undefined, min: number, max: number, opts: { integer?: boolean; unit?: string } = {}): this {
    if (value === undefined || Token.isUnresolved(value)) return this;
    const integer = opts.integer ?? true;
    const unit = opts.unit ? ` ${opts.unit}` : '';
    const ok = Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value));
    return this.check(ok, prop, value, `${integer ? 'an integer' : 'a number'} between ${min} and ${max}${unit}`);
  }

  /** A number >= min; undefined and tokens pass. */
  public atLeast(prop: string, value: number | undefined, min: number, opts: { integer?: boolean } = {}): this {
    if (value === undefined || Token.isUnresolved(value)) return this;
    const integer = opts.integer ?? true;
    const ok = Number.isFinite(value) && value >= min && (!integer || Number.isInteger(value));
    return this.check(ok, prop, value, `${integer ? 'an integer' : 'a number'} >= ${min}`);
  }

  /** A string matching `pattern` (anchor it) and at most `maxLength` long; undefined and tokens pass. */
  public pattern(prop: string, value: string | undefined, pattern: RegExp, expected: string, maxLength?: number): this {
    if (value === undefined || Token.isUnresolved(value)) return this;
    if (maxLength !== undefined && value.length > maxLength) {
      return this.check(false, prop, value, `at most ${maxLength} characters (${expected})`);
    }
    return this.check(pattern.test(value), prop, value, expected);
  }

  /** One of `allowed`; undefined and tokens pass. */
  public oneOf(prop: string, value: string | undefined, allowed: readonly string[]): this {
    if (value === undefined || Token.isUnresolved(value)) return this;
    return this.check(allowed.includes(value), prop, value, `one of ${allowed.join(', ')}`);
  }

  /** The problems recorded so far, for a caller that reports them under its own subject. */
  public get problemList(): string[] {
    return [...this.problems];
  }

  public get hasProblems(): boolean {
    return this.problems.length > 0;
  }

  /** Throws one error listing every problem recorded, if any. */
  public throwIfInvalid(): void {
    if (this.problems.length === 0) return;
    const n = this.problems.length;
    throw new Error(`Invalid ${this.subject}: ${n} problem${n === 1 ? '' : 's'}:\n${this.problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Adds a validation hook to `scope`: the library's only way. */
export function addValidationHook(scope: IConstruct, validate: () => string[]): void {
  // eslint-disable-next-line no-restricted-syntax -- the one place that adds a hook
  scope.node.addValidation({ validate });
}

/**
 * A value rendered once at synth whose problems must reach the user as theirs: a check that throws while a token is
 * resolved reaches them wrapped in "Resolution error" after aws-cdk-lib's source, with no frame of their code. So the
 * first read renders (aws-cdk-lib's prepare phase may resolve the token before the app validates); a failure is kept
 * and reported, with the same message, by a validation of `scope`, which CDK prints with the construct path. Tokens
 * read `valueOrUndefined()`: nothing, when rendering failed, since the validation then stops the synth.
 */
export class RenderedAtValidation<T> {
  private result?: { readonly value: T } | { readonly error: Error };

  constructor(scope: IConstruct, private readonly render: () => T) {
    addValidationHook(scope, () => {
      const result = this.get();
      return 'error' in result ? [result.error.message] : [];
    });
  }

  /** The rendered value, or undefined when rendering failed (the validation reports why). */
  public valueOrUndefined(): T | undefined {
    const result = this.get();
    return 'value' in result ? result.value : undefined;
  }

  private get(): { readonly value: T } | { readonly error: Error } {
    if (!this.result) {
      try {
        this.result = { value: this.render() };
      } catch (e) {
        this.result = { error: e instanceof Error ? e : new Error(String(e)) };
      }
    }
    return this.result;
  }
}

/** Renders a received value for an error message. */
export function show(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** SageMaker resource names (endpoint, endpoint config, model, variant, inference component): `[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}`. */
export const SAGEMAKER_NAME_PATTERN = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/;
export const SAGEMAKER_NAME_EXPECTED = '1-63 letters, digits or hyphens, starting and ending with a letter or digit (pattern [a-zA-Z0-9](-*[a-zA-Z0-9]){0,62})';

/**
 * A `TargetModel` value: "the relative path of the model specified for invocation" under the model's S3 prefix
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/invoke-multi-model-endpoint.html), 1-1024 printable characters not
 * starting with white space (the InvokeEndpoint API reference's `TargetModel` constraints,
 * https://docs.aws.amazon.com/sagemaker/latest/APIReference/API_runtime_InvokeEndpoint.html).
 */
export const TARGET_MODEL_PATTERN = /^\S[\x20-\x7E]{0,1023}$/;
export const TARGET_MODEL_EXPECTED = '1-1024 printable characters, not starting with white space';

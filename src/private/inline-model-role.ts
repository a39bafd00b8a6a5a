/**
 * Internal (not exported from the package): a model execution role whose own statements (what the library grants it
 * while building the endpoint) render inline on the AWS::IAM::Role, in one policy document, instead of in a separate
 * DefaultPolicy (an L2 `iam.Policy` and its AWS::IAM::Policy). One construct and one resource fewer per endpoint, and
 * the same statements, in the same order, as the DefaultPolicy held before.
 *
 * It is a `LazyRole` (nothing renders unless a model uses it) at the same path, so the role's logical ID is unchanged.
 * Outside `ownStatements` (grants made after the endpoint is built, `addToPrincipalPolicy` by the user), statements go
 * where a role's always go: its DefaultPolicy.
 */
import { IResolveContext } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';

/** The name of the inline policy holding the statements the library grants the role. */
export const MODEL_ROLE_POLICY_NAME = 'ModelAccess';

/**
 * A policy document that keeps each statement as its JSON (`toStatementJson()`) instead of the `PolicyStatement` object,
 * and builds a `PolicyDocument` from them whenever it is read (resolved, validated, rendered). An L2 statement holds
 * about 35 heap objects, its JSON 5 to 8; they stay alive until the app's synth ends, and aws-cdk-lib's template
 * validation marks the whole heap on each of its many garbage collections (docs/benchmarks.md). The document renders,
 * validates, merges (`@aws-cdk/aws-iam:minimizePolicies`) and removes duplicates exactly as a `PolicyDocument` of the
 * same statements does, because it is one at every read. A statement changed after it was added is not seen: the
 * library adds only statements it has finished building.
 */
class StatementJsonDocument extends iam.PolicyDocument {
  private readonly statementJson: unknown[] = [];
  /** What `validateForIdentityPolicy` finds (the role validates its inline policies with it), checked as each is added. */
  private readonly identityProblems: string[] = [];

  public addStatements(...statements: iam.PolicyStatement[]): void {
    for (const statement of statements) {
      this.statementJson.push(statement.toStatementJson());
      this.identityProblems.push(...statement.validateForIdentityPolicy());
    }
  }

  public resolve(context: IResolveContext): unknown {
    return this.materialize().resolve(context);
  }

  public get isEmpty(): boolean {
    return this.statementJson.length === 0;
  }

  public get statementCount(): number {
    return this.statementJson.length;
  }

  public toJSON(): unknown {
    return this.materialize().toJSON();
  }

  public validateForAnyPolicy(): string[] {
    return this.materialize().validateForAnyPolicy();
  }

  public validateForIdentityPolicy(): string[] {
    return [...this.identityProblems];
  }

  public validateForResourcePolicy(): string[] {
    return this.materialize().validateForResourcePolicy();
  }

  private materialize(): iam.PolicyDocument {
    return new iam.PolicyDocument({ statements: this.statementJson.map((json) => iam.PolicyStatement.fromJson(json)) });
  }
}

export class InlineModelRole extends iam.LazyRole {
  /** The statements the library granted while `ownStatements` ran: rendered inline as `ModelAccess`. */
  public readonly ownDocument: iam.PolicyDocument;
  private owning = 0;

  constructor(scope: Construct, id: string, props: iam.LazyRoleProps) {
    const ownDocument = new StatementJsonDocument();
    super(scope, id, { ...props, inlinePolicies: { ...props.inlinePolicies, [MODEL_ROLE_POLICY_NAME]: ownDocument } });
    this.ownDocument = ownDocument;
  }

  /** Runs `fn` with every statement added to this role going to its inline `ModelAccess` document. */
  public ownStatements<T>(fn: () => T): T {
    this.owning++;
    try {
      return fn();
    } finally {
      this.owning--;
    }
  }

  public addToPrincipalPolicy(statement: iam.PolicyStatement): iam.AddToPrincipalPolicyResult {
    if (this.owning === 0) return super.addToPrincipalPolicy(statement);
    this.ownDocument.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }

  /** The AWS::IAM::Role, once a model uses the role (LazyRole's role is its child 'Default'). */
  public get cfnRole(): iam.CfnRole | undefined {
    return this.node.tryFindChild('Default')?.node.defaultChild as iam.CfnRole | undefined;
  }
}

/**
 * Runs `fn` with what it grants `role` inline on it when `role` is an `InlineModelRole` (the one an endpoint created);
 * a role given by the user gets its grants where any role does (its DefaultPolicy).
 */
export function withOwnStatements<T>(role: iam.IRole | undefined, fn: () => T): T {
  return role instanceof InlineModelRole ? role.ownStatements(fn) : fn();
}

/**
 * Internal (not exported from the package): model execution roles whose own statements (what the library grants them
 * while building the endpoint) render inline on the AWS::IAM::Role, in one policy document, instead of in a separate
 * DefaultPolicy (an L2 `iam.Policy` and its AWS::IAM::Policy). One construct and one resource fewer per endpoint, and
 * the same statements, in the same order, as the DefaultPolicy held before.
 *
 * Two roles share one mechanism (`OwnStatements`): `InlineModelRole`, a `LazyRole` (nothing renders unless a model
 * uses it; RealtimeEndpoint's), and `InlineStatementsRole`, an eager `iam.Role` (`createExecutionRole`, the other
 * endpoint kinds'). Both sit at the path the role always had, so its logical ID is unchanged. Outside `ownStatements`
 * (grants made after the endpoint is built, `addToPrincipalPolicy` by the user), statements go where a role's always
 * go: its DefaultPolicy.
 */
import { IResolveContext } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct, IDependable } from 'constructs';

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

  /** The statements as added (`toStatementJson()`, tokens unresolved), for a reader that needs no document. */
  public get addedStatementJson(): ReadonlyArray<unknown> {
    return this.statementJson;
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

/**
 * What both roles share: the inline `ModelAccess` document and whether a statement added now belongs in it (while
 * `run` runs) or in the role's DefaultPolicy.
 */
class OwnStatements {
  public readonly document = new StatementJsonDocument();
  private depth = 0;

  /** The role's inline policies with `ModelAccess` added. */
  public inlinePolicies(given?: { [name: string]: iam.PolicyDocument }): { [name: string]: iam.PolicyDocument } {
    return { ...given, [MODEL_ROLE_POLICY_NAME]: this.document };
  }

  public run<T>(fn: () => T): T {
    this.depth++;
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  /** Adds `statement` inline while `run` runs (the role is the dependable); otherwise leaves it to `fallback`. */
  public add(statement: iam.PolicyStatement, role: IDependable, fallback: () => iam.AddToPrincipalPolicyResult): iam.AddToPrincipalPolicyResult {
    if (this.depth === 0) return fallback();
    this.document.addStatements(statement);
    return { statementAdded: true, policyDependable: role };
  }
}

/** A role whose library-granted statements render inline (`InlineModelRole` or `InlineStatementsRole`). */
export interface IInlineStatementsRole extends iam.IRole {
  /** The statements the library granted while `ownStatements` ran: rendered inline as `ModelAccess`. */
  readonly ownDocument: iam.PolicyDocument;
  /**
   * The same statements, each as its JSON with tokens unresolved, in the order added: resolving these is cheaper than
   * resolving `ownDocument` (which builds a `PolicyDocument` of new statements at every read).
   */
  readonly ownStatementsJson: ReadonlyArray<unknown>;
  /** The AWS::IAM::Role, once it renders. */
  readonly cfnRole: iam.CfnRole | undefined;
  /** The `iam.Role` whose DefaultPolicy receives the other statements, once it exists. */
  readonly policyRole: iam.Role | undefined;
  /** Runs `fn` with every statement added to this role going to its inline `ModelAccess` document. */
  ownStatements<T>(fn: () => T): T;
}

/** RealtimeEndpoint's role: a `LazyRole`, rendered only once a model uses it. */
export class InlineModelRole extends iam.LazyRole implements IInlineStatementsRole {
  private readonly own: OwnStatements;

  constructor(scope: Construct, id: string, props: iam.LazyRoleProps) {
    const own = new OwnStatements();
    super(scope, id, { ...props, inlinePolicies: own.inlinePolicies(props.inlinePolicies) });
    this.own = own;
  }

  public get ownDocument(): iam.PolicyDocument {
    return this.own.document;
  }

  public get ownStatementsJson(): ReadonlyArray<unknown> {
    return this.own.document.addedStatementJson;
  }

  public ownStatements<T>(fn: () => T): T {
    return this.own.run(fn);
  }

  public addToPrincipalPolicy(statement: iam.PolicyStatement): iam.AddToPrincipalPolicyResult {
    return this.own.add(statement, this, () => super.addToPrincipalPolicy(statement));
  }

  /** The AWS::IAM::Role, once a model uses the role (LazyRole's role is its child 'Default'). */
  public get cfnRole(): iam.CfnRole | undefined {
    return this.policyRole?.node.defaultChild as iam.CfnRole | undefined;
  }

  public get policyRole(): iam.Role | undefined {
    return this.node.tryFindChild('Default') as iam.Role | undefined;
  }
}

/** The other endpoint kinds' role (`createExecutionRole`): an `iam.Role`, rendered whatever uses it. */
export class InlineStatementsRole extends iam.Role implements IInlineStatementsRole {
  private readonly own: OwnStatements;

  constructor(scope: Construct, id: string, props: iam.RoleProps) {
    const own = new OwnStatements();
    super(scope, id, { ...props, inlinePolicies: own.inlinePolicies(props.inlinePolicies) });
    this.own = own;
  }

  public get ownDocument(): iam.PolicyDocument {
    return this.own.document;
  }

  public get ownStatementsJson(): ReadonlyArray<unknown> {
    return this.own.document.addedStatementJson;
  }

  public ownStatements<T>(fn: () => T): T {
    return this.own.run(fn);
  }

  public addToPrincipalPolicy(statement: iam.PolicyStatement): iam.AddToPrincipalPolicyResult {
    return this.own.add(statement, this, () => super.addToPrincipalPolicy(statement));
  }

  public get cfnRole(): iam.CfnRole {
    return this.node.defaultChild as iam.CfnRole;
  }

  public get policyRole(): iam.Role {
    return this;
  }
}

/** Whether `role` is one whose library-granted statements render inline. */
export function isInlineStatementsRole(role: iam.IRole | undefined): role is IInlineStatementsRole {
  return role instanceof InlineModelRole || role instanceof InlineStatementsRole;
}

/**
 * Runs `fn` with what it grants `role` inline on it when `role` is one an endpoint created (`InlineModelRole`,
 * `InlineStatementsRole`); a role given by the user gets its grants where any role does (its DefaultPolicy).
 */
export function withOwnStatements<T>(role: iam.IRole | undefined, fn: () => T): T {
  return isInlineStatementsRole(role) ? role.ownStatements(fn) : fn();
}

/** What the code under test writes to stdout and stderr, captured per test (and not printed). */
export interface CapturedOutput {
  readonly out: string[];
  readonly err: string[];
}

/** Captures process.stdout and process.stderr writes in each test of the enclosing describe. */
export function captureOutput(): CapturedOutput {
  const captured = { out: [] as string[], err: [] as string[] };
  beforeEach(() => {
    captured.out.length = 0;
    captured.err.length = 0;
    jest.spyOn(process.stdout, 'write').mockImplementation((s) => (captured.out.push(String(s)), true));
    jest.spyOn(process.stderr, 'write').mockImplementation((s) => (captured.err.push(String(s)), true));
  });
  afterEach(() => jest.restoreAllMocks());
  return captured;
}

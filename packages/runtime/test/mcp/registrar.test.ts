/**
 * The one tool wrapper (packages/runtime/src/mcp/tools/registrar.ts): a tool's own deadline arrives as data in its
 * registration (never seen by the SDK), `toolDeadlines` overrides it, and invalid arguments fail as InvalidArguments.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import * as z from 'zod';
import { createToolContext } from '../../src/mcp/tools/context';
import { ToolConfig, ToolRegistrar, toolDeadlineMs, wrapTools } from '../../src/mcp/tools/registrar';

type Registered = { name: string; config: ToolConfig; cb: (args: unknown, extra: unknown) => Promise<any> };

function recorder(): { server: ToolRegistrar; tools: Registered[] } {
  const tools: Registered[] = [];
  return { tools, server: { registerTool: (name, config, cb) => tools.push({ name, config, cb }) } };
}

const ctx = (extra: Record<string, unknown> = {}) => createToolContext({ toolDeadlineMs: 30_000, log: () => undefined, ...extra });
const never = () => new Promise<never>(() => undefined);

afterEach(() => jest.useRealTimers());

test('a declared deadlineMs bounds the call and is not passed on to the SDK', async () => {
  jest.useFakeTimers();
  const { server, tools } = recorder();
  wrapTools(server, ctx()).registerTool('slow', { description: 'x', deadlineMs: 50 }, never);
  expect(tools[0].config).not.toHaveProperty('deadlineMs');
  const answer = tools[0].cb({}, {});
  await jest.advanceTimersByTimeAsync(50);
  const result = await answer;
  expect(result.isError).toBe(true);
  expect(JSON.parse(result.content[0].text)).toMatchObject({ errorName: 'DeadlineExceeded', retryable: true });
});

test('toolDeadlines overrides a declared deadline, which overrides toolDeadlineMs', () => {
  const config = ctx({ toolDeadlines: { pinned: 7 } }).config;
  expect(toolDeadlineMs(config, 'pinned', 50)).toBe(7);
  expect(toolDeadlineMs(config, 'declared', 50)).toBe(50);
  expect(toolDeadlineMs(config, 'plain')).toBe(30_000);
});

test('invalid arguments fail as InvalidArguments; structuredContent on errors only when asked', async () => {
  const schema = z.object({ n: z.number() });
  for (const structuredErrors of [false, true]) {
    const { server, tools } = recorder();
    const cb = jest.fn(never);
    wrapTools(server, ctx(), { structuredErrors }).registerTool('typed', { inputSchema: schema }, cb);
    const result = await tools[0].cb({ n: 'one' }, {});
    expect(cb).not.toHaveBeenCalled();
    expect(JSON.parse(result.content[0].text)).toMatchObject({ errorName: 'InvalidArguments' });
    expect('structuredContent' in result).toBe(structuredErrors);
  }
});

test('only registers the one tool named', () => {
  const { server, tools } = recorder();
  const wrapped = wrapTools(server, ctx(), { only: 'b' });
  for (const name of ['a', 'b', 'c']) wrapped.registerTool(name, {}, never);
  expect(tools.map((t) => t.name)).toEqual(['b']);
});

test('the wrapper takes no constant of invoke: invoke_endpoint declares its deadline itself', () => {
  const source = readFileSync(join(__dirname, '../../src/mcp/tools/registrar.ts'), 'utf8');
  expect(source).not.toMatch(/from '\.\.\/\.\.\/invoke\//);
});
